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
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from django.test import AsyncClient, Client

from tests.games.conftest import API_TESTS, Player, game_url, start_game

pytestmark = API_TESTS

HEARTBEAT = 0.5
# A bound on the waits only (the test fails rather than hangs); what the tests assert is counted
# in keep-alives, not seconds.
ENDS_WITHIN = HEARTBEAT + 2.5
KEEP_ALIVE = b": keep-alive\n\n"


async def next_event(stream: AsyncIterator[bytes], timeout: float) -> tuple[bytes, int]:
    """The next chunk that is not a keep-alive comment, and how many keep-alives came first."""
    beats = 0
    async with asyncio.timeout(timeout):
        while True:
            chunk = await anext(stream)
            if not chunk.startswith(b":"):
                return chunk, beats
            beats += 1


@pytest.fixture(autouse=True)
def keep_alives(settings: Any) -> None:
    settings.LIVE_HEARTBEAT_SECONDS = HEARTBEAT


@pytest.fixture
def wsgi_game(alice: Player, bob: Player, settings: Any) -> str:
    """A game of alice's to stream under WSGI."""
    # A stream left running ends by itself then (without an `end` event): the test cannot hang.
    settings.LIVE_STREAM_MAX_SECONDS = ENDS_WITHIN + 5
    return start_game(alice, bob, target_score=0)


@pytest.mark.django_db(transaction=True)
def test_an_asgi_session_stream_ends_at_the_next_keep_alive_after_logout(
    alice: Player, bob: Player
) -> None:
    game_id = start_game(alice, bob, target_score=0)

    async def scenario() -> tuple[bytes, int]:
        browser = AsyncClient()
        await browser.aforce_login(alice.user)
        response = await browser.get(
            game_url(game_id, "stream/"), headers={"Accept": "text/event-stream"}
        )
        assert response.status_code == 200 and response.is_async
        stream = aiter(response.streaming_content)
        try:
            assert (await next_event(stream, 5))[0].startswith(b"retry:")
            assert b"event: version" in (await next_event(stream, 5))[0]
            # Still good across keep-alives while logged in.
            async with asyncio.timeout(5):
                while await anext(stream) != b": keep-alive\n\n":
                    pass
            assert (await browser.post("/api/v1/auth/logout/")).status_code == 204
            return await next_event(stream, ENDS_WITHIN + 5)
        finally:
            await stream.aclose()  # type: ignore[attr-defined]

    end, beats = asyncio.run(scenario())
    assert b"event: end" in end and b"authentication_failed" in end
    # The next keep-alive ends it: at most one was already being written as she logged out.
    assert beats <= 1


@pytest.mark.django_db(transaction=True)
def test_a_wsgi_session_stream_ends_at_the_next_keep_alive_after_logout(
    alice: Player, wsgi_game: str
) -> None:
    game_id = wsgi_game
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
        rest = list(stream)
    finally:
        response.close()
    # The next keep-alive ends it (the stream's own timer under WSGI): no keep-alive after the
    # log-out, then the end (a stream left running would have ended on its lifetime, no end).
    assert len(rest) == 1 and b"event: end" in rest[0] and b"authentication_failed" in rest[0]


@pytest.mark.django_db(transaction=True)
def test_a_session_stream_goes_on_while_another_session_of_the_player_logs_out(
    alice: Player, wsgi_game: str
) -> None:
    """Logging out ends that session only: the phone's log-out leaves the laptop's stream."""
    game_id = wsgi_game
    laptop, phone = Client(), Client()
    laptop.force_login(alice.user)
    phone.force_login(alice.user)
    response = laptop.get(game_url(game_id, "stream/"), headers={"Accept": "text/event-stream"})
    stream: Iterator[bytes] = iter(response.streaming_content)
    try:
        assert b"event: version" in next(stream) + next(stream)
        assert phone.post("/api/v1/auth/logout/").status_code == 204
        assert [next(stream), next(stream)] == [KEEP_ALIVE] * 2
    finally:
        response.close()
