"""The Server-Sent Events stream of a game: ``games/{id}/stream/``.

``GameStreamView`` is an ordinary DRF view (authentication, permissions, the one error shape, the
schema): it answers the first update, as JSON, and says on its response what to stream
(``live_stream``, a ``StreamPlan``). Its async wrapper (``event_stream``) then streams, when the
client asked for ``text/event-stream``: the stream is a generator of steps (``_steps``) with no I/O
of its own, driven by the live app's one driver (``live.driver``, which also drives the account
event stream), so that waiting holds no thread, no connection and no timer under ASGI, and the
keep-alives re-check the stream's credentials.
"""

from __future__ import annotations

import json
import time
from collections import OrderedDict
from collections.abc import Callable, Generator
from dataclasses import dataclass, replace
from typing import Any
from uuid import UUID

from django.http import HttpRequest, HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils.encoders import JSONEncoder

from config import error_codes as codes
from config import query
from config.api_responses import standard_errors
from config.errors import ServiceError
from config.openapi import error_response
from config.wrapped_views import WrappedAPIView
from games import selectors, spectators
from games.api import feeds
from games.api import serializers as s
from games.api.views import NO_GAME, seat_view
from games.models import Game
from live import announce, driver, keepalive
from live.driver import HEARTBEAT_SECONDS, RETRY_MILLISECONDS, Beat, Call, Steps, Wait
from players.models import ApiToken, User
from players.oauth import is_app_token, live_access_token_ids

EVENT_STREAM = "text/event-stream"
# Moves per `version` event; a longer backlog comes as several events in a row.
STREAM_PAGE = 50
TERMINAL = frozenset({Game.FINISHED, Game.ABORTED, Game.EXPIRED})


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
    chat: Any = None  # ``?chat_after=``: the chat feed's reader (games.api.feeds), if any
    chat_after: int = 0
    # A spectator's stream (games/spectators.py): the game's [spectating, spectator_delay] when
    # it was opened; None for a player's (or a public lobby's) stream.
    watch: tuple[str, int] | None = None


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


def progress_or_404(request: Request, game_id: UUID) -> selectors.Progress:
    """The live views page moves: they need the game's version and status, not its state."""
    game = selectors.progress_for(request.user, game_id)
    if game is None:
        raise ServiceError(codes.NOT_FOUND, "No such game.")
    return game


def cursor_of(request: Request) -> int:
    """Where to start: Last-Event-ID (an EventSource reconnecting) wins over ``?after=``."""
    raw = request.headers.get("Last-Event-ID")
    if raw is None or not raw.strip():
        return query.integer(request, "after", 0, 0, 10**9)
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

