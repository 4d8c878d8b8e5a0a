"""The live streams' keep-alives under ASGI come from one loop per process
(``live.keepalive``), which re-checks the credentials of many streams at once; a move
reaches the streams from the announcement's news, with no query (none can run here: these tests
have no database).
"""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client

from games.api import streams
from live import announce, driver, keepalive, presence
from players.models import User

# Presence marks live in the cache: Redis on the PostgreSQL pass.
pytestmark = pytest.mark.services

STREAMS = 20


def plan_for(user_id: int, game_id: str) -> streams.StreamPlan:
    update = {"version": 3, "status": "active", "moves": [], "next_after": 3, "has_more": False}
    return streams.StreamPlan(game_id, "uno", User(pk=user_id), 100 + user_id, 0, update)


async def next_chunk(stream: AsyncIterator[bytes], timeout: float = 3) -> bytes:
    return await asyncio.wait_for(anext(stream), timeout)


def test_one_loop_keeps_every_stream_alive_and_ends_those_whose_token_went(
    monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    settings.LIVE_HEARTBEAT_SECONDS = 0.3
    refused: set[int] = set()
    batches: list[int] = []

    def check(members: Any, ttl: int) -> dict[int, str]:
        members = list(members)
        batches.append(len(members))
        return {id(m): "authentication_failed" for m in members if m.user_id in refused}

    monkeypatch.setattr(keepalive, "check_and_mark", check)
    notifier = announce.Notifier(versions=lambda ids: {}, release=lambda: None)
    monkeypatch.setattr(announce, "_notifier", notifier)
    game_id = str(uuid.uuid4())

    async def scenario() -> None:
        open_ = [
            driver.drive(streams.stream_of(plan_for(user_id, game_id)))
            for user_id in range(STREAMS)
        ]
        try:
            for stream in open_:
                assert (await next_chunk(stream)).startswith(b"retry:")
                assert b"event: version" in await next_chunk(stream)
            loop = keepalive.for_loop(0.3)
            assert loop.members() == STREAMS
            for stream in open_:
                assert await next_chunk(stream) == b": keep-alive\n\n"
            # A move: every stream forwards the news (no database here to read from).
            move = {
                "version": 4,
                "seat": 1,
                "action": {"type": "draw"},
                "created_at": datetime(2026, 12, 3, tzinfo=UTC),
                "events": [{"type": "draw", "seat": 1, "count": 1}],
            }
            news = {"version": 4, "status": "active", "turn": 2, "moves": [move], "private": []}
            notifier.publish(game_id, 4, news)
            for stream in open_:
                chunk = await next_chunk(stream)
                while chunk == b": keep-alive\n\n":
                    chunk = await next_chunk(stream)
                data = json.loads(chunk.decode().split("data: ", 1)[1])
                assert data["version"] == 4 and data["moves"][0]["events"] == move["events"]
            refused.add(0)
            chunk = await next_chunk(open_[0])
            while chunk == b": keep-alive\n\n":
                chunk = await next_chunk(open_[0])
            assert b"event: end" in chunk and b"authentication_failed" in chunk
        finally:
            for stream in open_:
                await stream.aclose()  # type: ignore[attr-defined]
        assert keepalive.for_loop(0.3).members() == 0

    asyncio.run(scenario())
    # Batched: each check covered several streams (20 streams in 15 slots), never one per call.
    assert batches and sum(batches) >= STREAMS and max(batches) > 1
    notifier.stop()


def test_marks_for_many_streams_are_written_at_once_and_keep_other_tabs() -> None:
    game_id = str(uuid.uuid4())
    presence.mark_watching(1, game_id, ttl=60, tab="phone")
    presence.mark_watching_many([(1, game_id, "laptop"), (2, game_id, "tab")], 30)
    assert presence.is_watching(1, game_id) and presence.is_watching(2, game_id)
    presence.stop_watching(1, game_id, "laptop")
    assert presence.is_watching(1, game_id), "the phone's mark stays"
    presence.stop_watching(1, game_id, "phone")
    assert not presence.is_watching(1, game_id)
    cache.delete_many([presence._key(2, game_id)])


def session_of(user: User) -> str:
    """A logged-in session of ``user``, as the log-in view makes one."""
    client = Client()
    client.force_login(user)
    return client.session.session_key


@pytest.mark.django_db
def test_the_batched_check_refuses_revoked_tokens_inactive_users_and_ended_sessions() -> None:
    from django.utils import timezone

    from players.models import ApiToken

    alice = User.objects.create_user(username="alice-ka")
    bob = User.objects.create_user(username="bob-ka")
    carol = User.objects.create_user(username="carol-ka")
    gone = User.objects.create_user(username="gone-ka")
    good, _ = ApiToken.issue(alice, name="phone", scope=ApiToken.SCOPE_PLAY)
    revoked, _ = ApiToken.issue(bob, name="phone", scope=ApiToken.SCOPE_PLAY)
    ApiToken.objects.filter(pk=revoked.pk).update(revoked_at=timezone.now())
    logged_out = Client()
    logged_out.force_login(alice)
    logged_out_key = logged_out.session.session_key
    logged_out.logout()
    before_new_password = session_of(carol)
    carol.set_password("a new password for carol")
    carol.save()
    deactivated = session_of(gone)
    User.objects.filter(pk=gone.pk).update(is_active=False)
    game_id = str(uuid.uuid4())
    members = [
        keepalive.Member(alice.pk, good.pk, game_id, "a", 0),
        keepalive.Member(bob.pk, revoked.pk, game_id, "b", 0),
        keepalive.Member(alice.pk, None, game_id, "c", 0, session_of(alice)),
        keepalive.Member(gone.pk, None, game_id, "d", 0, deactivated),
        keepalive.Member(alice.pk, None, game_id, "e", 0, logged_out_key),
        keepalive.Member(carol.pk, None, game_id, "f", 0, before_new_password),
        keepalive.Member(bob.pk, None, game_id, "g", 0, session_of(alice)),  # not bob's
        keepalive.Member(bob.pk, None, game_id, "h", 0, None),
    ]
    refused = keepalive.check_and_mark(members, 30)
    assert refused == {id(m): "authentication_failed" for m in members if m.tab not in "ac"}
    assert presence.is_watching(alice.pk, game_id)
    assert not presence.is_watching(bob.pk, game_id)
    assert not presence.is_watching(carol.pk, game_id)


def test_a_wsgi_stream_on_a_stopped_notifier_ends_without_reading_the_database(
    monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    """What the browser tests' teardown relies on (``announce.stop_notifier``): a closed page's
    stream on the live server would otherwise re-check its token at its next keep-alive, in a
    test database that may be gone."""
    settings.LIVE_HEARTBEAT_SECONDS = 0.05
    notifier = announce.Notifier(versions=lambda ids: {}, release=lambda: None)
    notifier.stop()
    monkeypatch.setattr(announce, "_notifier", notifier)

    def no_database(*args: Any) -> bool:
        raise AssertionError("read the database")

    monkeypatch.setattr(streams, "_authorized", no_database)
    chunks = list(driver.drive_blocking(streams.stream_of(plan_for(1, str(uuid.uuid4())))))
    assert chunks and chunks[0].startswith(b"retry:")
