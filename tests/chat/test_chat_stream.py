"""The chat on the game's live stream (``games/{id}/stream/?chat_after=``): a message reaches the
other seat's stream as a ``chat`` event, a filtered one does not, a deletion comes as a
tombstone; the notifier's second key (``Wait.also``) and the re-check of the chat's marks."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from chat import live, selectors, services
from chat.models import ChatMessage
from games.api import feeds, streams
from live import announce, driver
from live.notifier import Notifier, Side
from live.versions import db_versions
from tests.chat.conftest import CHAT_TESTS, Player, lift_chat_rate, said  # noqa: F401
from tests.games.conftest import game_url, start_game
from tests.live.servers import EventReader, open_stream

# Every test with the throttles lifted; each database test has its own django_db mark (two need
# transactions).
pytestmark = CHAT_TESTS[1:]


@pytest.fixture(autouse=True)
def fresh_notifier() -> Iterator[None]:
    """The live server's streams wait on this process's notifier: stop it at the end, so that a
    stream left waiting reads no database that the test is dropping."""
    yield
    announce.stop_notifier()


@contextmanager
def _chat_stream(server: Any, path: str, token: str) -> Iterator[EventReader]:
    """The stream at ``path`` opened with ``token``, read by a started ``EventReader``."""
    connection, response = open_stream(server.url, path, token)
    try:
        assert response.status == 200
        reader = EventReader(response)
        reader.start()
        yield reader
    finally:
        connection.close()


def _chat_events(reader: EventReader, count: int) -> list[dict[str, Any]]:
    """The next ``count`` chat messages on the stream (other events skipped)."""
    found: list[dict[str, Any]] = []
    while len(found) < count:
        event = reader.next(10)
        assert event is not None, f"the stream ended after {found}"
        if event.event == "chat":
            found += event.json()["messages"]
    return found


def _next_chat(reader: EventReader, *fields: str) -> tuple[Any, ...]:
    """The given fields of the next chat message on the stream."""
    (message,) = _chat_events(reader, 1)
    return tuple(message[field] for field in fields)


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_messages_and_deletions_reach_the_other_seats_stream(
    live_server: Any, alice: Player, bob: Player, settings: Any
) -> None:
    settings.CHAT_WORD_FILTER = ["darn"]
    game_id = start_game(alice, bob, target_score=0)
    early = said(alice, game_id, "before the stream")
    path = game_url(game_id, "stream/") + f"?chat_after={early['id'] - 1}"
    with _chat_stream(live_server, path, bob.token) as reader:
        assert _next_chat(reader, "text", "author_username") == ("before the stream", "alice")
        assert announce.notifier().wait_for_waiters(live.key(game_id), timeout=10)
        said(alice, game_id, "darn it")  # filtered: never sent to bob
        kept = said(alice, game_id, "<b>gl</b>")
        assert _next_chat(reader, "id", "text") == (kept["id"], "<b>gl</b>")
        services.delete(message=ChatMessage.objects.get(pk=kept["id"]))
        assert _next_chat(reader, "deletes", "text") == (kept["id"], "")


@pytest.mark.django_db
def test_a_stream_carries_the_chat_only_when_asked_and_only_to_who_may_read_it(
    alice: Player, bob: Player, carol: Player
) -> None:
    game_id = start_game(alice, bob, target_score=0, spectating="private")
    plain = bob.get(game_url(game_id, "stream/"))
    assert plain.status_code == 200
    assert alice.get(game_url(game_id, "stream/") + "?chat_after=-1").status_code == 400
    seat = live.open_reader(bob.user, game_id)
    assert seat is not None and seat.channel == ChatMessage.PLAYERS
    assert live.open_reader(carol.user, game_id) is None  # nobody watches a private game


@pytest.mark.django_db
def test_a_hidden_message_moves_the_cursor_on(alice: Player, bob: Player) -> None:
    """Else the stream's next wait (above its cursor) would be woken at once, forever."""
    game_id = start_game(alice, bob, target_score=0)
    bob.post("/api/v1/me/chat/mutes/", {"username": "alice"})
    message = said(alice, game_id, "muted")
    reader = live.open_reader(bob.user, game_id)
    assert reader is not None
    assert live.read(reader, 0) == ([], message["id"], False)


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_the_watch_stream_carries_the_spectators_chat_and_never_the_players(
    live_server: Any, alice: Player, bob: Player, carol: Player, dave: Player
) -> None:
    game_id = start_game(alice, bob, target_score=0)
    said(alice, game_id, "players only")
    early = said(dave, game_id, "first to watch", channel="spectators")
    path = game_url(game_id, "watch/stream/") + "?chat_after=0"
    with _chat_stream(live_server, path, carol.token) as reader:
        assert _next_chat(reader, "id", "text") == (early["id"], "first to watch")
        assert announce.notifier().wait_for_waiters(live.key(game_id), timeout=10)
        said(bob, game_id, "still players only")  # the players' channel: never to carol
        later = said(dave, game_id, "<i>nice</i>", channel="spectators")
        assert _next_chat(reader, "id", "text") == (later["id"], "<i>nice</i>")


