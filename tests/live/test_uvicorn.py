"""Live updates against a real uvicorn server, started as a subprocess on its own temporary
SQLite file without Redis (the embedded default), whatever database the surrounding run uses: 50
waiting long-polls hold no thread and do not stop a game view, one move wakes them all; the game
stream and the account stream under ASGI."""

from __future__ import annotations

import http.client
import statistics
import time
from collections.abc import Iterator

import pytest

from tests.live.servers import (
    ASYNC_CHAIN_MODULE,
    ASYNC_CHAIN_SETTINGS,
    Deployment,
    EventReader,
    Poll,
    move_through_api,
    open_stream,
    prepare_database,
    request,
    start_server,
    stop_server,
    wait_until,
)

# The pass's Redis (pub/sub, user marks) and uvicorn on its database: on both passes of CI.
pytestmark = pytest.mark.services


@pytest.fixture(scope="module")
def embedded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Deployment]:
    """One uvicorn server, SQLite, no Redis: the default a checkout runs."""
    folder = tmp_path_factory.mktemp("live-embedded")
    database = folder / "live.sqlite3"
    setup = prepare_database(database, None)
    server = start_server(database, folder / "uvicorn.log")
    try:
        yield Deployment([server], setup["game"], setup["tokens"])
    finally:
        stop_server(server)


@pytest.fixture(scope="module")
def async_chain(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Deployment]:
    """Like ``embedded``, with every middleware async (see ASYNC_CHAIN_SETTINGS)."""
    folder = tmp_path_factory.mktemp("live-async-chain")
    (folder / f"{ASYNC_CHAIN_SETTINGS}.py").write_text(ASYNC_CHAIN_MODULE)
    database = folder / "live.sqlite3"
    setup = prepare_database(database, None)
    server = start_server(database, folder / "uvicorn.log", settings_dir=folder)
    try:
        yield Deployment([server], setup["game"], setup["tokens"])
    finally:
        stop_server(server)


# ---------------------------------------------------------------------------------------------
# A real uvicorn server (ASGI), SQLite, no Redis


def test_fifty_waiting_long_polls_do_not_delay_a_game_view(embedded: Deployment) -> None:
    version = embedded.version()
    alice, bob = embedded.players()
    url = f"{embedded.base}/api/v1/games/{embedded.game}/events/?after={version}&wait=10"
    polls = [Poll(url, alice if i % 2 else bob, timeout=30) for i in range(50)]
    for poll in polls:
        poll.start()
    server = embedded.servers[0]
    wait_until(lambda: server.waiting_polls() == 50, 30, "fifty long-polls waiting")
    waiting = [p for p in polls if p.is_alive()]
    assert len(waiting) == 50, [(p.status, p.body, p.error) for p in polls if not p.is_alive()]
    threads = server.threads()

    started = time.monotonic()
    status, _, view = request(f"{embedded.base}/api/v1/games/{embedded.game}/", alice)
    view_seconds = time.monotonic() - started
    assert status == 200 and view["version"] == version
    # Answered while every long-poll still waits: none holds what the view needs.
    assert all(p.is_alive() for p in polls) and server.waiting_polls() == 50

    moved_at = time.monotonic()
    new_version = move_through_api(embedded.base, embedded.players(), embedded.game)
    for poll in polls:
        poll.join(timeout=10)
    assert all(not p.is_alive() and p.error is None for p in polls), [p.error for p in polls]
    assert {p.status for p in polls} == {200}
    assert all(p.body["moves"] and p.body["next_after"] == new_version for p in polls)
    latencies = sorted(p.finished_at - moved_at for p in polls)
    print(
        f"\n50 long-polls under uvicorn: game view {view_seconds * 1000:.0f} ms while they "
        f"waited ({threads} server threads); woken by a move in "
        f"median {statistics.median(latencies):.3f} s, max {latencies[-1]:.3f} s"
    )


