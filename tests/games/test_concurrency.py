"""Exactly once under races: simultaneous submissions of one turn against a live server."""

from __future__ import annotations

import http.client
import json
import threading
from typing import Any
from urllib.parse import urlparse

import pytest

from games import services
from games.models import Game, Move
from players.models import ApiToken, User

THREADS = 20


def _request(
    base: str, method: str, path: str, token: str, body: Any = None, key: str | None = None
) -> tuple[int, Any]:
    url = urlparse(base)
    # A connection of its own per call: the point is concurrent connections, not a shared one.
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=60)
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    if key:
        headers["Idempotency-Key"] = key
    conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
    response = conn.getresponse()
    payload = response.read()
    conn.close()
    return response.status, json.loads(payload) if payload else None


@pytest.mark.django_db(transaction=True)
def test_twenty_simultaneous_submissions_of_one_turn_apply_exactly_once(live_server: Any) -> None:
    alice = User.objects.create_user(username="alice", password="pw-alice-123")
    bob = User.objects.create_user(username="bob", password="pw-bob-123")
    tokens = {u.pk: ApiToken.issue(u, name="test")[1] for u in (alice, bob)}
    game = services.create_game(host=alice, max_players=2, target_score=0)
    services.join_game(user=bob, invite_code=game.invite_code)  # full: starts by itself
    game.refresh_from_db()
    assert game.status == Game.ACTIVE
    token = tokens[game.current_user_id]
    path = f"/api/v1/games/{game.pk}/"
    status, view = _request(live_server.url, "GET", path, token)
    assert status == 200
    # Any turn action will do; an opening Force Swap or Targeted Draw 2 asks for a target first.
    turn = [
        a for a in view["table"]["legal_actions"] if a["type"] in ("play", "draw", "choose_target")
    ]
    action = {k: v for k, v in turn[0].items() if k != "seat"}
    action["expected_version"] = view["version"]
    moves_before = Move.objects.filter(game=game).count()

    barrier = threading.Barrier(THREADS)
    results: list[tuple[int, Any]] = [(0, None)] * THREADS

    def submit(i: int) -> None:
        barrier.wait()
        results[i] = _request(
            live_server.url, "POST", path + "actions/", token, action, key=f"same-turn-{i}"
        )

    threads = [threading.Thread(target=submit, args=(i,)) for i in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)

    statuses = sorted(status for status, _ in results)
    assert statuses.count(200) == 1, statuses
    assert statuses.count(409) == THREADS - 1, statuses
    conflicts = [body["error"]["code"] for status, body in results if status == 409]
    assert set(conflicts) == {"version_conflict"}
    assert Move.objects.filter(game=game).count() == moves_before + 1
    game.refresh_from_db()
    assert game.version == view["version"] + 1