@pytest.mark.django_db
def test_a_spectator_reads_the_spectators_channel_only_while_the_rules_let_them_watch(
    alice: Player, bob: Player, carol: Player
) -> None:
    game_id = start_game(alice, bob, target_score=0)
    spectator = live.open_reader(carol.user, game_id)
    assert spectator is not None and spectator.channel == ChatMessage.SPECTATORS
    assert said(carol, game_id, "hello", channel="spectators")["text"] == "hello"
    refused = carol.get(game_url(game_id, "chat/"), {"channel": "players"})
    assert refused.status_code == 403
    alice.client.patch(game_url(game_id, "spectating/"), {"spectating": "private"}, format="json")
    assert live.open_reader(carol.user, game_id) is None
    assert carol.get(game_url(game_id, "chat/"), {"channel": "spectators"}).status_code == 404


@pytest.mark.django_db
@pytest.mark.usefixtures("lift_throttles", "lift_chat_rate")
def test_a_live_reader_rechecks_its_access_and_mutes_when_due(
    alice: Player, bob: Player, carol: Player, dave: Player, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A stream's reader keeps what it read at its opening for ``RECHECK_SECONDS``, then reads
    it again: a mute, or the host making the game private, reaches an open stream."""
    game_id = start_game(alice, bob, target_score=0)
    reader = live.open_reader(carol.user, game_id)
    assert reader is not None
    first = said(dave, game_id, "one", channel="spectators")
    carol.post("/api/v1/me/chat/mutes/", {"username": "dave"})
    # Within the time, the mute is not read yet.
    assert [r["text"] for r in live.read(reader, 0, first["id"])[0]] == ["one"]
    monkeypatch.setattr(live, "RECHECK_SECONDS", 0.0)
    second = said(dave, game_id, "two", channel="spectators")
    assert live.read(reader, first["id"], second["id"]) == ([], second["id"], False)
    carol.client.delete("/api/v1/me/chat/mutes/dave/")
    third = said(dave, game_id, "three", channel="spectators")
    assert [r["text"] for r in live.read(reader, second["id"], third["id"])[0]] == ["three"]
    fourth = said(dave, game_id, "four", channel="spectators")
    alice.client.patch(game_url(game_id, "spectating/"), {"spectating": "private"}, format="json")
    assert live.read(reader, third["id"], fourth["id"]) == ([], fourth["id"], False)


def test_the_steps_send_chat_events_when_the_chat_key_wakes_them() -> None:
    reader = object()
    plan = streams.StreamPlan(
        "g",
        "uno",
        None,  # type: ignore[arg-type]
        None,
        0,
        streams._live_update(4, "active", [], 4, False),
        chat=reader,
        chat_after=7,
    )
    steps = streams._steps(plan)
    assert next(steps).startswith(b"retry:")
    assert steps.send(None).startswith(b"id: 4\nevent: version")
    read = steps.send(None)
    assert isinstance(read, driver.Call) and read.fn is feeds.read_side
    wait = steps.send(([{"id": 8}], 8, False))
    assert wait == streams._sse("chat", {"messages": [{"id": 8}], "next_after": 8})
    wait = steps.send(None)
    assert isinstance(wait, driver.Wait) and wait.also == ("chat:g", 8)
    read = steps.send(Side(9))
    assert isinstance(read, driver.Call) and read.fn is feeds.read_side
    wait = steps.send(([], 9, False))  # nothing this seat may read: no event
    assert isinstance(wait, driver.Wait) and wait.also == ("chat:g", 9)


def test_the_notifier_answers_a_side_when_the_second_key_wakes_it() -> None:
    notifier = Notifier(versions=lambda keys: {})

    async def scenario() -> tuple[Any, Any, Any]:
        loop = asyncio.get_running_loop()
        loop.call_soon(notifier.publish, "chat:g", 11)
        side = await notifier.wait("g", above=3, timeout=5, also=("chat:g", 10))
        loop.call_soon(notifier.publish, "g", 4)
        main = await notifier.wait("g", above=3, timeout=5, also=("chat:g", 11))
        quiet = await notifier.wait("g", above=4, timeout=0.05, also=("chat:g", 11))
        return side, main, quiet

    try:
        assert asyncio.run(scenario()) == (Side(11), 4, None)
        assert notifier.wait_blocking("g", above=0, timeout=1, also=("chat:g", 0)) == 4
        assert notifier.wait_blocking("x", above=0, timeout=1, also=("chat:g", 5)) == Side(11)
        assert notifier.waiting() == 0
    finally:
        notifier.stop()


@pytest.mark.django_db
def test_the_recheck_reads_the_chat_marks_beside_the_games_versions(
    alice: Player, bob: Player, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The re-check thread's own clean-up would close the test's (in-memory) database.
    monkeypatch.setattr("live.versions.close_old_connections", lambda: None)
    game_id = start_game(alice, bob, target_score=0)
    message = said(alice, game_id, "hi")
    found = db_versions([game_id, live.key(game_id)])
    assert found[live.key(game_id)] == message["id"] == selectors.mark(game_id)
    assert found[game_id] >= 1
