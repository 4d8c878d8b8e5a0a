"""The one stream driver: the game streams (``games/{id}/stream/``) and the account event stream
(``games/live/stream/``) are each a generator of steps with no I/O of its own, driven here.

A stream's generator yields:

- ``bytes``: send them;
- ``Call(fn, *args)``: run sync work (a database read) and send back its result;
- ``Wait(key, above, timeout, also)``: wait for an announcement on ``key`` (``live.announce``)
  above ``above`` (and on ``also``'s key above its mark), up to ``timeout`` seconds (None: no limit
  of its own), and send back the version that woke it, an ``announce.Side`` (``also`` did), None
  (the time is up), or a ``Beat``: the keep-alive's turn, with why the stream must end ("" to go
  on).

The driver owns what every stream shares: the keep-alives, each of which re-checks the stream's
credentials (a personal token, an app's OAuth token, a session) and renews its "watching" mark
(``live.presence``); the open-streams metric; and the waits, which hold no thread. Under ASGI the
stream joins the process's keep-alive loop (``live.keepalive``); its sync work runs on the
event loop's shared pool (``thread_sensitive=False``), and the request's own thread is given
back before each wait (``live.threads``). Under WSGI (``runserver``, the tests' live server)
Django would read an async iterator to its end before sending anything, so the same generator is
driven from the request's thread, which blocks as every WSGI request does, with a keep-alive
timer of its own that makes the same check.
"""

from __future__ import annotations

import functools
import logging
import time
import uuid
from collections.abc import AsyncIterator, Callable, Generator, Iterator
from dataclasses import dataclass
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpRequest, StreamingHttpResponse

from config import metrics
from live import announce, keepalive, presence
from live.threads import release_connections, release_request_thread

logger = logging.getLogger(__name__)

# A comment line this often keeps proxies from closing an idle stream.
HEARTBEAT_SECONDS = 15.0
# Streams end after this long; EventSource reconnects at once with Last-Event-ID, and the new
# request is authenticated again (the keep-alives already ended a revoked token's or a
# logged-out session's stream).
STREAM_MAX_SECONDS = 3600.0
# The reconnection delay EventSource is told to use (milliseconds).
RETRY_MILLISECONDS = 3000


def live_setting(name: str, default: float) -> float:
    """A live-stream timing (LIVE_HEARTBEAT_SECONDS, LIVE_STREAM_MAX_SECONDS) that tests may set;
    the service runs on the defaults here."""
    return float(getattr(settings, name, default))


def heartbeat() -> float:
    return live_setting("LIVE_HEARTBEAT_SECONDS", HEARTBEAT_SECONDS)


def lifetime() -> float:
    return live_setting("LIVE_STREAM_MAX_SECONDS", STREAM_MAX_SECONDS)


@dataclass(frozen=True)
class Credentials:
    """What a stream was authenticated with, re-checked at each keep-alive: a personal token,
    an app's OAuth token (``players.oauth``), or else the session (its log-in)."""

    user_id: int
    token_id: int | None = None
    session_key: str | None = None
    oauth_token_id: int | None = None


@dataclass(frozen=True)
class Wait:
    key: str  # a game's id, or a player's ``announce.user_key``
    above: int
    timeout: float | None = None
    # Another key and its mark to wait on as well (a game stream's chat); when it wakes the
    # wait, the answer is an ``announce.Side``.
    also: tuple[str, int] | None = None


@dataclass(frozen=True)
class Beat:
    reason: str  # why the stream must end; "" to go on


class Call:
    """Sync work for the driver to run (off the event loop under ASGI)."""

    __slots__ = ("args", "fn")

    def __init__(self, fn: Callable[..., Any], *args: Any) -> None:
        self.fn = fn
        self.args = args


Step = bytes | Wait | Call
Steps = Generator[Step, Any, None]


@dataclass
class Stream:
    """A stream to drive: its steps, whose it is, and the game it watches ("": none)."""

    steps: Steps
    credentials: Credentials
    game_id: str = ""
    tab: str = ""  # its own "watching" mark (live.presence): several tabs may watch one game

    def member(self, slot: int = 0) -> keepalive.Member:
        c = self.credentials
        return keepalive.Member(
            c.user_id,
            c.token_id,
            self.game_id,
            self.tab,
            slot,
            c.session_key,
            oauth_token_id=c.oauth_token_id,
        )


def watch_ttl() -> int:
    """How long a "watching" mark lasts: past the next keep-alive, which renews it."""
    return int(2 * heartbeat() + 5)


def response(request: HttpRequest, stream: Stream, content_type: str) -> StreamingHttpResponse:
    """The streaming response of ``stream``, driven as the server runs the request."""
    if not stream.tab:
        stream.tab = uuid.uuid4().hex
    if isinstance(request, ASGIRequest):
        content: Any = drive(stream)
    else:
        content = drive_blocking(stream)  # WSGI: a thread per stream, as for any request
    out = StreamingHttpResponse(content, content_type=content_type)
    out["Cache-Control"] = "no-cache"
    out["X-Accel-Buffering"] = "no"  # nginx: do not buffer the stream
    return out


