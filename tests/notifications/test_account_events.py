"""The account event stream (``GET games/live/stream/``, notifications/api/events.py): one stream
per account, SSE or NDJSON, resumable from the last event id, nothing lost and nothing twice.

The stream tests run against the live server (WSGI) and drive the ASGI driver in-process on an
event loop; every wait is on an event arriving, bounded by a timeout, never a sleep.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import queue
import random
import threading
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.test import override_settings
from django.utils import timezone

from games.models import Game
from live import announce, driver
from notifications import kinds, services
from notifications.api import events as account
from notifications.models import Notification
from players.models import ApiToken
from tests.games.conftest import (
    Player,
    make_player,
    player_to_move,
    random_action,
    start_game,
)

URL = "/api/v1/games/live/stream/"


@pytest.fixture(autouse=True)
def fresh_notifier() -> Iterator[None]:
    """The live server's streams wait on this process's notifier: stop it at the end, so that a
    stream left waiting reads no database that the test is dropping."""
    yield
    announce.stop_notifier()


def ids_of(player: Player) -> list[int]:
    return list(
        Notification.objects.filter(user=player.user).order_by("pk").values_list("pk", flat=True)
    )


def play_moves(players: list[Player], game_id: str, count: int, rng: random.Random) -> bool:
    """Up to ``count`` moves by whoever is to move; whether the game is over."""
    for _ in range(count):
        if Game.objects.get(pk=game_id).status != Game.ACTIVE:
            return True
        mover = player_to_move(players, game_id)
        response = mover.act(game_id, random_action(mover.table(game_id), rng))
        assert response.status_code == 200, response.content
    return Game.objects.get(pk=game_id).status != Game.ACTIVE


# ---------------------------------------------------------------------------------------------
# The JSON form, the formats, the cursor, scopes


@pytest.mark.usefixtures("lift_throttles")
@pytest.mark.django_db
class TestThePage:
    def test_it_lists_my_events_with_the_game_and_the_version_to_act_on(
        self, alice: Player, bob: Player
    ) -> None:
        game_id = start_game(alice, bob, target_score=0)
        game = Game.objects.get(pk=game_id)
        to_move = alice if game.current_user_id == alice.user.pk else bob
        page = to_move.get(URL, {"after": 0}).json()
        got = {event["kind"]: event for event in page["events"]}
        assert got[kinds.GAME_STARTED]["game"] == game_id
        assert got[kinds.YOUR_TURN]["game"] == game_id
        assert got[kinds.YOUR_TURN]["version"] == game.version
        assert page["next_after"] == page["events"][-1]["id"] and not page["has_more"]

    def test_another_accounts_events_never_appear(
        self, alice: Player, bob: Player, carol: Player
    ) -> None:
        start_game(alice, bob, target_score=0)
        for player in (alice, bob, carol):
            got = [event["id"] for event in player.get(URL, {"after": 0}).json()["events"]]
            assert got == ids_of(player)
        assert carol.get(URL, {"after": 0}).json()["events"] == []

    def test_without_a_cursor_it_starts_from_now(self, alice: Player, bob: Player) -> None:
        start_game(alice, bob, target_score=0)
        page = alice.get(URL).json()
        assert page == {"events": [], "next_after": ids_of(alice)[-1], "has_more": False}

    def test_last_event_id_wins_over_after(self, alice: Player, bob: Player) -> None:
        start_game(alice, bob, target_score=0)
        first, *rest = ids_of(alice)
        page = alice.get(URL, {"after": 0}, **{"Last-Event-ID": str(first)}).json()
        assert [event["id"] for event in page["events"]] == rest

    @pytest.mark.parametrize(
        ("query", "headers"),
        [
            ({"format": "xml"}, {}),
            ({"after": "-1"}, {}),
            ({"after": "x"}, {"Accept": "text/event-stream"}),
            ({}, {"Last-Event-ID": "abc", "Accept": "application/x-ndjson"}),
        ],
    )
    def test_a_bad_format_or_cursor_is_400_in_json(
        self, alice: Player, query: dict[str, str], headers: dict[str, str]
    ) -> None:
        response = alice.get(URL, query, **headers)
        assert response.status_code == 400
        assert response["Content-Type"] == "application/json"
        assert response.json()["error"]["code"] == "invalid_request"

    def test_without_credentials_it_is_401_in_json(self, client: Any) -> None:
        response = client.get(URL, {"format": "sse"})
        assert response.status_code == 401
        assert response["Content-Type"] == "application/json"

    @pytest.mark.parametrize(
        ("query", "headers", "content_type"),
        [
            ({"format": "sse"}, {}, "text/event-stream"),
            ({"format": "ndjson"}, {"Accept": "text/event-stream"}, "application/x-ndjson"),
            ({}, {"Accept": "application/x-ndjson"}, "application/x-ndjson"),
            ({}, {"Accept": "text/event-stream"}, "text/event-stream"),
            ({"format": "json"}, {"Accept": "text/event-stream"}, "application/json"),
        ],
    )
    def test_the_form_is_chosen_by_format_then_accept(
        self,
        alice: Player,
        query: dict[str, str],
        headers: dict[str, str],
        content_type: str,
        monkeypatch: pytest.MonkeyPatch,
    ) -> None:
        # The stream's body is not read here (it would wait): only the answer's form.
        monkeypatch.setattr(driver, "drive_blocking", lambda stream: iter([b""]))
        response = alice.get(URL, query, **headers)
        assert response.status_code == 200
        assert response["Content-Type"] == content_type

    def test_a_read_token_may_read_it(self, db: None) -> None:
        reader = make_player("dave", scope=ApiToken.SCOPE_READ)
        services.notify_moderation(user=reader.user, message="Hello")
        events = reader.get(URL, {"after": 0}).json()["events"]
        assert [event["kind"] for event in events] == [kinds.MODERATION]


@pytest.mark.django_db
@pytest.mark.usefixtures("lift_throttles")
def test_stream_only_kinds_stay_out_of_the_inbox(alice: Player, bob: Player) -> None:
    start_game(alice, bob, target_score=0)
    started = Notification.objects.get(user=alice.user, kind=kinds.GAME_STARTED)
    assert started.cleared_at is not None and not started.deliveries.exists()
    inbox = alice.get("/api/v1/notifications/").json()
    assert kinds.GAME_STARTED not in {item["kind"] for item in inbox["results"]}


@pytest.mark.django_db
@pytest.mark.parametrize("stream_only", [False, True])
def test_a_new_kind_is_one_registration(
    alice: Player, monkeypatch: pytest.MonkeyPatch, stream_only: bool
) -> None:
    for name in ("KINDS", "STREAM_ONLY"):
        monkeypatch.setattr(kinds, name, getattr(kinds, name))
    monkeypatch.setattr(kinds, "DESCRIPTIONS", dict(kinds.DESCRIPTIONS))
    kinds.register(
        "tournament_round", "A round of your tournament starts.", stream_only=stream_only
    )
    services.notify(user=alice.user, kind="tournament_round", data={"by": "Bob"})
    (event,) = alice.get(URL, {"after": 0}).json()["events"]
    assert (event["kind"], event["data"]) == ("tournament_round", {"by": "Bob"})
    in_inbox = [n["kind"] for n in alice.get("/api/v1/notifications/").json()["results"]]
    assert in_inbox == ([] if stream_only else ["tournament_round"])


@pytest.mark.django_db
def test_a_row_committed_after_a_higher_one_was_sent_still_comes_once(alice: Player) -> None:
    """Two transactions writing for one player may commit out of id order: the stream reads
    again from below what it sent in the last seconds, and skips what it sent."""
    early = services.notify_moderation(user=alice.user, message="committed late")
    late = services.notify_moderation(user=alice.user, message="sent first")
    plan = account.AccountStream(alice.user.pk, None, None, "ndjson", early.pk - 1, 0, [])
    plan.first = [account.event_of(late)]  # what the first read saw: ``early`` not yet there
    steps = account.stream_steps(plan)
    assert json.loads(next(steps))["id"] == late.pk
    assert isinstance(steps.send(None), driver.Wait)
    read = steps.send(None)  # woken: read again
    assert isinstance(read, driver.Call) and read.fn is account.read_after
    _, found = read.fn(*read.args)
    assert [event["id"] for event in found] == [early.pk]


@pytest.mark.django_db
def test_a_backlog_written_long_ago_leaves_nothing_to_skip(alice: Player) -> None:
    """Rows older than the settling time cannot have a lower id still to commit: the next read
    starts above them, with no ids to skip (a long catch-up sends no growing exclusion list)."""
    for i in range(3):
        services.notify_moderation(user=alice.user, message=f"old {i}")
    Notification.objects.update(created_at=timezone.now() - timedelta(minutes=1))
    rows = account.read_events(alice.user.pk, 0)
    plan = account.AccountStream(alice.user.pk, None, None, "ndjson", 0, 0, rows)
    steps = account.stream_steps(plan)
    sent = [json.loads(next(steps))["id"] for _ in rows]
    assert isinstance(steps.send(None), driver.Wait)
    read = steps.send(None)
    assert isinstance(read, driver.Call) and read.args == (plan, sent[-1], frozenset())


# ---------------------------------------------------------------------------------------------
# Streams over the live server (WSGI)


class Reader(threading.Thread):
    """Reads an SSE or NDJSON stream into a queue of (id, kind, data); None at its end."""

    def __init__(self, response: http.client.HTTPResponse, form: str) -> None:
        super().__init__(daemon=True)
        self.response, self.form = response, form
        self.items: queue.Queue[tuple[str | None, str, Any] | None] = queue.Queue()

    def run(self) -> None:
        try:
            fields: dict[str, str] = {}
            while line := self.response.readline():
                text = line.decode().rstrip("\n")
                if self.form == "ndjson":
                    if text:  # an empty line is a keep-alive
                        body = json.loads(text)
                        self.items.put((str(body.get("id")), body["kind"], body))
                elif text == "":
                    if "data" in fields:
                        data = json.loads(fields["data"])
                        self.items.put((fields.get("id"), fields.get("event", ""), data))
                    fields = {}
                elif not text.startswith(":"):
                    name, _, value = text.partition(": ")
                    fields[name] = value
        except Exception:  # the test closed the connection under us
            pass
        finally:
            self.items.put(None)

    def next(self, timeout: float = 10) -> tuple[str | None, str, Any] | None:
        try:
            return self.items.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"no event within {timeout} s") from None


def open_stream(
    base: str, token: str, form: str, after: str
) -> tuple[http.client.HTTPConnection, Reader]:
    host, port = base.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=30)
    headers = {"Authorization": f"Bearer {token}"}
    if form == "sse":
        headers |= {"Accept": "text/event-stream", "Last-Event-ID": after}
        path = URL
    else:
        path = f"{URL}?format=ndjson&after={after}"
    connection.request("GET", path, headers=headers)
    response = connection.getresponse()
    assert response.status == 200
    reader = Reader(response, form)
    reader.start()
    return connection, reader


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("lift_throttles")
@pytest.mark.parametrize("form", ["sse", "ndjson"])
def test_cut_mid_game_and_resumed_every_event_arrives_exactly_once(
    live_server: Any, alice: Player, bob: Player, form: str
) -> None:
    rng = random.Random(7)
    before = ids_of(alice)[-1] if ids_of(alice) else 0
    received: list[int] = []

    def take(reader: Reader, upto: int) -> None:
        """Read until the event ``upto`` arrived, keeping every id (waits on the events)."""
        while not received or received[-1] < upto:
            item = reader.next()
            assert item is not None, "the stream ended"
            event_id, kind, data = item
            assert data["id"] == int(event_id or 0) and kind == data["kind"]
            received.append(data["id"])

    with override_settings(LIVE_HEARTBEAT_SECONDS=0.3):
        connection, reader = open_stream(live_server.url, alice.token, form, str(before))
        try:
            game_id = start_game(alice, bob, target_score=0)
            play_moves([alice, bob], game_id, 6, rng)
            take(reader, ids_of(alice)[-1])
        finally:
            connection.close()  # cut mid-game
        # Moves while alice is away, then she resumes from the last id she got.
        over = play_moves([alice, bob], game_id, 6, rng)
        connection, reader = open_stream(live_server.url, alice.token, form, str(received[-1]))
        try:
            while not over:
                over = play_moves([alice, bob], game_id, 5, rng)
                take(reader, ids_of(alice)[-1])
            take(reader, ids_of(alice)[-1])
        finally:
            connection.close()
    expected = [pk for pk in ids_of(alice) if pk > before]
    assert received == expected  # each once, in order, none of bob's
    kinds_got = set(Notification.objects.filter(pk__in=received).values_list("kind", flat=True))
    assert {kinds.GAME_STARTED, kinds.YOUR_TURN, kinds.MATCH_OVER} <= kinds_got
    assert not set(received) & set(ids_of(bob))


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("lift_throttles")
def test_a_revoked_token_ends_the_stream_within_a_keep_alive(
    live_server: Any, alice: Player
) -> None:
    with override_settings(LIVE_HEARTBEAT_SECONDS=0.3):
        connection, reader = open_stream(live_server.url, alice.token, "ndjson", "0")
        try:
            ApiToken.objects.filter(user=alice.user).update(revoked_at=timezone.now())
            item = reader.next()
            assert item is not None and item[2] == {
                "kind": "end",
                "reason": "authentication_failed",
            }
            assert reader.next() is None
        finally:
            connection.close()


# ---------------------------------------------------------------------------------------------
# The ASGI driver, on an event loop of its own


@pytest.mark.django_db(transaction=True)
def test_under_asgi_an_event_comes_and_a_revoked_token_ends_the_stream(alice: Player) -> None:
    token = ApiToken.objects.get(user=alice.user)
    plan = account.AccountStream(
        alice.user.pk, token.pk, None, "sse", 0, announce.user_mark(alice.user.pk), []
    )

    async def scenario() -> list[bytes]:
        got: list[bytes] = []
        stream = driver.drive(account.stream_of(plan))
        got.append(await anext(stream))  # retry:
        waiting = asyncio.ensure_future(anext(stream))
        notice = await asyncio.to_thread(services.notify_moderation, user=alice.user, message="Hi")
        chunk = await asyncio.wait_for(waiting, 10)
        while chunk == b": keep-alive\n\n":
            chunk = await asyncio.wait_for(anext(stream), 10)
        got.append(chunk)
        assert f"id: {notice.pk}".encode() in got[-1]
        await asyncio.to_thread(
            lambda: ApiToken.objects.filter(pk=token.pk).update(revoked_at=timezone.now())
        )
        async with asyncio.timeout(10):
            async for chunk in stream:
                got.append(chunk)
        return got

    with override_settings(LIVE_HEARTBEAT_SECONDS=0.3):
        got = asyncio.run(scenario())
    assert got[0].startswith(b"retry:")
    assert b"event: moderation" in got[1]
    assert got[-1].startswith(b"event: end") and b"authentication_failed" in got[-1]
