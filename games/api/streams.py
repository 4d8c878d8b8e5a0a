"""Live updates over HTTP: the long-poll of ``games/{id}/events/?wait=`` and the Server-Sent Events
stream ``games/{id}/stream/``.

DRF views are synchronous, so each route here is an ordinary DRF view (authentication,
permissions, the one error shape, the schema: all unchanged) wrapped in an async Django view:

1. the wrapper runs the DRF view (``sync_to_async``); the view answers at once when it can, and
   otherwise says on its response what it would wait for (``live_wait`` / ``live_stream``);
2. the wrapper closes the request's database connection and waits on ``games.announce``'s notifier,
   an ``asyncio`` wait that holds no thread busy and no connection;
3. woken by a new version (or at the end of the wait) it asks the view again, or streams.

Under uvicorn (``manage.py serve``) hundreds of clients can wait this way while others are
served. Under a WSGI server (``runserver``, the test suite's live server) the same views work,
each waiting request keeping its worker thread as every WSGI request does.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import time
import uuid
from collections.abc import AsyncIterator, Callable, Generator, Iterator
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from asgiref.sync import AsyncToSync, SyncToAsync, sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.db import connections
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils.encoders import JSONEncoder
from rest_framework.views import APIView

from config import error_codes as codes
from config import metrics, query
from config.errors import ServiceError
from games import announce, presence, selectors
from games.api import keepalive
from games.api import serializers as s
from games.api.views import (
    NO_GAME,
    _bool_param,
    _error,
    _errors,
    _int_param,
    seat_view,
)
from games.models import Game
from players.models import ApiToken, User
from players.oauth import is_app_token, live_access_token_ids

logger = logging.getLogger(__name__)

EVENT_STREAM = "text/event-stream"
# Moves per `version` event; a longer backlog comes as several events in a row.
STREAM_PAGE = 50
# A comment line this often keeps proxies from closing an idle stream.
HEARTBEAT_SECONDS = 15.0
# Streams end after this long; EventSource reconnects at once with Last-Event-ID, and the new
# request is authenticated again (the keep-alives already ended a revoked token's or a
# logged-out session's stream).
STREAM_MAX_SECONDS = 3600.0
# The reconnection delay EventSource is told to use (milliseconds).
RETRY_MILLISECONDS = 3000
TERMINAL = frozenset({Game.FINISHED, Game.ABORTED, Game.EXPIRED})


def live_setting(name: str, default: float) -> float:
    """A live-stream timing (LIVE_HEARTBEAT_SECONDS, LIVE_STREAM_MAX_SECONDS) that tests may set;
    the service runs on the defaults here."""
    return float(getattr(settings, name, default))


# ---------------------------------------------------------------------------------------------
# Running the DRF view, and what surrounds the wait


def _run_view(view: Callable[..., Any], request: HttpRequest, args: Any, kwargs: Any) -> Any:
    """Run the (sync) DRF view; before a wait, give back the database connection."""
    response = view(request, *args, **kwargs)
    if (
        getattr(response, "live_wait", None)
        or getattr(response, "live_stream", None)
        or getattr(response, "live_wait_any", None)
    ):
        release_connections()
    return response


def release_connections() -> None:
    """Close this thread's database connections, so a waiting client holds none.

    Not inside a transaction: that is a test's (or ATOMIC_REQUESTS') and must stay open."""
    for connection in connections.all(initialized_only=True):
        if not connection.in_atomic_block:
            connection.close()


def release_request_thread() -> None:
    """Under ASGI, give back the thread Django keeps for this request's sync code.

    Django runs each ASGI request inside an ``asgiref.sync.ThreadSensitiveContext``: its sync
    parts (signals, middleware, the DRF view) run on a thread of the request's own, which lives
    as long as the request, busy or not. A client waiting 25 seconds would keep one idle thread
    all that time. Shut that thread down before waiting (its database connections are closed
    already); the next sync call in the request starts a fresh one. Call it from the event loop,
    between sync calls. Under WSGI (no such context) it does nothing; should asgiref's internals
    change, it does nothing either, and waiting clients just keep their idle thread."""
    try:
        context = SyncToAsync.thread_sensitive_context.get(None)
        if context is None or getattr(context, "_executor", None) is not None:
            return  # no per-request thread, or one that its creator owns
        if getattr(AsyncToSync.executors, "current", None) is not None:
            return  # sync code above us (async_to_sync): calls go to that thread instead
        executor = SyncToAsync.context_to_thread_executor.pop(context, None)
    except (AttributeError, LookupError, TypeError):
        return
    if executor is not None:
        executor.shutdown(wait=False)


def _as_async_view(view: Callable[..., Any], wrapper: Callable[..., Any]) -> Callable[..., Any]:
    """``wrapper`` with the DRF view's attributes (``cls``, ``view_class``, ``csrf_exempt``…), so
    drf-spectacular and the URL resolver still see the DRF view behind it."""
    functools.update_wrapper(wrapper, view)
    return wrapper


async def mark_watching(user_id: int | None, game_id: str, ttl: float, tab: str) -> None:
    """Record that this user has the game open (no notice needed) for ``ttl`` s, in the live
    connection ``tab``. Never breaks a live update: ``presence`` fails open."""
    if user_id is None:
        return
    await sync_to_async(presence.mark_watching)(user_id, game_id, int(ttl), tab)


async def stop_watching(user_id: int | None, game_id: str, tab: str) -> None:
    """The connection ``tab`` ended (the client closed or hid the game): only its own mark goes,
    so another tab with the same game open keeps the player watching."""
    if user_id is None:
        return
    try:
        await sync_to_async(presence.stop_watching)(user_id, game_id, tab)
    except BaseException:  # cancelled again while cleaning up: the mark's TTL ends it anyway
        logger.debug("Could not remove a watching mark", exc_info=True)


# ---------------------------------------------------------------------------------------------
# The long-poll: games/{id}/events/?wait=


def long_poll(view: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap the DRF view of ``events/`` so that ``?wait=`` waits without holding a thread.

    The view answers; when it had no moves to give and was asked to wait it marks its response
    with ``live_wait`` (a ``games.announce.Wait``). Then wait for a newer version of the game and
    ask the view again, until it has moves or the time is up (then its empty page is the answer).

    A waiting poll marks its player as watching the game (``games.presence``) under a mark of its
    own; a poll the client abandons (it closed or hid the game) removes that mark at once, while
    one that ends normally keeps it a few seconds, to bridge the gap to the next poll."""

    async def events_view(request: HttpRequest, *args: Any, **kwargs: Any) -> Any:
        deadline: float | None = None
        marked: announce.Wait | None = None
        tab = uuid.uuid4().hex
        try:
            while True:
                response = await sync_to_async(_run_view)(view, request, args, kwargs)
                plan: announce.Wait | None = getattr(response, "live_wait", None)
                if plan is None:
                    return response
                now = time.monotonic()
                if deadline is None:
                    deadline = now + plan.seconds
                    await mark_watching(plan.user_id, plan.game_id, plan.seconds + 5, tab)
                    marked = plan
                remaining = deadline - now
                if remaining <= 0:
                    return response
                release_request_thread()
                woke = await announce.notifier().wait(
                    plan.game_id, above=plan.version, timeout=remaining
                )
                if woke is None:
                    return response  # time is up: the empty page
        except asyncio.CancelledError:
            if marked is not None:
                await stop_watching(marked.user_id, marked.game_id, tab)
            raise

    return _as_async_view(view, events_view)