async def drive(stream: Stream) -> AsyncIterator[bytes]:
    """Drive under ASGI: no thread and no timer while waiting."""
    notifier = announce.notifier()
    beats = keepalive.for_loop(heartbeat())
    member = beats.join_member(stream.member())
    steps = stream.steps
    metrics.LIVE_CONNECTIONS.inc()
    try:
        if stream.game_id:
            await _off_loop(presence.mark_watching)(
                member.user_id, stream.game_id, watch_ttl(), stream.tab
            )
        result: Any = None
        while (step := _next_step(steps, result)) is not None:
            if isinstance(step, bytes):
                result = None
                yield step
            elif isinstance(step, Call):
                result = await _off_loop(step.fn)(*step.args)
            elif member.due:
                result = Beat(member.take())
            else:
                release_request_thread()
                member.poke.clear()
                result = await notifier.wait(
                    step.key,
                    above=step.above,
                    timeout=step.timeout,
                    poke=member.poke,
                    also=step.also,
                )
                if result is None and member.due:
                    result = Beat(member.take())
    finally:
        metrics.LIVE_CONNECTIONS.dec()
        beats.leave(member)
        steps.close()
        if stream.game_id:
            await _stop_watching(stream)


def _next_step(steps: Steps, result: Any) -> Step | None:
    """The stream's next step, given what its last one came to (None after bytes); None once
    the stream has ended."""
    try:
        return steps.send(result)
    except StopIteration:
        return None


def _off_loop(fn: Callable[..., Any]) -> Callable[..., Any]:
    return sync_to_async(fn, thread_sensitive=False)


async def _stop_watching(stream: Stream) -> None:
    """The stream ended (the client closed the game or hid it): no longer watching in this
    tab; another tab keeps its own mark."""
    try:
        await _off_loop(presence.stop_watching)(
            stream.credentials.user_id, stream.game_id, stream.tab
        )
    except BaseException:  # cancelled again while cleaning up: the mark's TTL ends it anyway
        logger.debug("Could not remove a watching mark", exc_info=True)


def drive_blocking(stream: Stream) -> Iterator[bytes]:
    """Drive from a WSGI thread, with the stream's own keep-alive timer."""
    notifier = announce.notifier()
    member = stream.member()
    steps = stream.steps
    period = heartbeat()
    beat_at = time.monotonic() + period
    result: Any = None  # what the last step came to, sent into the stream for the next one
    metrics.LIVE_CONNECTIONS.inc()
    try:
        if stream.game_id:
            presence.mark_watching(member.user_id, stream.game_id, watch_ttl(), stream.tab)
        while (step := _next_step(steps, result)) is not None:
            if isinstance(step, bytes):
                result = None
                yield step
            elif isinstance(step, Call):
                result = step.fn(*step.args)
            elif notifier.stopped:
                # A closed page's stream on a test's live server (``announce.stop_notifier``):
                # end it rather than re-check its token in a database that may be gone.
                return
            else:
                now = time.monotonic()
                if now >= beat_at:
                    beat_at = now + period
                    refused = keepalive.check_and_mark([member], watch_ttl())
                    result = Beat(refused.get(id(member), ""))
                    continue
                timeout = beat_at - now
                if step.timeout is not None:
                    timeout = min(timeout, step.timeout)
                result = notifier.wait_blocking(
                    step.key, above=step.above, timeout=timeout, also=step.also
                )
    finally:
        metrics.LIVE_CONNECTIONS.dec()
        steps.close()
        if stream.game_id:
            presence.stop_watching(member.user_id, stream.game_id, stream.tab)


# ---------------------------------------------------------------------------------------------
# Running the DRF view in front of a stream or a long-poll


def run_view(
    view: Callable[..., Any], request: HttpRequest, args: Any, kwargs: Any, *plans: str
) -> Any:
    """Run the (sync) DRF view; when its response carries one of ``plans`` (it will wait or
    stream), give back the database connection first."""
    answer = view(request, *args, **kwargs)
    if any(getattr(answer, plan, None) is not None for plan in plans):
        release_connections()
    return answer


async def run_view_async(
    view: Callable[..., Any], request: HttpRequest, args: Any, kwargs: Any, *plans: str
) -> Any:
    """``run_view`` on the request's thread (thread-sensitive, as Django runs a sync view)."""
    return await sync_to_async(run_view)(view, request, args, kwargs, *plans)


def as_async_view(view: Callable[..., Any], wrapper: Callable[..., Any]) -> Callable[..., Any]:
    """``wrapper`` with the DRF view's attributes (``cls``, ``view_class``, ``csrf_exempt``…), so
    drf-spectacular and the URL resolver still see the DRF view behind it."""
    functools.update_wrapper(wrapper, view)
    return wrapper
