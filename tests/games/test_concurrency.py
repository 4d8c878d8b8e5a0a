"""Exactly once under races: simultaneous submissions of one turn against a live server."""

from __future__ import annotations

import http.client
import json
import threading
import time
from typing import Any
from urllib.parse import urlparse

import pytest
from django.db import connection, connections, transaction
from django.db.models import F

from games import services
from games.models import Game, Move, Seat
from players.models import ApiToken, User
from tests.games.factories import started_game, user

THREADS = 20


def send(
    base: str, method: str, path: str, token: str, body: Any = None, key: str | None = None
) -> tuple[int, dict[str, str], bytes]:
    """One request on a connection of its own (the point is concurrent connections, not a
    shared one): its status, headers and body as sent."""
    url = urlparse(base)
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=60)
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    if key:
        headers["Idempotency-Key"] = key
    conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
    response = conn.getresponse()
    payload = response.read()
    conn.close()
    return response.status, dict(response.getheaders()), payload


def api_request(
    base: str, method: str, path: str, token: str, body: Any = None, key: str | None = None
) -> tuple[int, Any]:
    status, _, payload = send(base, method, path, token, body, key)
    return status, json.loads(payload) if payload else None


def at_once(count: int, call: Any) -> list[Any]:
    """``call(i)`` in ``count`` threads released together; their results in order."""
    barrier = threading.Barrier(count)
    results: list[Any] = [None] * count

    def run(i: int) -> None:
        barrier.wait()
        results[i] = call(i)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return results


@pytest.mark.django_db(transaction=True)
def test_twenty_simultaneous_submissions_of_one_turn_apply_exactly_once(live_server: Any) -> None:
    alice, bob = user("alice"), user("bob")
    tokens = {u.pk: ApiToken.issue(u, name="test")[1] for u in (alice, bob)}
    game = started_game(host=alice, guest=bob)
    token = tokens[game.current_user_id]
    path = f"/api/v1/games/{game.pk}/"
    status, view = api_request(live_server.url, "GET", path, token)
    assert status == 200
    # Any turn action will do; an opening Force Swap or Targeted Draw 2 asks for a target first.
    turn = [
        a for a in view["table"]["legal_actions"] if a["type"] in ("play", "draw", "choose_target")
    ]
    action = {k: v for k, v in turn[0].items() if k != "seat"}
    action["expected_version"] = view["version"]
    moves_before = Move.objects.filter(game=game).count()

    results: list[tuple[int, Any]] = at_once(
        THREADS,
        lambda i: api_request(
            live_server.url, "POST", path + "actions/", token, action, key=f"same-turn-{i}"
        ),
    )

    statuses = sorted(status for status, _ in results)
    assert statuses.count(200) == 1, statuses
    assert statuses.count(409) == THREADS - 1, statuses
    conflicts = [body["error"]["code"] for status, body in results if status == 409]
    assert set(conflicts) == {"version_conflict"}
    assert Move.objects.filter(game=game).count() == moves_before + 1
    game.refresh_from_db()
    assert game.version == view["version"] + 1


@pytest.mark.django_db(transaction=True)
def test_copies_of_one_request_sent_at_once_with_one_key_move_once_and_answer_alike(
    live_server: Any,
) -> None:
    """Copies of one action under one Idempotency-Key, sent at the same moment: the game's row
    lock makes all but one wait, their records then collide with the first's, their moves (made
    as if the key were fresh) are rolled back, and each replays the first answer byte for byte."""
    game = started_game(host=user("alice"), guest=user("bob"))
    token = ApiToken.issue(User.objects.get(pk=game.current_user_id), name="test")[1]
    path = f"/api/v1/games/{game.pk}/"
    view = api_request(live_server.url, "GET", path, token)[1]
    turn = [a for a in view["table"]["legal_actions"] if a["type"] in ("draw", "choose_target")]
    # No expected_version: a copy that ran as fresh after the first would be refused (not its
    # turn any more, or a choice already made), so only the replay can answer it with a 200.
    action = {k: v for k, v in turn[0].items() if k != "seat"}
    moves_before = Move.objects.filter(game=game).count()

    copies = 4
    answers = at_once(
        copies,
        lambda i: send(live_server.url, "POST", path + "actions/", token, action, key="one-key"),
    )

    assert [status for status, _, _ in answers] == [200] * copies, answers
    assert len({body for _, _, body in answers}) == 1
    replayed = [headers.get("Idempotent-Replayed") for _, headers, _ in answers]
    assert sorted(replayed, key=str) == sorted([None] + ["true"] * (copies - 1), key=str)
    assert Move.objects.filter(game=game).count() == moves_before + 1
    assert Game.objects.get(pk=game.pk).version == view["version"] + 1


@pytest.mark.django_db(transaction=True)
def test_an_action_that_waited_for_the_game_lock_sees_the_seats_as_the_holder_left_them() -> None:
    """``act`` reads the seats and locks the game in one query. On PostgreSQL a query that waits
    for the row lock gets the game row as the holder committed it, but the other tables as they
    were when it started: the seats must still be the ones the holder left (here: a timeout
    counted), never those from before. Also the check that the lock is taken: the reader waits."""
    if connection.vendor != "postgresql":
        return  # SQLite has no row locks: its writers take turns
    alice, bob = user("alice"), user("bob")
    game = started_game(host=alice, guest=bob)
    version = Game.objects.get(pk=game.pk).version
    locked, release = threading.Event(), threading.Event()
    seen: dict[str, Any] = {}

    def hold() -> None:
        try:
            with transaction.atomic():
                services.base.lock_game(game.pk)
                Seat.objects.filter(game=game, user=alice).update(timeouts_in_row=2)
                Game.objects.filter(pk=game.pk).update(version=F("version") + 1)
                locked.set()
                release.wait(30)
        finally:
            connections.close_all()

    def read() -> None:
        try:
            with transaction.atomic():
                found, seats = services.base.lock_game_with_seats(game.pk)
                seen["version"] = found.version
                seen["timeouts"] = {s.user_id: s.timeouts_in_row for s in seats}
                seen["one game"] = all(s.game is found for s in seats)
        finally:
            connections.close_all()

    holder = threading.Thread(target=hold)
    holder.start()
    assert locked.wait(30)
    reader = threading.Thread(target=read)
    reader.start()
    try:
        deadline = time.monotonic() + 30
        while not _waiting_for_a_lock() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _waiting_for_a_lock(), "the reader did not wait for the game's lock"
        assert not seen
    finally:
        release.set()
        holder.join(timeout=60)
        reader.join(timeout=60)
    assert seen == {"version": version + 1, "timeouts": {alice.pk: 2, bob.pk: 0}, "one game": True}


def _waiting_for_a_lock() -> bool:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        return bool(cursor.fetchone()[0])
