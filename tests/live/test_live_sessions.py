"""A stream opened with a session ends when the session does (issue 36, item 9).

Streams last up to an hour and forward moves without checking credentials; their keep-alives
re-check them. A revoked token already ended its streams there; a session's stream went on after
its player logged out, since only the user's ``is_active`` was checked. Now the keep-alive checks
that the session still logs its user in (``keepalive.session_holds``): logging out through the API
ends the stream at its next keep-alive, under ASGI (the process's keep-alive loop) and under WSGI
(the stream's own timer). The batched check itself is in ``test_keepalive.py``.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from django.test import AsyncClient, Client

from tests.games.conftest import API_TESTS, Player, game_url, start_game

pytestmark = API_TESTS

HEARTBEAT = 0.5
# The next keep-alive comes within HEARTBEAT; the rest is slack for a busy CI machine.
ENDS_WITHIN = HEARTBEAT + 2.5


async def next_event(stream: AsyncIterator[bytes], timeout: float) -> bytes:
    """The next chunk that is not a keep-alive comment."""
    async with asyncio.timeout(timeout):
        while True:
            chunk = await anext(stream)
            if not chunk.startswith(b":"):
                return chunk


@pytest.mark.django_db(transaction=True)
def test_an_asgi_session_stream_ends_at_the_next_keep_alive_after_logout(
    alice: Player, bob: Player, settings: Any
) -> None:
    settings.LIVE_HEARTBEAT_SECONDS = HEARTBEAT
    game_id = start_game(alice, bob, target_score=0)

    async def scenario() -> tuple[bytes, float]:
        browser = AsyncClient()
        await browser.aforce_login(alice.user)
        response = await browser.get(
            game_url(game_id, "stream/"), headers={"Accept": "text/event-stream"}
        )
        assert response.status_code == 200 and response.is_async
        stream = aiter(response.streaming_content)
        try:
            assert (await next_event(stream, 5)).startswith(b"retry:")
            assert b"event: version" in await next_event(stream, 5)
            # Still good across keep-alives while logged in.
            async with asyncio.timeout(5):
                while await anext(stream) != b": keep-alive\n\n":
                    pass
            assert (await browser.post("/api/v1/auth/logout/")).status_code == 204
            logged_out_at = time.monotonic()
            end = await next_event(stream, ENDS_WITHIN + 5)
            return end, time.monotonic() - logged_out_at
        finally:
            await stream.aclose()  # type: ignore[attr-defined]

    end, after = asyncio.run(scenario())
    assert b"event: end" in end and b"authentication_failed" in end
    assert after < ENDS_WITHIN


@pytest.mark.django_db(transaction=True)
def test_a_wsgi_session_stream_ends_at_the_next_keep_alive_after_logout(
    alice: Player, bob: Player, settings: Any
) -> None:
    settings.LIVE_HEARTBEAT_SECONDS = HEARTBEAT
    # A stream left running ends by itself then (without an `end` event): the test cannot hang.
    settings.LIVE_STREAM_MAX_SECONDS = ENDS_WITHIN + 5
    game_id = start_game(alice, bob, target_score=0)
    browser = Client()
    browser.force_login(alice.user)
    response = browser.get(game_url(game_id, "stream/"), headers={"Accept": "text/event-stream"})
    assert response.status_code == 200 and not response.is_async
    stream: Iterator[bytes] = iter(response.streaming_content)
    try:
        chunks = [next(stream), next(stream), next(stream)]
        assert chunks[0].startswith(b"retry:") and b"event: version" in chunks[1]
        assert chunks[2] == b": keep-alive\n\n"  # still logged in
        assert browser.post("/api/v1/auth/logout/").status_code == 204
        logged_out_at = time.monotonic()
        rest = [chunk for chunk in stream if not chunk.startswith(b":")]
        after = time.monotonic() - logged_out_at
    finally:
        response.close()
    assert len(rest) == 1 and b"event: end" in rest[0] and b"authentication_failed" in rest[0]
    assert after < ENDS_WITHIN


@pytest.mark.django_db(transaction=True)
def test_a_session_stream_goes_on_while_another_session_of_the_player_logs_out(
    alice: Player, bob: Player, settings: Any
) -> None:
    """Logging out ends that session only: the phone's log-out leaves the laptop's stream."""
    settings.LIVE_HEARTBEAT_SECONDS = HEARTBEAT
    settings.LIVE_STREAM_MAX_SECONDS = ENDS_WITHIN + 5
    game_id = start_game(alice, bob, target_score=0)
    laptop, phone = Client(), Client()
    laptop.force_login(alice.user)
    phone.force_login(alice.user)
    response = laptop.get(game_url(game_id, "stream/"), headers={"Accept": "text/event-stream"})
    stream: Iterator[bytes] = iter(response.streaming_content)
    try:
        assert b"event: version" in next(stream) + next(stream)
        assert phone.post("/api/v1/auth/logout/").status_code == 204
        assert [next(stream), next(stream)] == [b": keep-alive\n\n"] * 2
    finally:
        response.close()
