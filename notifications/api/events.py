"""The account event stream: ``GET games/live/stream/``, one long-lived stream per account that
tells an app everything it must react to, across all of its player's games.

**The log is the notifications table.** Every fact an app reacts to is already written as a
``Notification`` row in the transaction of its cause (a move's, an invitation's): "your turn"
(with the version to act on), a game started, a round or the match over, a seat taken over, an
invitation, a moderators' notice. The stream sends those rows in id order, the row id being the
event id, so it adds no table and no query to a move. Kinds that only apps need
(``kinds.STREAM_ONLY``) are written already withdrawn from the inbox and delivered nowhere else.
A kind another app adds (``kinds.register``) is an event of this stream as it is.

**Resuming.** The event id is the row id: a client that reconnects with ``Last-Event-ID`` (SSE)
or ``?after=`` (NDJSON) gets every row after it, so nothing is lost while the rows are kept
(``notifications.retention``) and nothing comes twice. Ids are handed out when rows are
inserted, not when they commit: two transactions writing for one player (two of their games at
once) may commit the higher id first. So a stream reads again, each time, from the highest id
it sent at least ``SETTLE_SECONDS`` ago and skips what it sent since: a row that commits late
still comes, once.

**Waking.** ``notifications.services.write`` announces each player's new rows after commit on the
player's own key (``live.publish(live.user_key(id))``: in-process and Redis pub/sub); every
keep-alive also reads the table, so a lost announcement delays an event by one keep-alive at most.
The stream is a generator of steps driven by the live app's one driver (``live.driver``), as the
game streams are: its keep-alives re-check the stream's personal token, app's OAuth token or
session, so revoked credentials end the stream within one.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.http import HttpRequest
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.negotiation import BaseContentNegotiation
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils.encoders import JSONEncoder
from rest_framework.views import APIView

from config import error_codes as codes
from config.api_responses import NOT_AUTHENTICATED
from config.errors import ServiceError
from config.fields import StrictIntegerField
from config.openapi import error_response
from live import announce, driver
from live.driver import HEARTBEAT_SECONDS, RETRY_MILLISECONDS, Beat, Call, Steps, Wait
from notifications import data, kinds
from notifications.models import Notification
from players.models import ApiToken, User
from players.oauth import is_app_token

EVENT_STREAM = "text/event-stream"
NDJSON = "application/x-ndjson"
FORMATS = {"sse": EVENT_STREAM, "ndjson": NDJSON, "json": "application/json"}
# Rows per read; a longer backlog is sent in several reads in a row.
PAGE = 100
# The longest a row's transaction may commit after a higher id's was sent and still be sent.
SETTLE_SECONDS = 5.0


# ---------------------------------------------------------------------------------------------
# The events


class AccountEventSerializer(serializers.Serializer):
    id = StrictIntegerField(
        help_text="The event id: increasing; resume after it (`Last-Event-ID` or `after`)."
    )
    kind = serializers.ChoiceField(
        choices=list(kinds.all_kinds()),
        help_text='What happened (docs/api.md, "Account event stream", lists each kind\'s '
        "`data`). Clients ignore kinds they do not know: new ones are added.",
    )
    game = serializers.UUIDField(allow_null=True, help_text="The game it is about, if any.")
    version = serializers.IntegerField(
        allow_null=True,
        help_text="The game's version the event is about (`your_turn`: the version to act "
        "on, as `expected_version`), when the kind has one.",
    )
    data = serializers.DictField(help_text="The event's facts; depends on `kind`.")
    created_at = serializers.DateTimeField()


# In the schema an event is one shape per kind the stream carries (stream-only kinds included),
# its `data` typed (notifications/data.py); this serializer still renders every event.
AccountEventByKind = data.by_kind(AccountEventSerializer, "AccountEvent", kinds.all_kinds)


class AccountEventPageSerializer(serializers.Serializer):
    events = AccountEventSerializer(many=True)
    next_after = StrictIntegerField(help_text="The last event's id: pass it as `after`.")
    has_more = serializers.BooleanField(help_text="More events follow: ask again at once.")


def event_of(row: Notification) -> dict[str, Any]:
    facts = row.data if isinstance(row.data, dict) else {}
    version = facts.get("version")
    return {
        "id": row.pk,
        "kind": row.kind,
        "game": row.game_id,
        "version": version if isinstance(version, int) else None,
        "data": facts,
        "created_at": row.created_at,
    }


def read_events(user_id: int, after: int, skip: frozenset[int] = frozenset()) -> list[Any]:
    """The player's events after ``after``, oldest first, but those in ``skip`` (one query)."""
    rows = Notification.objects.filter(user_id=user_id, pk__gt=after).order_by("pk")
    if skip:
        rows = rows.exclude(pk__in=skip)
    return [event_of(row) for row in rows[:PAGE]]


# ---------------------------------------------------------------------------------------------
# The view


class JSONOnly(BaseContentNegotiation):
    """The DRF view answers JSON whatever ``Accept`` or ``?format=`` say (its errors are in the
    one JSON shape even to a stream request); the stream is chosen by ``stream_format``."""

    def select_parser(self, request: Request, parsers: Any) -> Any:
        return parsers[0] if parsers else None

    def select_renderer(self, request: Request, renderers: Any, format_suffix: Any = None) -> Any:
        return renderers[0], renderers[0].media_type