# ---------------------------------------------------------------------------------------------
# My games, live: games/live/?since=&wait=

# The games a "My games" long-poll waits on: those waiting for the player first (my_games' order).
LIVE_GAMES = 50


@dataclass(frozen=True)
class WaitAny:
    """Wait up to ``seconds`` for a version above the given one of any of ``games``."""

    games: tuple[tuple[str, int], ...]
    seconds: float


async def wait_any(games: tuple[tuple[str, int], ...], timeout: float) -> bool:
    """Whether any of ``games`` got a newer version within ``timeout`` seconds."""
    if not games:
        await asyncio.sleep(timeout)
        return False
    notifier = announce.notifier()
    tasks = [
        asyncio.ensure_future(notifier.wait(game_id, above=version, timeout=timeout))
        for game_id, version in games
    ]
    try:
        done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        return any(task.result() is not None for task in done)
    finally:
        for task in tasks:
            task.cancel()  # their waiters are removed as they end (Notifier.wait)


def games_long_poll(view: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap the DRF view of ``games/live/``: when nothing changed since the client's stamp, wait
    (holding no thread) for a new version of any of the player's games, then ask again."""

    async def live_view(request: HttpRequest, *args: Any, **kwargs: Any) -> Any:
        deadline: float | None = None
        while True:
            response = await sync_to_async(_run_view)(view, request, args, kwargs)
            plan: WaitAny | None = getattr(response, "live_wait_any", None)
            if plan is None:
                return response
            now = time.monotonic()
            if deadline is None:
                deadline = now + plan.seconds
            remaining = deadline - now
            if remaining <= 0:
                return response
            release_request_thread()
            if not await wait_any(plan.games, remaining):
                return response  # time is up: the same stamp again

    return _as_async_view(view, live_view)


class MyGamesLiveSerializer(serializers.Serializer):
    stamp = serializers.CharField(
        help_text="Changes whenever any of your unfinished games changes (a move, a join, the "
        "end): pass it back as `since`."
    )
    games_waiting = serializers.IntegerField(
        help_text="Games waiting for your move now (the badge of the web client)."
    )
    invitations = serializers.IntegerField(
        help_text="Lobbies you are invited to and have not joined (`games_invitations_list`); "
        "the web client's badge counts them with `games_waiting`."
    )


class MyGamesLiveView(APIView):
    @classmethod
    def as_view(cls, **initkwargs: Any) -> Any:
        return games_long_poll(super().as_view(**initkwargs))

    @extend_schema(
        operation_id="games_live_retrieve",
        summary="Know when any of my games changes (long-poll)",
        description=(
            "For a games list and a badge that stay current: `stamp` changes whenever any of "
            "your games in a lobby or in progress changes, a game with you in it is created, or "
            "an invitation comes, is answered or runs out; `games_waiting` counts the games "
            "waiting for your move and `invitations` the lobbies you are invited to.\n\n"
            "Long-poll with `since` and `wait`: when the stamp is still `since`, the answer waits "
            "up to `wait` seconds for a change and comes as soon as one is made (usually within "
            "a second). Then reload `games/` (and `games/invitations/`) if the stamp changed, and "
            "ask again."
        ),
        parameters=[
            OpenApiParameter("since", str, description="The stamp of your last answer."),
            query.integer_parameter(
                "wait",
                0,
                announce.MAX_WAIT_SECONDS,
                "Long-poll: while nothing changed since `since`, wait up to this many seconds "
                "(default 0: answer at once).",
                default=0,
            ),
        ],
        responses={
            200: MyGamesLiveSerializer,
            **_errors({400: _error("`invalid_request`: `wait` out of range.")}, write=False),
        },
        tags=["games"],
    )
    def get(self, request: Request) -> Response:
        wait = _int_param(request, "wait", 0, 0, announce.MAX_WAIT_SECONDS)
        since = request.query_params.get("since", "")
        # Taken before the read: an announcement for this player after it may not be in it.
        mark = announce.user_mark(request.user.pk)
        live = selectors.live_games(request.user, limit=LIVE_GAMES)
        response = Response(
            MyGamesLiveSerializer(
                {
                    "stamp": live.stamp,
                    "games_waiting": live.games_waiting,
                    "invitations": live.invitations,
                }
            ).data
        )
        if wait and since == live.stamp:
            # A new game with the player in it moves no version they wait on: their own key does.
            mine = (announce.user_key(request.user.pk), mark)
            response.live_wait_any = WaitAny((*live.versions, mine), wait)
        return response


# ---------------------------------------------------------------------------------------------
# The stream: games/{id}/stream/


class LiveUpdateSerializer(s.EventPageSerializer):
    """The game's version and status, with the moves after the cursor (an EventPage)."""

    version = serializers.IntegerField(
        help_text="The game's version now: when it differs from your view's, reload the view."
    )
    status = serializers.ChoiceField(choices=[s for s, _ in Game.STATUSES])
    view = s.GameSerializer(
        required=False,
        help_text="Only in the JSON answer (no `Accept: text/event-stream`) with `?view=true`: "
        "your view of the game, as `games_retrieve` answers it. On the stream your view comes "
        "as `view` events of its own.",
    )


@dataclass(frozen=True)
class StreamPlan:
    game_id: str
    kind: str
    user: User
    token_id: int | None
    seat: int | None  # the user's position in the game; None: no seat, or not dealt one yet
    update: dict[str, Any]  # the first event: the LiveUpdate the view answered
    with_view: bool = False  # ``?view=true``: events carry the seat's view when it may act
    session_key: str | None = None  # a session's stream (``token_id`` None): its log-in
    oauth_token_id: int | None = None  # an app's OAuth token (players.oauth), checked instead


def _update(
    game: Game | selectors.Progress,
    user: User,
    after: int,
    seat: Any = selectors.UNKNOWN_SEAT,
) -> dict[str, Any]:
    moves, more = selectors.events_for(game, user, after=after, limit=STREAM_PAGE, seat=seat)
    return _live_update(game.version, game.status, moves, after, more)


def _live_update(
    version: int, status: str, moves: list[dict[str, Any]], after: int, more: bool
) -> dict[str, Any]:
    return LiveUpdateSerializer(
        {
            "version": version,
            "status": status,
            "moves": moves,
            "next_after": moves[-1]["version"] if moves else after,
            "has_more": more,
        }
    ).data


def _progress_or_404(request: Request, game_id: UUID) -> selectors.Progress:
    """The live views page moves: they need the game's version and status, not its state."""
    game = selectors.progress_for(request.user, game_id)
    if game is None:
        raise ServiceError(codes.NOT_FOUND, "No such game.")
    return game


def _cursor(request: Request) -> int:
    """Where to start: Last-Event-ID (an EventSource reconnecting) wins over ``?after=``."""
    raw = request.headers.get("Last-Event-ID")
    if raw is None or not raw.strip():
        return _int_param(request, "after", 0, 0, 10**9)
    try:
        value = int(raw)
    except ValueError:
        value = -1
    if not 0 <= value <= 10**9:
        raise ServiceError(
            codes.INVALID_REQUEST, "Last-Event-ID must be a whole number, 0 to 1000000000."
        )
    return value


STREAM_DESCRIPTION = f"""\
Server-Sent Events: the game's changes as they happen, for a client that has the game open.

Send `Accept: {EVENT_STREAM}` (EventSource does). The stream starts with one `version` event at
once, then one each time the game changes (a move, a join, a timeout), usually within a second:

```
id: 17
event: version
data: {{"version": 17, "status": "active", "moves": [...], "next_after": 17, "has_more": false}}
```

`data` is a `LiveUpdate`: the game's `version` and `status`, and the moves after the cursor (as in
`games_events_list`, at most {STREAM_PAGE} per event; more follow at once while `has_more`). The
event `id` is the cursor (`next_after`): EventSource sends it back as `Last-Event-ID` when it
reconnects, and the stream resumes after it. A comment line (`: keep-alive`) comes every
{int(HEARTBEAT_SECONDS)} seconds. When the game is over (or no longer yours to see) an `end`
event (`data: {{"reason": "finished"}}`) closes the stream: call `close()` on the EventSource.
Streams also close after an hour; reconnecting resumes them.

With `?view=true` the stream also sends your view of the game, exactly as `games_retrieve`
answers it (`data` is a `Game`), in a `view` event right after the first `version` event and
after each one of a change that lets you act (your turn, a catch, a choice that is yours):

```
event: view
data: {{"id": "…", "version": 18, "table": {{"legal_actions": [...], ...}}, ...}}
```

Act on it (with `expected_version` = its `version`): no request is needed between your turns.

Without `Accept: {EVENT_STREAM}` the answer is the first event's `LiveUpdate` as JSON (with
`?view=true`, with your view in it)."""


STREAM_200 = (
    f"With `Accept: {EVENT_STREAM}`: the stream (`version` events, `view` events with "
    "`?view=true`, keep-alive comments, `end`). "
    "Otherwise: the first event's data, as JSON."
)


class GameStreamView(APIView):
    renderer_classes = [JSONRenderer]

    @classmethod
    def as_view(cls, **initkwargs: Any) -> Any:
        return event_stream(super().as_view(**initkwargs))

    @extend_schema(
        operation_id="games_stream_retrieve",
        summary="Live updates of a game (Server-Sent Events)",
        description=STREAM_DESCRIPTION,
        parameters=[
            query.integer_parameter(
                "after", 0, 10**9, "Send the moves after this version.", default=0
            ),
            OpenApiParameter(
                "view",
                bool,
                description="Also send your view of the game, in a `view` event after the first "
                "`version` event and after each change that lets you act: a player's app then "
                "needs no `games_retrieve` between its turns (default false).",
            ),
            OpenApiParameter(
                "Last-Event-ID",
                str,
                OpenApiParameter.HEADER,
                description="The last event `id` received; wins over `after` (EventSource "
                "sends it when it reconnects).",
            ),
        ],
        responses={
            (200, "application/json"): OpenApiResponse(
                LiveUpdateSerializer,
                description=STREAM_200,
            ),
            (200, EVENT_STREAM): OpenApiResponse(
                OpenApiTypes.STR,
                description=STREAM_200,
            ),
            204: OpenApiResponse(
                description="Only to a stream request for a game that is over when every move "
                "was delivered already: EventSource stops reconnecting."
            ),
            **_errors(
                {
                    400: _error(
                        "`invalid_request`: `after` or `Last-Event-ID` out of range, or `view` "
                        "not true or false."
                    ),
                    404: NO_GAME,
                },
                write=False,
            ),
        },
        tags=["games"],
    )
    def get(self, request: Request, game_id: UUID) -> Response:
        game = _progress_or_404(request, game_id)
        with_view = bool(_bool_param(request, "view"))
        seat = selectors.seat_position(game.pk, request.user)
        update = _update(game, request.user, _cursor(request), seat)
        if with_view:
            view = seat_view(request.user, str(game.pk))
            if view is not None:
                update["view"] = view
        response = Response(update)
        auth = request.auth
        response.live_stream = StreamPlan(
            game_id=str(game.pk),
            kind=game.kind,
            user=request.user,
            token_id=auth.pk if isinstance(auth, ApiToken) else None,
            seat=seat,
            update=update,
            with_view=with_view,
            # Logging out deletes the session: the keep-alives end its streams then.
            session_key=None if auth is not None else request.session.session_key,
            oauth_token_id=auth.pk if is_app_token(auth) else None,
        )
        return response


def _wants_stream(request: HttpRequest) -> bool:
    return EVENT_STREAM in request.headers.get("Accept", "")


def event_stream(view: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap the DRF view of ``stream/``: errors and the JSON form come from the view; a request
    for ``text/event-stream`` that the view accepted gets the stream."""

    async def stream_view(request: HttpRequest, *args: Any, **kwargs: Any) -> Any:
        stream = _wants_stream(request)
        if stream:
            # DRF negotiates JSON (its errors are JSON whatever the client streams).
            request.META["HTTP_ACCEPT"] = "application/json"
            request.__dict__.pop("headers", None)  # a cached_property built from META
        response = await sync_to_async(_run_view)(view, request, args, kwargs)
        plan: StreamPlan | None = getattr(response, "live_stream", None)
        if not stream or plan is None:
            return response
        update = plan.update
        if update["status"] in TERMINAL and not update["moves"]:
            return HttpResponse(status=204)  # over, and nothing left to send
        if isinstance(request, ASGIRequest):
            content: Any = _events(plan)
        else:
            content = _blocking_events(plan)  # WSGI: a thread per stream, as for any request
        out = StreamingHttpResponse(content, content_type=EVENT_STREAM)
        out["Cache-Control"] = "no-cache"
        out["X-Accel-Buffering"] = "no"  # nginx: do not buffer the stream
        return out

    return _as_async_view(view, stream_view)


def _sse(event: str, data: Any, *, event_id: int | None = None) -> bytes:
    lines = [] if event_id is None else [f"id: {event_id}"]
    lines += [f"event: {event}", "data: " + json.dumps(data, cls=JSONEncoder), "", ""]
    return "\n".join(lines).encode()


def _authorized(plan: StreamPlan) -> bool:
    """Whether the stream's token (one query), or its session (``keepalive.session_holds``: a
    query and a session read), is still good."""
    if plan.oauth_token_id is not None:
        return bool(live_access_token_ids([plan.oauth_token_id]))
    if plan.token_id is not None:
        token = ApiToken.objects.select_related("user").filter(pk=plan.token_id).first()
        return token is not None and token.is_live and token.user.is_active
    user = User.objects.filter(pk=plan.user.pk, is_active=True).first()
    return user is not None and keepalive.session_holds(plan.session_key, user)


def _keep_alive(plan: StreamPlan, step: _Watching, tab: str) -> str:
    """Mark the user as watching for ``step.ttl`` s; with ``step.check``, first re-check the
    credentials (the moves forwarded from the news do not). Returns why the stream must end,
    or ""."""
    try:
        if step.check and not _authorized(plan):
            return "authentication_failed"
    finally:
        release_connections()
    presence.mark_watching(plan.user.pk, plan.game_id, int(step.ttl), tab)
    return ""


def _read_view(plan: StreamPlan) -> tuple[dict[str, Any] | None, str]:
    """The stream's seat's view (``_View``): its hand goes only to credentials still good (two
    queries). None and why the stream must end, or None and "" when the game is no longer the
    user's to see (the next update says so)."""
    try:
        if not _authorized(plan):
            return None, "authentication_failed"
        return seat_view(plan.user, plan.game_id), ""
    finally:
        release_connections()


def _wants_view(plan: StreamPlan, last: dict[str, Any] | None) -> bool:
    """Whether the stream sends its seat's view after the change whose last news is ``last``:
    it carries views and the change lets its seat act (no news, or news that does not say who
    may act: assume it does)."""
    if not plan.with_view:
        return False
    if last is None or last.get("actors") is None:
        return True
    return plan.seat is not None and plan.seat in last["actors"]


Fetched = tuple[dict[str, Any] | None, str, bool]  # the update, why the stream ends, a view?


def _fetch(plan: StreamPlan, after: int) -> Fetched:
    """The update after ``after``, or None and why the stream must end."""
    try:
        if not _authorized(plan):
            return None, "authentication_failed", False
        game = selectors.progress_for(plan.user, plan.game_id)
        if game is None:
            return None, "not_found", False
        return _update(game, plan.user, after), "", _wants_view(plan, None)
    finally:
        release_connections()


def _from_news(
    plan: StreamPlan, step: _Fetch, notifier: announce.Notifier
) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """The update after ``step.after`` from the announcements' news, with no query.

    Returns (the update, the last news); (None, the last news) when this seat sees more of a
    move than its news says (``private``: a card it drew), for ``_fetch_private`` to read its
    own events; (None, None) when there is no news to go by (a stranger's stream, a lost
    announcement), for ``_fetch`` to read everything."""
    if step.upto is None or plan.seat is None:
        # Without a seat the game may stop being visible (a public lobby that starts): only
        # the database says.
        return None, None
    news = notifier.news_after(plan.game_id, step.version, step.upto)
    if news is None:
        return None, None
    last = news[-1]
    if any(plan.seat in item["private"] for item in news):
        return None, last
    moves = [move for item in news for move in item["moves"] if move["version"] > step.after]
    return _live_update(last["version"], last["status"], moves, step.after, False), last


def _fetch_private(plan: StreamPlan, after: int, last: dict[str, Any]) -> Fetched:
    """The update after ``after`` for a seat that sees more of a move than its news: the game's
    version and status from the news, the seat's own events in one query."""
    try:
        progress = selectors.Progress(plan.game_id, plan.kind, last["version"], last["status"])
        moves, more = selectors.events_for(
            progress, plan.user, after=after, limit=STREAM_PAGE, seat=plan.seat
        )
        update = _live_update(progress.version, progress.status, moves, after, more)
        return update, "", _wants_view(plan, last)
    finally:
        release_connections()


@dataclass(frozen=True)
class _Fetch:
    after: int  # the cursor: moves after it
    version: int = 0  # the game's version the stream has sent
    upto: int | None = None  # the version it was woken for (None: read the database)


@dataclass(frozen=True)
class _Wait:
    above: int
    timeout: float | None  # None: until a version or the keep-alive loop's beat


@dataclass(frozen=True)
class _View:
    """Read the seat's view (sent as a ``view`` event)."""


@dataclass(frozen=True)
class _Beat:
    """The keep-alive loop's turn (``games.api.keepalive``): write a keep-alive, or end."""

    reason: str  # why the stream must end; "" to go on


@dataclass(frozen=True)
class _Watching:
    ttl: float
    check: bool = True  # re-check the credentials (not at the start: the view just did)


_Step = bytes | _Fetch | _Wait | _Watching | _View


def _steps(plan: StreamPlan, *, batched: bool = False) -> Generator[_Step, Any, None]:
    """The stream as a sequence of steps, with no I/O of its own: bytes to send, or a request to
    the driver (fetch an update, wait for a version, read the seat's view, mark the user as
    watching) whose result is sent back in. ``_events`` drives it under ASGI,
    ``_blocking_events`` under WSGI.

    ``batched``: the keep-alives come from the process's keep-alive loop (a wait's result is
    then a ``_Beat`` when it is this stream's turn), not from the stream's own timer."""
    heartbeat = live_setting("LIVE_HEARTBEAT_SECONDS", HEARTBEAT_SECONDS)
    lifetime = live_setting("LIVE_STREAM_MAX_SECONDS", STREAM_MAX_SECONDS)
    started = last_sent = time.monotonic()
    yield f"retry: {RETRY_MILLISECONDS}\n\n".encode()
    yield _Watching(2 * heartbeat + 5, check=False)
    first = dict(plan.update)
    # The first view came with the view's answer; later ones are read after their version.
    view: dict[str, Any] | None = first.pop("view", None)
    wants_view = view is not None
    update: dict[str, Any] | None = first
    version, reason = -1, ""
    while update is not None:
        # Send everything after the cursor, a page per event.
        if update["moves"] or update["version"] != version:
            yield _sse("version", update, event_id=update["next_after"])
            last_sent = time.monotonic()
        cursor, version = update["next_after"], update["version"]
        if update["has_more"]:
            update, reason, wants_view = yield _Fetch(cursor)
            continue
        if wants_view:
            # After the version event, so that the move reaches the screen without waiting for
            # the read.
            if view is None:
                view, reason = yield _View()
                if reason:
                    yield _sse("end", {"reason": reason})
                    return
            if view is not None:
                yield _sse("view", view)
            view = None
        if update["status"] in TERMINAL:
            yield _sse("end", {"reason": update["status"]})
            return
        # Wait for the next version, with a keep-alive comment when the line is quiet.
        while True:
            now = time.monotonic()
            if now - started >= lifetime:
                return  # EventSource reconnects with Last-Event-ID
            if not batched and now - last_sent >= heartbeat:
                yield b": keep-alive\n\n"
                last_sent = now
                # The moves forwarded from the news check no credentials: a revoked token or a
                # logged-out session ends its streams here, within a keep-alive.
                reason = yield _Watching(2 * heartbeat + 5)
                if reason:
                    yield _sse("end", {"reason": reason})
                    return
                continue
            timeout = min(heartbeat - (now - last_sent), lifetime - (now - started))
            woken = yield _Wait(version, None if batched else timeout)
            if isinstance(woken, _Beat):
                if woken.reason:
                    yield _sse("end", {"reason": woken.reason})
                    return
                yield b": keep-alive\n\n"
                continue
            if woken is not None:
                break
        update, reason, wants_view = yield _Fetch(cursor, version, woken)
    yield _sse("end", {"reason": reason})


async def _events(plan: StreamPlan) -> AsyncIterator[bytes]:
    """Drive the stream under ASGI: waiting holds no thread, and no timer (the keep-alives
    come from the process's loop, ``games.api.keepalive``)."""
    notifier = announce.notifier()
    fetch = sync_to_async(_fetch)
    fetch_private = sync_to_async(_fetch_private)
    read_view = sync_to_async(_read_view)
    keep_alive = sync_to_async(_keep_alive)
    steps = _steps(plan, batched=True)
    result: Any = None
    tab = uuid.uuid4().hex  # this stream's own presence mark (games.presence)
    beats = keepalive.for_loop(live_setting("LIVE_HEARTBEAT_SECONDS", HEARTBEAT_SECONDS))
    member = beats.join(
        plan.user.pk, plan.token_id, plan.game_id, tab, plan.session_key, plan.oauth_token_id
    )
    metrics.LIVE_CONNECTIONS.inc()
    try:
        while True:
            try:
                step = steps.send(result)
            except StopIteration:
                return
            result = None
            if isinstance(step, bytes):
                yield step
            elif isinstance(step, _Fetch):
                update, last = _from_news(plan, step, notifier)
                if update is not None:
                    result = (update, "", _wants_view(plan, last))
                elif last is not None:
                    result = await fetch_private(plan, step.after, last)
                else:
                    result = await fetch(plan, step.after)
            elif isinstance(step, _Wait):
                if member.due:
                    result = _Beat(member.take())
                    continue
                release_request_thread()
                member.poke.clear()
                result = await notifier.wait(
                    plan.game_id, above=step.above, timeout=step.timeout, poke=member.poke
                )
                if result is None and member.due:
                    result = _Beat(member.take())
            elif isinstance(step, _View):
                result = await read_view(plan)
            else:
                result = await keep_alive(plan, step, tab)
    finally:
        metrics.LIVE_CONNECTIONS.dec()
        beats.leave(member)
        steps.close()
        # The stream ended (the client closed the game or hid it, which drops the stream):
        # no longer watching in this tab.
        await stop_watching(plan.user.pk, plan.game_id, tab)


def _blocking_events(plan: StreamPlan) -> Iterator[bytes]:
    """Drive the stream from a WSGI thread (Django would read an async iterator to its end
    before sending anything under WSGI)."""
    notifier = announce.notifier()
    steps = _steps(plan)
    result: Any = None
    tab = uuid.uuid4().hex
    metrics.LIVE_CONNECTIONS.inc()
    try:
        while True:
            try:
                step = steps.send(result)
            except StopIteration:
                return
            result = None
            if isinstance(step, bytes):
                yield step
            elif isinstance(step, _Fetch):
                update, last = _from_news(plan, step, notifier)
                if update is not None:
                    result = (update, "", _wants_view(plan, last))
                elif last is not None:
                    result = _fetch_private(plan, step.after, last)
                else:
                    result = _fetch(plan, step.after)
            elif isinstance(step, _Wait):
                result = notifier.wait_blocking(
                    plan.game_id, above=step.above, timeout=step.timeout
                )
            elif isinstance(step, _View):
                result = _read_view(plan)
            elif notifier.stopped:
                # A closed page's stream on a test's live server (``announce.stop_notifier``):
                # end it rather than re-check its token in a database that may be gone.
                return
            else:
                # A WSGI thread may block: the sync call directly (no event loop to start, which
                # also fails once the interpreter is shutting down with a stream still open).
                result = _keep_alive(plan, step, tab)
    finally:
        metrics.LIVE_CONNECTIONS.dec()
        steps.close()
        presence.stop_watching(plan.user.pk, plan.game_id, tab)


class EventsView(APIView):
    @classmethod
    def as_view(cls, **initkwargs: Any) -> Any:
        # `?wait=` is a long-poll: the waiting happens in an async wrapper (``long_poll``) that
        # holds no thread busy and no database connection while it waits.
        return long_poll(super().as_view(**initkwargs))

    @extend_schema(
        operation_id="games_events_list",
        summary="The move log as you may see it, after a version",
        description=(
            "Catch up after being away: every move after version `after`, with the events "
            "your seat may see (never another player's cards). Page with `next_after` while "
            "`has_more`.\n\n"
            "Long-poll with `wait`: when there is no move after `after` yet, the answer waits up "
            "to `wait` seconds for one and comes as soon as it is made (usually within a second), "
            "or after `wait` seconds with no moves. Ask again with `after=next_after`."
        ),
        parameters=[
            query.integer_parameter(
                "after", 0, 10**9, "Return moves after this version.", default=0
            ),
            query.integer_parameter("limit", 1, 200, "At most this many moves.", default=50),
            query.integer_parameter(
                "wait",
                0,
                announce.MAX_WAIT_SECONDS,
                "Long-poll: when no move is after `after`, wait up to this many seconds for one "
                "(default 0: answer at once).",
                default=0,
            ),
        ],
        responses={
            200: s.EventPageSerializer,
            **_errors(
                {
                    400: _error("`invalid_request`: `after`, `limit` or `wait` out of range."),
                    404: NO_GAME,
                },
                write=False,
            ),
        },
        tags=["games"],
    )
    def get(self, request: Request, game_id: UUID) -> Response:
        game = _progress_or_404(request, game_id)
        after = _int_param(request, "after", 0, 0, 10**9)
        limit = _int_param(request, "limit", 50, 1, 200)
        wait = _int_param(request, "wait", 0, 0, announce.MAX_WAIT_SECONDS)
        moves, more = selectors.events_for(game, request.user, after=after, limit=limit)
        page = {
            "moves": moves,
            "next_after": moves[-1]["version"] if moves else after,
            "has_more": more,
        }
        response = Response(s.EventPageSerializer(page).data)
        if wait and not moves:
            # Nothing to answer yet: the long_poll wrapper waits for a version above this one
            # and asks again (or answers this empty page when `wait` runs out).
            response.live_wait = announce.Wait(str(game.pk), game.version, wait, request.user.pk)
        return response
