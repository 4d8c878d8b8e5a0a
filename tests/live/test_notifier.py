"""The notifier behind every live update (live/announce.py, live/notifier.py): publishing, waking
only for newer versions, the database re-check, a player's own key; and, only when REDIS_URL is
set (the PostgreSQL + Redis pass), Redis pub/sub: a notifier woken by another's PUBLISH alone, and
two uvicorn servers sharing one database where a move made through one wakes a client waiting on
the other. Those are defined only then, rather than skipped, because a skip fails a CI=true
run."""

from __future__ import annotations

import asyncio
import threading
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from live import announce
from tests.live.servers import (
    REDIS_URL,
    Deployment,
    EventReader,
    Poll,
    Server,
    move_through_api,
    open_stream,
    prepare_database,
    start_server,
    stop_server,
    wait_until,
)

# The pass's Redis (pub/sub, user marks) and uvicorn on its database: on both passes of CI.
pytestmark = pytest.mark.services


# ---------------------------------------------------------------------------------------------
# The notifier itself


def test_publish_never_raises(monkeypatch: pytest.MonkeyPatch) -> None:
    class Broken:
        def publish(self, game_id: Any, version: int) -> None:
            raise RuntimeError("boom")

    monkeypatch.setattr(announce, "_notifier", Broken())
    announce.publish(uuid.uuid4(), 3)  # logged, not raised


def test_redis_down_costs_a_publish_little_and_the_database_recheck_still_wakes() -> None:
    game_id = str(uuid.uuid4())
    notifier = announce.Notifier(
        redis_url="redis://127.0.0.1:1/0",  # nothing listens there
        recheck_seconds=0.2,
        versions=lambda ids: {game_id: 5} if game_id in ids else {},
        release=lambda: None,
    )
    try:
        notifier.publish(game_id, 4)  # fails: Redis is down

        class Untouchable:
            def publish(self, *args: Any) -> None:
                raise AssertionError("tried Redis again at once")

        notifier._publisher = Untouchable()
        notifier.publish(game_id, 4)  # skipped: Redis failed a moment ago

        async def scenario() -> int | None:
            return await notifier.wait(game_id, above=4, timeout=5)

        # Nothing publishes 5: only the database re-check can wake the waiter.
        assert asyncio.run(scenario()) == 5
    finally:
        notifier.stop()


def test_a_waiter_is_woken_only_by_a_newer_version_and_cleaned_up() -> None:
    notifier = announce.Notifier(
        recheck_seconds=3600, versions=lambda ids: {}, release=lambda: None
    )
    game_id = str(uuid.uuid4())
    try:

        async def scenario() -> tuple[int | None, int | None]:
            task = asyncio.create_task(notifier.wait(game_id, above=7, timeout=5))
            await asyncio.sleep(0)  # the task's first step: it registers
            assert notifier.waiting() == 1
            assert notifier.notify(game_id, 7) == 0  # not newer: nobody woken
            notifier.publish(game_id, 8)
            woke = await asyncio.wait_for(task, 1)
            # Published before the wait began: a waiter that registers late is not left behind.
            late = await notifier.wait(game_id, above=7, timeout=0.5)
            return woke, late

        woke, late = asyncio.run(scenario())
        assert (woke, late) == (8, 8)
        assert notifier.waiting() == 0
    finally:
        notifier.stop()


def test_a_players_own_key_wakes_on_its_announcement_and_is_never_read_from_the_database() -> None:
    asked: list[list[str]] = []
    rechecked = threading.Event()

    def versions(ids: list[str]) -> dict[str, int]:
        asked.append(list(ids))
        if len(asked) >= 3:
            rechecked.set()
        return {}

    notifier = announce.Notifier(recheck_seconds=0.05, versions=versions, release=lambda: None)
    game_id = str(uuid.uuid4())
    try:

        async def scenario() -> int | None:
            mark = notifier.user_mark(7)
            game = asyncio.create_task(notifier.wait(game_id, above=1, timeout=5))
            mine = asyncio.create_task(notifier.wait(announce.user_key(7), above=mark, timeout=5))
            await asyncio.sleep(0)  # both register
            # Several re-checks, each reading the game only: the player's key woke nothing.
            assert await asyncio.to_thread(rechecked.wait, 5), "no re-checks"
            assert not mine.done()
            assert notifier.user_mark(8, advance=True) > mark  # another player's counter
            assert notifier.user_mark(7) == mark
            notifier.publish(announce.user_key(7), notifier.user_mark(7, advance=True))
            woke = await asyncio.wait_for(mine, 1)
            game.cancel()
            return woke

        assert asyncio.run(scenario()) is not None
        assert asked and all(ids == [game_id] for ids in asked)
    finally:
        notifier.stop()