With `?chat_after=<message id>` (0: from now on) the stream also carries the game's chat, the
channel you may read (the players' chat to a seat), as `chat` events with no `id` (your
`Last-Event-ID` stays the game's cursor): `data` is `{{"messages": [ChatMessage, ...],
"next_after": <id>}}`, the messages after the cursor, a message the moderators deleted as a
row with `deletes` set (remove that message). Pass the last `next_after` when you reconnect.

Without `Accept: {EVENT_STREAM}` the answer is the first event's `LiveUpdate` as JSON (with
`?view=true`, with your view in it)."""


STREAM_200 = (
    f"With `Accept: {EVENT_STREAM}`: the stream (`version` events, `view` events with "
    "`?view=true`, keep-alive comments, `end`). "
    "Otherwise: the first event's data, as JSON."
)


def plan_of(
    request: Request,
    game: selectors.Progress,
    seat: int | None,
    update: dict[str, Any],
    *,
    with_view: bool = False,
    watch: tuple[str, int] | None = None,
) -> StreamPlan:
    """What to stream for this request: the game, whose credentials the keep-alives re-check,
    the first update, and how (the seat's views, a spectator's settings)."""
    auth = request.auth
    return StreamPlan(
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
        watch=watch,
    )


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
        response = await driver.run_view_async(view, request, args, kwargs, "live_stream")
        plan: StreamPlan | None = getattr(response, "live_stream", None)
        if not stream or plan is None:
            return response
        if plan.update["status"] in TERMINAL and not plan.update["moves"]:
            return HttpResponse(status=204)  # over, and nothing left to send
        return driver.response(request, stream_of(plan), EVENT_STREAM)

    return driver.as_async_view(view, stream_view)


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


def _read_view(plan: StreamPlan) -> tuple[dict[str, Any] | None, str]:
    """The stream's seat's view (a ``Call`` of the steps): its hand goes only to credentials
    still good (two queries). None and why the stream must end, or None and "" when the game is
    no longer the user's to see (the next update says so)."""
    try:
        if not _authorized(plan):
            return None, "authentication_failed"
        return seat_view(plan.user, plan.game_id), ""
    finally:
        driver.release_connections()


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
        if plan.watch is not None:
            return _spectator_fetch(plan, after)
        game = selectors.progress_for(plan.user, plan.game_id)
        if game is None:
            return None, "not_found", False
        return _update(game, plan.user, after), "", _wants_view(plan, None)
    finally:
        driver.release_connections()


def _spectator_fetch(plan: StreamPlan, after: int) -> Fetched:
    """A spectator's update after ``after``: asked again whether they may watch (the host may
    have changed it, a player may have blocked them), up to the version they are shown."""
    try:
        game = spectators.spectator_progress(plan.user, plan.game_id)
    except ServiceError as exc:
        return None, exc.code, False
    return spectator_update(game, plan.user, after), "", False


def spectator_update(game: selectors.Progress, user: User, after: int) -> dict[str, Any]:
    """The moves after ``after`` as a reader without a seat sees them, up to the version the
    spectator is shown (``game.version``)."""
    moves, more = selectors.events_for(
        game, user, after=after, limit=STREAM_PAGE, seat=None, upto=game.version
    )
    return _live_update(game.version, game.status, moves, after, more)


def _from_news(
    plan: StreamPlan, after: int, version: int, upto: int, notifier: announce.Notifier
) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """The update after ``after`` (the stream has sent ``version``; a version up to ``upto``
    woke it) from the announcements' news, with no query.

    Returns (the update, the last news); (None, the last news) when this seat sees more of a
    move than its news says (``private``: a card it drew), for ``_fetch_private`` to read its
    own events; (None, None) when there is no news to go by (a stranger's stream, a lost
    announcement), for ``_fetch`` to read everything."""
    if plan.seat is None and not _follows_news(plan):
        # Without a seat the game may stop being visible (a public lobby that starts): only
        # the database says.
        return None, None
    news = notifier.news_after(plan.game_id, version, upto)
    if news is None:
        return None, None
    last = news[-1]
    if plan.watch is not None and any(
        not item["moves"] or item.get("watch") != list(plan.watch) for item in news
    ):
        # A change that is no move (a seat handed to a bot) or new settings for spectators:
        # the database says whether this spectator may still watch, and what.
        return None, None
    if any(plan.seat in item["private"] for item in news):
        return None, last
    if plan.watch is not None:
        return _shared_update(plan.game_id, after, news), last
    moves = [move for item in news for move in item["moves"] if move["version"] > after]
    return _live_update(last["version"], last["status"], moves, after, False), last


# The update every spectator of a game following the news gets after a move (the same for all:
# none has a seat), made once per (game, cursor, version) rather than once per stream: at 200
# spectators, serializing it was most of a move's cost to the live process.
_SHARED: OrderedDict[tuple[str, int, int], dict[str, Any]] = OrderedDict()
SHARED_UPDATES = 256


def _shared_update(game_id: str, after: int, news: list[dict[str, Any]]) -> dict[str, Any]:
    last = news[-1]
    key = (game_id, after, last["version"])
    update = _SHARED.get(key)
    if update is None:
        moves = [move for item in news for move in item["moves"] if move["version"] > after]
        update = _SHARED[key] = _live_update(last["version"], last["status"], moves, after, False)
        while len(_SHARED) > SHARED_UPDATES:
            _SHARED.popitem(last=False)
    return update


def _follows_news(plan: StreamPlan) -> bool:
    """A spectator's stream without a delay forwards the public news as it is, with no query:
    the news is what a reader without a seat sees."""
    return plan.watch is not None and not plan.watch[1]


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
        driver.release_connections()


def _after_wake(
    plan: StreamPlan, cursor: int, version: int, upto: int, notifier: announce.Notifier
) -> Generator[Call, Any, Fetched]:
    """The update after ``cursor`` once a version up to ``upto`` woke the stream: from the news
    when it says all (no query), else the seat's own events, else the database."""
    update, last = _from_news(plan, cursor, version, upto, notifier)
    if update is not None:
        return update, "", _wants_view(plan, last)
    if last is not None:
        fetched: Fetched = yield Call(_fetch_private, plan, cursor, last)
        return fetched
    fetched = yield Call(_fetch, plan, cursor)
    return fetched


def _end(reason: str) -> bytes:
    return _sse("end", {"reason": reason})


def _side_events(side: feeds.Side, upto: int | None = None) -> Generator[bytes | Call, Any, None]:
    """The side feed's events after its cursor (up to ``upto``, the mark that woke the stream,
    if known), as ``chat`` events (no ``id``: Last-Event-ID stays the game's cursor)."""
    more = True
    while more:
        items, cursor, more = yield Call(feeds.read_side, side, upto)
        side.cursor = cursor
        if items:
            yield _sse("chat", {"messages": items, "next_after": cursor})


def _next_version(
    plan: StreamPlan, version: int, ends: float, side: feeds.Side | None = None
) -> Generator[bytes | Wait | Call, Any, int | None]:
    """Wait for a version above ``version``, writing the keep-alives and the side feed's events;
    None when the stream must end (after its ``end`` event, if its credentials went) or its
    lifetime is up."""
    while True:
        left = ends - time.monotonic()
        if left <= 0:
            return None  # EventSource reconnects with Last-Event-ID
        also = None if side is None else (side.key, side.cursor)
        woken = yield Wait(plan.game_id, version, left, also)
        if isinstance(woken, announce.Side) and side is not None:
            yield from _side_events(side, woken.version)
            continue
        if not isinstance(woken, Beat):
            if woken is not None:
                return int(woken)
            continue
        if woken.reason:
            yield _end(woken.reason)
            return None
        yield b": keep-alive\n\n"


def _steps(plan: StreamPlan) -> Steps:
    """The stream as steps for ``live.driver``: every update after the cursor as ``version``
    events (a page each), the seat's ``view`` after a change that lets it act (``?view=true``),
    keep-alives while quiet, and ``end`` when the game is over or the credentials went."""
    notifier = announce.notifier()
    ends = time.monotonic() + driver.lifetime()
    yield f"retry: {RETRY_MILLISECONDS}\n\n".encode()
    first = dict(plan.update)
    # The first view came with the view's answer; later ones are read after their version.
    view: dict[str, Any] | None = first.pop("view", None)
    wants_view = view is not None
    side = feeds.side_of(plan.chat, plan.chat_after, plan.game_id)
    side_read = False
    update: dict[str, Any] | None = first
    version, reason = -1, ""
    while update is not None:
        # Send everything after the cursor, a page per event.
        if update["moves"] or update["version"] != version:
            yield _sse("version", update, event_id=update["next_after"])
        cursor, version = update["next_after"], update["version"]
        if update["has_more"]:
            update, reason, wants_view = yield Call(_fetch, plan, cursor)
            continue
        if wants_view:
            # After the version event, so that the move reaches the screen without waiting for
            # the read.
            if view is None:
                view, reason = yield Call(_read_view, plan)
                if reason:
                    yield _end(reason)
                    return
            if view is not None:
                yield _sse("view", view)
            view = None
        if side is not None and not side_read:
            # Once, after the first update; then only when the feed's key wakes the stream
            # (its wait is above the cursor: a message meanwhile wakes it at once).
            yield from _side_events(side)
            side_read = True
        if update["status"] in TERMINAL:
            yield _end(update["status"])
            return
        woken = yield from _next_version(plan, version, ends, side)
        if woken is None:
            return
        update, reason, wants_view = yield from _after_wake(plan, cursor, version, woken, notifier)
    yield _end(reason)


def stream_of(plan: StreamPlan) -> driver.Stream:
    """The stream ``live.driver`` drives for ``plan``."""
    credentials = driver.Credentials(
        plan.user.pk, plan.token_id, plan.session_key, plan.oauth_token_id
    )
    return driver.Stream(_steps(plan), credentials, plan.game_id)


class GameStreamView(WrappedAPIView):
    renderer_classes = [JSONRenderer]
    wrapper = event_stream

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
            query.integer_parameter(
                "chat_after",
                0,
                query.MAX_ID,
                "Also send the game's chat (the channel you may read: the players' to a seat) "
                "after this message id, as `chat` events (0: every message; pass the "
                "`next_after` of `games_chat_list` to go on from it). "
                "Only on the stream.",
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
            **standard_errors(
                {
                    400: error_response(
                        "`invalid_request`: `after`, `chat_after` or `Last-Event-ID` out of "
                        "range, or `view` not true or false."
                    ),
                    404: NO_GAME,
                },
                write=False,
            ),
        },
        tags=["games"],
    )
    def get(self, request: Request, game_id: UUID) -> Response:
        game = progress_or_404(request, game_id)
        with_view = bool(query.boolean(request, "view"))
        seat = selectors.seat_position(game.pk, request.user)
        update = _update(game, request.user, cursor_of(request), seat)
        chat, chat_after = feeds.chat_of(request, str(game.pk))
        if with_view:
            view = seat_view(request.user, str(game.pk))
            if view is not None:
                update["view"] = view
        response = Response(update)
        plan = plan_of(request, game, seat, update, with_view=with_view)
        response.live_stream = replace(plan, chat=chat, chat_after=chat_after)
        return response
