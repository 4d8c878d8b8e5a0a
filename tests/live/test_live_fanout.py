"""Live fan-out on Redis grows with watchers, not with processes (issue 30; live/announce.py).

A process subscribes to the channel of a game (or of a player's own announcements) while one of
its clients waits on it, and a little longer (``linger_seconds``); a move is sent only to the
processes that watch its game. A subscription's confirmation is followed by a catch-up, so an
announcement made before it is not lost. Channels and counters carry the deployment's prefix
(``LIVE_CHANNEL_PREFIX``, by default derived from the database): two deployments on one Redis
never hear each other.

The Redis tests are defined only when REDIS_URL is set (the PostgreSQL + Redis pass), rather than
skipped, because a skip fails a CI=true run; each uses a prefix of its own, so they may run in
parallel with anything else on the same Redis. ``bench/fanout.py`` shows the same with four live
processes.
"""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from live import announce
from tests.test_settings_env import load_settings

REDIS_URL = os.environ.get("REDIS_URL", "").strip()
# Redis without the database: never "pure", so the PostgreSQL + Redis pass runs these too.
pytestmark = pytest.mark.services


def test_the_default_prefix_differs_between_databases_and_is_stable_for_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def prefix(**environ: str) -> str:
        return str(load_settings(monkeypatch, **environ)["LIVE_CHANNEL_PREFIX"])

    uno = prefix(DATABASE_URL="postgres://u:pw@db.internal:5432/uno")
    assert uno == prefix(DATABASE_URL="postgres://other:secret@db.internal:5432/uno")
    assert uno != prefix(DATABASE_URL="postgres://u:pw@db.internal:5432/uno_staging")
    assert uno != prefix(DATABASE_URL="postgres://u:pw@db.elsewhere:5432/uno")
    assert prefix(SQLITE_PATH="/srv/a/db.sqlite3") != prefix(SQLITE_PATH="/srv/b/db.sqlite3")
    assert prefix(LIVE_CHANNEL_PREFIX="uno-prod:") == "uno-prod:"


def test_the_processs_notifier_uses_the_settings_prefix(settings: Any) -> None:
    settings.LIVE_CHANNEL_PREFIX = "deployment-a:"
    announce.stop_notifier()
    try:
        assert announce.channel("g1") == "deployment-a:game:g1"
    finally:
        announce.stop_notifier()