def test_requests_left_waiting_on_a_stopped_notifier_read_no_database(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """What the browser tests' teardown relies on (``announce.stop_notifier``): a closed page's
    requests go on waiting on the notifier they began with, and once it is stopped nothing reads
    the database for them, so a test database blocked or dropped meanwhile logs nothing."""
    asked: list[list[str]] = []

    def versions(ids: list[str]) -> dict[str, int]:
        asked.append(list(ids))
        raise RuntimeError("no such table: games_game")

    running = announce.Notifier(recheck_seconds=0.05, versions=versions, release=lambda: None)
    monkeypatch.setattr(announce, "_notifier", running)
    game_id = str(uuid.uuid4())
    assert running.wait_blocking(game_id, above=1, timeout=0.3) is None
    assert asked, "the running notifier re-checks while a request waits"
    asked.clear()
    caplog.clear()

    announce.stop_notifier()

    assert running.wait_blocking(game_id, above=1, timeout=0.3) is None
    assert asked == [] and "re-checking" not in caplog.text
    fresh = announce.notifier()
    try:
        assert fresh is not running
        fresh.publish(game_id, 2)
        assert fresh.wait_blocking(game_id, above=1, timeout=1) == 2
    finally:
        fresh.stop()


# ---------------------------------------------------------------------------------------------
# Redis pub/sub (only when REDIS_URL is set)

if REDIS_URL:

    def test_redis_pubsub_alone_wakes_a_waiter_in_another_process() -> None:
        """Two notifiers stand for two processes; the listener never reads the database (its
        re-check finds nothing), so only the PUBLISH can wake it."""
        listener = announce.Notifier(
            redis_url=REDIS_URL, recheck_seconds=3600, versions=lambda ids: {}, release=lambda: None
        )
        publisher = announce.Notifier(redis_url=REDIS_URL)
        game_id = str(uuid.uuid4())
        try:

            async def scenario() -> tuple[int | None, float]:
                task = asyncio.create_task(listener.wait(game_id, above=3, timeout=10))
                assert await asyncio.to_thread(listener.listening.wait, 5), "never subscribed"
                subscribed = await asyncio.to_thread(listener.wait_subscribed, game_id, timeout=5)
                assert subscribed, "never subscribed"
                publisher.publish(game_id, 3)  # not newer: keeps waiting
                published_at = time.monotonic()
                publisher.publish(game_id, 4)
                # The first version to wake it is 4: 3, sent first, woke nothing.
                woke = await asyncio.wait_for(task, 5)
                return woke, time.monotonic() - published_at

            woke, latency = asyncio.run(scenario())
            print(f"\nRedis pub/sub wake-up between two notifiers: {latency * 1000:.1f} ms")
            assert woke == 4
        finally:
            listener.stop()
            publisher.stop()

    def test_a_players_announcement_reaches_another_process_through_redis() -> None:
        listener = announce.Notifier(
            redis_url=REDIS_URL, recheck_seconds=3600, versions=lambda ids: {}, release=lambda: None
        )
        publisher = announce.Notifier(redis_url=REDIS_URL)
        user_id = uuid.uuid4().int % 10**9
        key = announce.user_key(user_id)
        try:

            async def scenario() -> int | None:
                # One counter for both processes (Redis INCR), whatever their clocks say.
                mark = listener.user_mark(user_id)
                task = asyncio.create_task(listener.wait(key, above=mark, timeout=10))
                assert await asyncio.to_thread(listener.listening.wait, 5), "never subscribed"
                advanced = publisher.user_mark(user_id, advance=True)
                assert advanced == mark + 1 == listener.user_mark(user_id)
                publisher.publish(key, advanced)
                return await asyncio.wait_for(task, 5)

            assert asyncio.run(scenario()) == listener.user_mark(user_id)
        finally:
            listener.stop()
            publisher.stop()

    @pytest.fixture(scope="module")
    def two_servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Deployment]:
        """Two uvicorn servers on one database, both with REDIS_URL: a move applied by one
        reaches clients waiting on the other through Redis."""
        folder = tmp_path_factory.mktemp("live-redis")
        database = folder / "live.sqlite3"
        setup = prepare_database(database, REDIS_URL)
        servers: list[Server] = []
        try:
            for name in ("a", "b"):
                servers.append(start_server(database, folder / f"uvicorn-{name}.log", REDIS_URL))
            yield Deployment(servers, setup["game"], setup["tokens"])
        finally:
            for server in servers:
                stop_server(server)

    def test_a_move_through_another_server_wakes_long_polls_and_streams(
        two_servers: Deployment,
    ) -> None:
        waiting_on, moving_on = two_servers.servers
        version = two_servers.version()
        alice, bob = two_servers.players()
        game = two_servers.game
        polls = [
            Poll(f"{waiting_on.base}/api/v1/games/{game}/events/?after={version}&wait=10", token)
            for token in (alice, bob) * 5
        ]
        for poll in polls:
            poll.start()
        connection, response = open_stream(
            waiting_on.base, f"/api/v1/games/{game}/stream/?after={version}", alice
        )
        try:
            reader = EventReader(response)
            reader.start()
            first = reader.next(5)
            assert first is not None and first.json()["version"] == version
            wait_until(lambda: waiting_on.waiting_polls() == 10, 30, "ten long-polls waiting")
            assert all(p.is_alive() for p in polls)
            moved_at = time.monotonic()
            new_version = move_through_api(moving_on.base, [alice, bob], game)
            update = reader.next(5)
            stream_latency = time.monotonic() - moved_at
            for poll in polls:
                poll.join(timeout=10)
            assert {p.status for p in polls} == {200}
            assert all(p.body["next_after"] == new_version for p in polls)
            latencies = sorted(p.finished_at - moved_at for p in polls)
            assert update is not None and update.json()["version"] == new_version
            print(
                f"\nacross two uvicorn servers via Redis: long-polls woken in max "
                f"{latencies[-1]:.3f} s, stream event in {stream_latency:.3f} s"
            )
        finally:
            connection.close()