def test_waiting_long_polls_hold_no_thread_when_every_middleware_is_async(
    async_chain: Deployment,
) -> None:
    server = async_chain.servers[0]
    alice, bob = async_chain.players()
    version = async_chain.version()
    before = server.threads()
    url = f"{async_chain.base}/api/v1/games/{async_chain.game}/events/?after={version}&wait=10"
    polls = [Poll(url, alice if i % 2 else bob, timeout=30) for i in range(50)]
    for poll in polls:
        poll.start()
    wait_until(lambda: server.waiting_polls() == 50, 30, "fifty long-polls waiting")
    assert all(p.is_alive() for p in polls)
    during = server.threads()
    move_through_api(async_chain.base, [alice, bob], async_chain.game)
    for poll in polls:
        poll.join(timeout=10)
    assert {p.status for p in polls} == {200}
    print(f"\nall-async middleware: {before} server threads before, {during} with 50 waiting")
    assert during < before + 10


def test_a_long_poll_under_uvicorn_wakes_within_a_second(embedded: Deployment) -> None:
    version = embedded.version()
    alice, _ = embedded.players()
    poll = Poll(
        f"{embedded.base}/api/v1/games/{embedded.game}/events/?after={version}&wait=10", alice
    )
    poll.start()
    server = embedded.servers[0]
    wait_until(lambda: server.waiting_polls() == 1, 30, "the long-poll waiting")
    assert poll.is_alive()
    moved_at = time.monotonic()
    move_through_api(embedded.base, embedded.players(), embedded.game)
    poll.join(timeout=10)
    # Woken by the move (its ten seconds would have answered no moves).
    assert poll.status == 200 and poll.body["moves"], (poll.status, poll.body, poll.error)
    latency = poll.finished_at - moved_at
    print(f"\nlong-poll wake-up under uvicorn: {latency:.3f} s")


def test_a_strangers_long_poll_under_uvicorn_is_404_at_once(embedded: Deployment) -> None:
    status, _, body = request(
        f"{embedded.base}/api/v1/games/{embedded.game}/events/?wait=10",
        embedded.tokens["carol"],
        timeout=5,  # at once: well before its ten seconds would run out
    )
    assert status == 404 and body["error"]["code"] == "not_found"
    assert embedded.servers[0].waiting_polls() == 0


def test_the_stream_delivers_a_version_event_after_a_move(embedded: Deployment) -> None:
    version = embedded.version()
    path = f"/api/v1/games/{embedded.game}/stream/?after={version}"
    connection, response = open_stream(embedded.base, path, embedded.tokens["alice"])
    try:
        assert response.status == 200
        assert response.getheader("Content-Type") == "text/event-stream"
        assert response.getheader("Cache-Control") == "no-cache"
        reader = EventReader(response)
        reader.start()
        first = reader.next(5)
        assert first is not None and first.event == "version"
        assert first.json() == {
            "version": version,
            "status": "active",
            "moves": [],
            "next_after": version,
            "has_more": False,
        }
        moved_at = time.monotonic()
        new_version = move_through_api(embedded.base, embedded.players(), embedded.game)
        update = reader.next(5)
        latency = time.monotonic() - moved_at
        print(f"\nSSE version event after a move under uvicorn: {latency:.3f} s")
        assert update is not None and update.event == "version"
        data = update.json()
        assert data["version"] == new_version and update.id == str(new_version)
        assert [m["version"] for m in data["moves"]] == [new_version]
    finally:
        connection.close()

    # Resuming with Last-Event-ID (wins over ?after=) sends what came after it, at once.
    connection, response = open_stream(
        embedded.base,
        path.replace(f"after={version}", "after=0"),
        embedded.tokens["alice"],
        {"Last-Event-ID": str(version)},
    )
    try:
        reader = EventReader(response)
        reader.start()
        resumed = reader.next(5)
        assert resumed is not None and resumed.event == "version"
        assert [m["version"] for m in resumed.json()["moves"]] == [new_version]
    finally:
        connection.close()