def stream_format(request: Request) -> str:
    """``sse``, ``ndjson`` or ``json``: ``?format=`` wins over ``Accept``."""
    raw = request.query_params.get("format")
    if raw is not None:
        if raw not in FORMATS:
            raise ServiceError(
                codes.INVALID_REQUEST,
                "format must be sse, ndjson or json.",
                fields={"format": ["One of sse, ndjson, json."]},
            )
        return raw
    accept = request.headers.get("Accept", "")
    if EVENT_STREAM in accept:
        return "sse"
    if NDJSON in accept:
        return "ndjson"
    return "json"


def _whole(raw: str, name: str) -> int:
    try:
        value = int(raw)
    except ValueError:
        value = -1
    if not 0 <= value <= 2**53:
        raise ServiceError(
            codes.INVALID_REQUEST,
            f"{name} must be a whole number, 0 to 2^53.",
            fields={name: ["A whole number, 0 to 2^53."]},
        )
    return value


def cursor(request: Request, user_id: int) -> int:
    """Where to start: Last-Event-ID (an EventSource reconnecting) wins over ``?after=``;
    neither: after the newest event there is (only what happens from now on)."""
    raw = request.headers.get("Last-Event-ID")
    if raw is not None and raw.strip():
        return _whole(raw.strip(), "Last-Event-ID")
    raw = request.query_params.get("after")
    if raw is not None:
        return _whole(raw, "after")
    newest = Notification.objects.filter(user_id=user_id).order_by("-pk").values("pk").first()
    return newest["pk"] if newest else 0


@dataclass
class AccountStream:
    """What the view found, for the wrapper to stream: whose, how, and from where."""

    user_id: int
    token_id: int | None  # None: an app's OAuth token (``oauth_token_id``) or a session
    session_key: str | None
    format: str
    after: int
    mark: int  # the player's announcement counter, read before ``first``
    first: list[dict[str, Any]] = field(default_factory=list)
    oauth_token_id: int | None = None  # an app's OAuth token (players.oauth), checked instead

    @property
    def credentials(self) -> driver.Credentials:
        return driver.Credentials(
            self.user_id, self.token_id, self.session_key, self.oauth_token_id
        )


STREAM_DESCRIPTION = f"""\
One stream per account: everything an app must react to, across all of your games (your turn,
a game started or over, a seat taken over, an invitation, a notice). Lichess's `/api/stream/event`
is the model.

Choose the form with `Accept` or `?format=` (which wins):

- `text/event-stream` / `format=sse` (EventSource): `id: <event id>`, `event: <kind>`,
  `data: <AccountEvent JSON>`; a comment line (`: keep-alive`) every {int(HEARTBEAT_SECONDS)} s.
- `application/x-ndjson` / `format=ndjson`: one `AccountEvent` JSON object per line; an empty
  line every {int(HEARTBEAT_SECONDS)} s.
- otherwise (`format=json`): one page of events as JSON (`AccountEventPage`), answered at once.

Resume after a disconnect with the last event id you received (`Last-Event-ID`, which
EventSource sends by itself, or `?after=`): every event after it comes, once. Without either, the
stream starts with what happens from now on; `after=0` replays every event kept. A stream ends
after an hour (reconnect and resume), or with an `end` event (SSE: `event: end`; NDJSON:
`{{"kind": "end", "reason": ...}}`) when your credentials are revoked. A `read` token may read it.
The event kinds and their `data` are listed in docs/api.md, "Account event stream"."""


class AccountEventsView(APIView):
    renderer_classes = [JSONRenderer]
    content_negotiation_class = JSONOnly

    @classmethod
    def as_view(cls, **initkwargs: Any) -> Any:
        return account_stream(super().as_view(**initkwargs))

    @extend_schema(
        operation_id="account_events_stream",
        summary="Everything my apps must react to (one event stream per account)",
        description=STREAM_DESCRIPTION,
        parameters=[
            OpenApiParameter(
                "after",
                int,
                description="Send the events after this id (default: from now on; 0: all kept).",
            ),
            OpenApiParameter(
                "format",
                str,
                enum=list(FORMATS),
                description="`sse`, `ndjson` or `json` (one page); wins over `Accept`.",
            ),
            OpenApiParameter(
                "Last-Event-ID",
                str,
                OpenApiParameter.HEADER,
                description="The last event id received; wins over `after`.",
            ),
        ],
        responses={
            (200, "application/json"): OpenApiResponse(
                AccountEventPageSerializer, description="`format=json`: one page of events."
            ),
            (200, EVENT_STREAM): OpenApiResponse(
                OpenApiTypes.STR, description="The stream, as Server-Sent Events."
            ),
            (200, NDJSON): OpenApiResponse(
                OpenApiTypes.STR, description="The stream, one `AccountEvent` per line."
            ),
            400: error_response(
                "`invalid_request`: `after`, `Last-Event-ID` or `format` is malformed."
            ),
            401: NOT_AUTHENTICATED,
        },
        tags=["notifications"],
    )
    def get(self, request: Request) -> Response:
        user = request.user
        assert isinstance(user, User)  # the permission classes let only signed-in users through
        how = stream_format(request)
        after = cursor(request, user.pk)
        # Taken before the read: an announcement after it may not be in the read.
        mark = announce.user_mark(user.pk)
        events = read_events(user.pk, after)
        page = {
            "events": events,
            "next_after": events[-1]["id"] if events else after,
            "has_more": len(events) == PAGE,
        }
        response = Response(AccountEventPageSerializer(page).data)
        if how != "json":
            auth = request.auth
            token = auth if isinstance(auth, ApiToken) else None
            response.account_stream = AccountStream(
                user_id=user.pk,
                token_id=token.pk if token is not None else None,
                # Logging out deletes the session: the keep-alives end its streams then.
                session_key=None if auth is not None else request.session.session_key,
                oauth_token_id=auth.pk if is_app_token(auth) else None,
                format=how,
                after=after,
                mark=mark,
                first=page["events"],
            )
        return response


