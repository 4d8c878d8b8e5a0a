"""The game view's fast path: a seated player's view from Redis, before Django is even entered.

``GET games/{id}/`` is what every player reads after each move, so it is the most frequent
request there is. When both the bearer token (players/token_cache.py) and the game's snapshot
(games/view_cache.py) are in Redis, one pipelined Redis round trip answers it, on the event loop
of the ASGI server (``asgi`` wraps config/asgi.py's application): no Django handler, no thread
(Django runs each middleware hook in a thread under ASGI), no DRF, no database connection.
Anything else goes to Django and the ordinary DRF view, which is the reference and fills both
caches for next time:

- no Redis configured, Redis down, either entry missing, or the game's snapshot void (a newer
  version was announced and its snapshot is not stored yet);
- not a bearer token; a caller without a seat at that table (a public lobby, a stranger: the
  DRF view decides between its own answers and 404);
- a request with an ``Origin`` (CORS) or a ``Cookie`` (sessions), a query string or an
  ``Accept`` header that DRF's content negotiation might answer otherwise than with plain JSON,
  a host not in ALLOWED_HOSTS, one the middleware would redirect or refuse, any method but GET;
- a middleware in settings.MIDDLEWARE that this module does not know (the fast path is off).

The answer is Django's to the byte: the same body (the snapshot is the DRF view's answer with the
personal parts taken out; they are put back here), the same ETag (game, version, caller) and the
same headers (the security, common and clickjacking middleware's own response hooks add theirs);
tests/games/test_fast_view.py compares the two through the ASGI application. Under WSGI there is
no fast path: every view is the DRF view's.
"""

from __future__ import annotations

import io
import json
import logging
import re
import uuid
from typing import Any

from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpRequest, HttpResponse
from django.utils.module_loading import import_string
from rest_framework.renderers import JSONRenderer

from config import redis_clients
from games import engine, view_cache
from games.engine import State
from players import token_cache
from players.models import hash_token

logger = logging.getLogger(__name__)

_RENDERER = JSONRenderer()
_DRF_HEADERS = {"Vary": "Accept", "Allow": "GET, HEAD, OPTIONS"}


def seat_of(snapshot: dict[str, Any], user_id: int) -> dict[str, Any] | None:
    """``user_id``'s entry in the snapshot's players, or None when they have no seat there."""
    return next((p for p in snapshot["base"]["players"] if p["user_id"] == user_id), None)


def personal(
    snapshot: dict[str, Any], user_id: int, mine: dict[str, Any], table_field: Any
) -> dict[str, Any]:
    """The view of ``user_id``, whose seat is ``mine`` (``seat_of``), from a snapshot."""
    base = snapshot["base"]
    data = {
        **base,
        "your_turn": base["status"] == "active" and snapshot["current"] == user_id,
        "your_seat": mine["seat"],
        "players": [{**p, "you": p["user_id"] == user_id} for p in base["players"]],
    }
    state = snapshot["state"]
    if state is not None and mine["seat"] is not None:
        table = engine.view(State.from_dict(state), mine["seat"])
        data["table"] = table_field.to_representation(table)
    return data


async def answer(authorization: str, if_none_match: str, game_id: Any) -> HttpResponse | None:
    """The fast answer to ``GET games/{id}/`` (before any middleware), or None for the DRF view
    to answer."""
    from games.api.views import GAME_SERIALIZER, etag_for, etag_matches

    client = redis_clients.async_client()
    scheme, _, raw = authorization.partition(" ")
    if client is None or scheme.lower() not in ("bearer", "token") or not raw or " " in raw:
        return None
    try:
        async with client.pipeline(transaction=False) as pipe:
            pipe.get(token_cache.key(hash_token(raw)))
            pipe.hmget(view_cache.key(game_id), "v", "void", "d")
            token_entry, (version, void, data) = await pipe.execute()
    except redis_clients.UNAVAILABLE as exc:
        redis_clients.failed(exc)
        return None
    user_id = token_cache.parse(token_entry)
    if user_id is None or version is None or void != b"0":
        return None
    snapshot = json.loads(data)
    mine = seat_of(snapshot, user_id)
    if mine is None:
        return None
    etag = etag_for(game_id, int(version), user_id)
    if etag_matches(if_none_match, etag):
        response = HttpResponse(status=304, headers={"ETag": etag, **_DRF_HEADERS})
        del response["Content-Type"]  # as DRF's empty 304
        return response
    body = personal(snapshot, user_id, mine, GAME_SERIALIZER.fields["table"])
    return HttpResponse(
        _RENDERER.render(body),
        content_type="application/json",
        headers={"ETag": etag, **_DRF_HEADERS},
    )