if REDIS_URL:
    import redis

    def notifier(prefix: str, **options: Any) -> announce.Notifier:
        """A notifier standing for one process; it reads no database (its re-check finds
        nothing) unless told to, so only Redis can wake its waiters."""
        options.setdefault("recheck_seconds", 3600)
        options.setdefault("versions", lambda ids: {})
        return announce.Notifier(
            redis_url=REDIS_URL, prefix=prefix, release=lambda: None, **options
        )

    @pytest.fixture
    def prefix() -> str:
        return f"test-{uuid.uuid4().hex[:10]}:"

    @pytest.fixture
    def server() -> Iterator[redis.Redis]:
        client = redis.Redis.from_url(REDIS_URL)
        try:
            yield client
        finally:
            client.close()

    def subscribers(server: redis.Redis, channel: str) -> int:
        return int(dict(server.pubsub_numsub(channel))[channel.encode()])

    def test_a_process_hears_only_the_games_its_clients_wait_on(
        prefix: str, server: redis.Redis
    ) -> None:
        listener, publisher = notifier(prefix), notifier(prefix)
        watched, other = str(uuid.uuid4()), str(uuid.uuid4())
        try:

            async def scenario() -> int | None:
                task = asyncio.create_task(listener.wait(watched, above=1, timeout=10))
                assert await asyncio.to_thread(listener.wait_subscribed, watched, timeout=5)
                assert subscribers(server, listener.channel(watched)) == 1
                assert subscribers(server, listener.channel(other)) == 0
                publisher.publish(other, 9)  # nobody here waits on it: never sent here
                publisher.publish(watched, 2)
                return await asyncio.wait_for(task, 5)

            assert asyncio.run(scenario()) == 2
            # Redis delivers in order: had the other game's come, it would have come first.
            assert listener.received == 1
            assert listener.subscriptions() == {watched}
        finally:
            listener.stop()
            publisher.stop()

    def test_a_game_is_unsubscribed_once_its_last_waiter_is_gone_for_the_linger(
        prefix: str, server: redis.Redis
    ) -> None:
        listener = notifier(prefix, linger_seconds=1.0)
        game_id = str(uuid.uuid4())
        try:

            async def scenario() -> None:
                waiters = [
                    asyncio.create_task(listener.wait(game_id, above=1, timeout=None))
                    for _ in range(3)
                ]
                assert await asyncio.to_thread(listener.wait_subscribed, game_id, timeout=5)
                for waiter in waiters[:2]:
                    waiter.cancel()
                await asyncio.gather(*waiters[:2], return_exceptions=True)
                assert listener.waiting() == 1
                assert listener.subscriptions() == {game_id}, "one waiter is left"
                waiters[2].cancel()
                await asyncio.gather(waiters[2], return_exceptions=True)
                # Kept through the linger (a long-poll asking again, a stream reconnecting)...
                assert listener.subscriptions() == {game_id}
                # ...then given back.
                gone = await asyncio.to_thread(
                    listener.wait_subscribed, game_id, subscribed=False, timeout=5
                )
                assert gone

            asyncio.run(scenario())
            assert subscribers(server, listener.channel(game_id)) == 0
        finally:
            listener.stop()

    def test_two_deployments_on_one_redis_do_not_hear_each_other(prefix: str) -> None:
        """The same game id in two deployments (a staging copy of production's database, say):
        each hears its own moves only, and its players' counters are its own."""
        ours, our_publisher = notifier(prefix), notifier(prefix)
        theirs = notifier(f"other-{prefix}")
        game_id = str(uuid.uuid4())
        user_id = uuid.uuid4().int % 10**9
        try:

            async def scenario() -> int | None:
                task = asyncio.create_task(ours.wait(game_id, above=1, timeout=10))
                assert await asyncio.to_thread(ours.wait_subscribed, game_id, timeout=5)
                theirs.publish(game_id, 5)
                our_publisher.publish(game_id, 2)
                return await asyncio.wait_for(task, 5)

            assert asyncio.run(scenario()) == 2, "woken by our move, not by theirs before it"
            assert ours.received == 1
            mark = ours.user_mark(user_id)
            assert theirs.user_mark(user_id, advance=True) >= 1
            assert ours.user_mark(user_id) == mark
        finally:
            for one in (ours, our_publisher, theirs):
                one.stop()

    def test_a_move_announced_before_the_subscription_is_caught_up_from_the_database(
        prefix: str,
    ) -> None:
        """The client read version 3; the move to 4 was announced before this process listened
        to the game. The catch-up after the confirmation reads the new game's version at once,
        not at the next re-check (an hour away here)."""
        game_id = str(uuid.uuid4())
        asked: list[list[str]] = []

        def versions(ids: list[str]) -> dict[str, int]:
            asked.append(sorted(ids))
            return {game_id: 4}

        listener = notifier(prefix, versions=versions)
        try:
            woke = listener.wait_blocking(game_id, above=3, timeout=5)
            assert woke == 4
            assert asked == [[game_id]]
        finally:
            listener.stop()

    def test_a_players_announcement_before_the_subscription_is_caught_up(prefix: str) -> None:
        listener, publisher = notifier(prefix), notifier(prefix)
        user_id = uuid.uuid4().int % 10**9
        key = announce.user_key(user_id)
        try:
            mark = listener.user_mark(user_id)  # read before the database, as the view does
            publisher.publish(key, publisher.user_mark(user_id, advance=True))  # unheard
            assert listener.wait_blocking(key, above=mark, timeout=5) == mark + 1
        finally:
            listener.stop()
            publisher.stop()

    def test_a_dropped_connection_is_subscribed_again_and_caught_up(
        prefix: str, server: redis.Redis
    ) -> None:
        """Redis restarted, or a proxy cut the connection: the listener connects again,
        subscribes to the watched games again, and a move made meanwhile still arrives."""
        game_id = str(uuid.uuid4())
        database = {game_id: 1}
        listener = notifier(prefix, versions=lambda ids: dict(database))
        publisher = notifier(prefix)
        try:

            async def scenario() -> tuple[int | None, str]:
                task = asyncio.create_task(listener.wait(game_id, above=1, timeout=15))
                assert await asyncio.to_thread(listener.wait_subscribed, game_id, timeout=5)
                (killed,) = [
                    c["id"] for c in server.client_list() if c["name"] == listener.client_name
                ]
                server.client_kill_filter(_id=killed)
                database[game_id] = 2  # the move: committed, announced while cut off
                publisher.publish(game_id, 2)
                return await asyncio.wait_for(task, 10), killed

            woke, killed = asyncio.run(scenario())
            assert woke == 2
            assert listener.wait_subscribed(game_id, timeout=5)
            (now,) = [
                c["id"]
                for c in server.client_list(_type="pubsub")
                if c["name"] == listener.client_name
            ]
            assert now != killed, "subscribed again on a new connection"
        finally:
            listener.stop()
            publisher.stop()