def test_a_stream_with_views_brings_the_seat_to_act_its_view_under_uvicorn(
    embedded: Deployment,
) -> None:
    """``?view=true``: a ``view`` event (the seat's view, as the game view answers it) follows
    the first version event, and the version event of a change that lets the seat act; the
    other seat gets the version event alone."""
    version = embedded.version()
    readers: dict[str, EventReader] = {}
    connections = []
    try:
        for name in ("alice", "bob"):
            path = f"/api/v1/games/{embedded.game}/stream/?after={version}&view=true"
            connection, response = open_stream(embedded.base, path, embedded.tokens[name])
            connections.append(connection)
            assert response.status == 200
            readers[name] = EventReader(response)
            readers[name].start()
            first = readers[name].next(5)
            assert first is not None and first.event == "version"
            assert "view" not in first.json()
            first_view = readers[name].next(5)
            assert first_view is not None and first_view.event == "view"
            assert first_view.json()["version"] == version
        new_version = move_through_api(embedded.base, embedded.players(), embedded.game)
        views = 0
        for name, reader in readers.items():
            update = reader.next(5)
            assert update is not None and update.event == "version"
            assert update.json()["version"] == new_version
            status, _, view = request(
                f"{embedded.base}/api/v1/games/{embedded.game}/", embedded.tokens[name]
            )
            assert status == 200
            if view["table"]["legal_actions"]:
                sent = reader.next(5)
                assert sent is not None and sent.event == "view", name
                assert sent.json() == view, name
                views += 1
            else:
                with pytest.raises(AssertionError, match="no event"):
                    reader.next(1)  # nothing more for a seat that may not act
        assert views >= 1, "somebody may act after a move"
    finally:
        for connection in connections:
            connection.close()


def test_the_account_stream_brings_your_turn_with_its_version_under_uvicorn(
    embedded: Deployment,
) -> None:
    """The account event stream (notifications/api/events.py) on the live process: the player
    the turn passes to hears of it, with the version to act on, within about a second."""
    url = f"{embedded.base}/api/v1/games/live/stream/"
    streams: dict[str, tuple[http.client.HTTPConnection, EventReader]] = {}
    try:
        for name in ("alice", "bob"):
            status, _, page = request(f"{url}?format=json&after=0", embedded.tokens[name])
            assert status == 200, page
            assert page["events"] and page["events"][0]["kind"] == "game_started"
            connection, response = open_stream(
                embedded.base,
                "/api/v1/games/live/stream/",
                embedded.tokens[name],
                {"Last-Event-ID": str(page["next_after"])},
            )
            assert response.status == 200
            reader = EventReader(response)
            reader.start()
            streams[name] = (connection, reader)
        for _ in range(10):
            before = {
                name: request(f"{embedded.base}/api/v1/games/{embedded.game}/", token)[2]
                for name, token in embedded.tokens.items()
                if name in streams
            }
            moved_at = time.monotonic()
            new_version = move_through_api(embedded.base, embedded.players(), embedded.game)
            mover = next(name for name, view in before.items() if view["your_turn"])
            other = "bob" if mover == "alice" else "alice"
            status, _, view = request(
                f"{embedded.base}/api/v1/games/{embedded.game}/", embedded.tokens[other]
            )
            if not view["your_turn"]:
                continue  # the mover kept the turn: no "your turn" to anyone
            # The move may have told the other player more first (targeted, swapped, caught).
            deadline = moved_at + 5
            event = streams[other][1].next(5)
            while event is not None and event.event != "your_turn":
                event = streams[other][1].next(max(deadline - time.monotonic(), 0.01))
            assert event is not None and event.event == "your_turn", event
            data = event.json()
            assert (data["game"], data["version"]) == (embedded.game, new_version)
            return
        raise AssertionError("the turn never passed")
    finally:
        for connection, _ in streams.values():
            connection.close()