# ---------------------------------------------------------------------------------------------
# The stream


def account_stream(view: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap the DRF view: its answer is the JSON form and every error; a stream it accepted is
    driven by ``live.driver``."""

    async def stream_view(request: HttpRequest, *args: Any, **kwargs: Any) -> Any:
        response = await driver.run_view_async(view, request, args, kwargs, "account_stream")
        plan: AccountStream | None = getattr(response, "account_stream", None)
        if plan is None:
            return response
        return driver.response(request, stream_of(plan), FORMATS[plan.format])

    return driver.as_async_view(view, stream_view)


def encode(plan: AccountStream, event: dict[str, Any]) -> bytes:
    body = json.dumps(event, cls=JSONEncoder)
    if plan.format == "ndjson":
        return body.encode() + b"\n"
    if event["kind"] == "end":
        return f"event: end\ndata: {body}\n\n".encode()
    return f"id: {event['id']}\nevent: {event['kind']}\ndata: {body}\n\n".encode()


def _keep_alive_line(plan: AccountStream) -> bytes:
    return b"\n" if plan.format == "ndjson" else b": keep-alive\n\n"


class _Sent:
    """The ids sent in the last ``SETTLE_SECONDS``, and the read's low mark below them."""

    def __init__(self, after: int) -> None:
        self.low = after
        self.recent: dict[int, float] = {}

    def add(self, event: dict[str, Any]) -> None:
        if event["created_at"] <= timezone.now() - timedelta(seconds=SETTLE_SECONDS):
            # Written long enough ago that no lower id can still be uncommitted: settled at
            # once, so a backlog being caught up keeps no ids to skip.
            self.low = max(self.low, event["id"])
            self.recent = {i: at for i, at in self.recent.items() if i > self.low}
        else:
            self.recent[event["id"]] = time.monotonic()

    def read(self) -> tuple[int, frozenset[int]]:
        """Read after this id, skipping these (sent since)."""
        settled = time.monotonic() - SETTLE_SECONDS
        for event_id, sent_at in list(self.recent.items()):
            if sent_at <= settled:
                self.low = max(self.low, event_id)
                del self.recent[event_id]
        return self.low, frozenset(i for i in self.recent if i > self.low)


def stream_steps(plan: AccountStream) -> Steps:
    """The stream as steps for ``live.driver``: the events, a read after each announcement or
    keep-alive, and ``end`` when the credentials went."""
    ends = time.monotonic() + driver.lifetime()
    if plan.format == "sse":
        yield f"retry: {RETRY_MILLISECONDS}\n\n".encode()
    sent = _Sent(plan.after)
    mark, events = plan.mark, plan.first
    key = announce.user_key(plan.user_id)
    while True:
        for event in events:
            sent.add(event)
            yield encode(plan, event)
        if len(events) < PAGE:
            left = ends - time.monotonic()
            if left <= 0:
                return  # the client reconnects, resuming after its last id
            woken = yield Wait(key, mark, left)
            if isinstance(woken, Beat):
                if woken.reason:
                    yield encode(plan, {"kind": "end", "reason": woken.reason})
                    return
                yield _keep_alive_line(plan)
            # Woken by an announcement, a keep-alive (a lost announcement is read then), or the
            # end of the lifetime (the read sends what came meanwhile, then the stream ends).
        mark, events = yield Call(read_after, plan, *sent.read())


def read_after(
    plan: AccountStream, after: int, skip: frozenset[int]
) -> tuple[int, list[dict[str, Any]]]:
    """The player's announcement mark, then their events after ``after`` but ``skip``: the mark
    first, so that an announcement during the read is not missed."""
    mark = announce.user_mark(plan.user_id)
    try:
        return mark, read_events(plan.user_id, after, skip)
    finally:
        driver.release_connections()


def stream_of(plan: AccountStream) -> driver.Stream:
    """The stream ``live.driver`` drives for ``plan`` (it watches no game)."""
    return driver.Stream(stream_steps(plan), plan.credentials)