# The project's middleware, in settings order, and what the fast path does about each: run its
# hooks (pure header work, no I/O), or nothing because it does nothing to such a request (no
# Cookie, not a static file, no exception). A middleware not listed here turns the fast path off:
# it might matter.
_WITH_HOOKS = {
    "config.middleware.SecurityMiddleware",
    "corsheaders.middleware.CorsMiddleware",  # Vary: origin (requests with an Origin go to Django)
    "config.middleware.CommonMiddleware",
    "config.middleware.XFrameOptionsMiddleware",
}
_NOTHING_TO_DO = {
    "config.static.StaticFilesMiddleware",
    "config.errors.DatabaseUnavailableMiddleware",
    "config.middleware.SessionMiddleware",
    "config.middleware.CsrfViewMiddleware",
    "config.middleware.AuthenticationMiddleware",
    "config.middleware.MessageMiddleware",
    "config.middleware.RenderJsonInline",  # the fast path's answer is rendered already
}
# Django's <uuid:> converter: lowercase and dashed only (anything else is Django's 404).
GAME_PATH = re.compile(
    r"/api/v1/games/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/"
)


def _middleware() -> list[Any] | None:
    """Instances of the middleware with hooks, in settings order; None when one is unknown."""
    found = []
    for path in settings.MIDDLEWARE:
        if path in _WITH_HOOKS:
            found.append(import_string(path)(lambda request: None))
        elif path not in _NOTHING_TO_DO:
            return None
    return found


def _request_hook(middleware: Any, request: HttpRequest) -> bool:
    """True when ``middleware`` lets the request through untouched, as Django would run it."""
    hook = getattr(middleware, "process_request", None)
    if hook is None:
        return True
    try:
        return hook(request) is None  # else a redirect (SECURE_SSL_REDIRECT, PREPEND_WWW)
    except Exception:
        return False  # refused (DISALLOWED_USER_AGENTS): Django answers, the same way


def _response_hook(middleware: Any, request: HttpRequest, response: HttpResponse) -> Any:
    if hasattr(middleware, "add_response_headers"):  # corsheaders
        return middleware.add_response_headers(request, response)
    return middleware.process_response(request, response)


def asgi(app: Any) -> Any:
    """Wrap the Django ASGI application: answer ``GET games/{id}/`` from Redis when possible.

    Runs before Django's handler, so a fast answer costs no thread, no middleware hop (each of
    Django's middleware runs its hooks in a thread under ASGI) and no database connection. The
    middleware's headers are added by the same middleware code (``_middleware``)."""
    middleware = _middleware()
    if middleware is None:
        logger.warning("game view fast path off: a middleware it does not know is installed")
        return app

    async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["method"] == "GET":
            match = GAME_PATH.fullmatch(scope["path"])
            if match is not None and not scope.get("root_path"):
                try:
                    response = await _fast(scope, match[1], middleware)
                except Exception:
                    # A shortcut must never be why a request fails: Django answers instead.
                    logger.exception("game view fast path failed; answering from the database")
                    response = None
                if response is not None:
                    await _send(response, send)
                    return
        await app(scope, receive, send)

    return application


async def _fast(scope: dict[str, Any], game_id: str, middleware: list[Any]) -> Any:
    headers = {name: value for name, value in scope["headers"]}
    if len(headers) != len(scope["headers"]):
        return None  # a repeated header: Django joins them, and answers accordingly
    if b"origin" in headers or b"cookie" in headers or b"authorization" not in headers:
        return None  # CORS and sessions are Django's
    if scope.get("query_string") or not _takes_json(headers.get(b"accept")):
        return None  # DRF's content negotiation (?format=, Accept) decides those
    try:
        game = uuid.UUID(game_id)
    except ValueError:
        return None
    response = await answer(
        headers[b"authorization"].decode("latin-1"),
        headers.get(b"if-none-match", b"").decode("latin-1"),
        game,
    )
    if response is None:
        return None
    request = ASGIRequest(scope, io.BytesIO())
    if not all(_request_hook(m, request) for m in middleware):
        return None
    for m in reversed(middleware):
        response = _response_hook(m, request, response)
    return response


def _takes_json(accept: bytes | None) -> bool:
    """Whether DRF's negotiation surely picks plain JSON for this Accept header: none; or no
    parameters (``indent=`` would change the body) and either ``application/json`` (the most
    specific kind there is, and JSONRenderer comes first) or nothing but wildcards (a specific
    ``text/html`` would pick the browsable API under DEBUG, or 406)."""
    if accept is None:
        return True
    if b";" in accept:
        return False
    parts = {part.strip() for part in accept.split(b",")} - {b""}
    return b"application/json" in parts or bool(parts) and parts <= {b"*/*", b"application/*"}


async def _send(response: HttpResponse, send: Any) -> None:
    headers = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in response.items()]
    await send({"type": "http.response.start", "status": response.status_code, "headers": headers})
    await send({"type": "http.response.body", "body": response.content})


__all__ = ["answer", "asgi", "personal", "seat_of"]
