"""The game view's fast path: a seated player's view from Redis, without a thread or a query.

``GET games/{id}/`` is what every player reads after each move, so it is the most frequent
request there is. When both the bearer token (players/token_cache.py) and the game's snapshot
(games/view_cache.py) are in Redis, one pipelined Redis round trip answers it, on the event loop:
no DRF, no thread, no database connection. Anything else takes the ordinary DRF view, which is
the reference (and fills both caches for next time):

- no Redis configured, Redis down, either entry missing, or the game's snapshot void (a newer
  version was announced and its snapshot is not stored yet);
- not a bearer token, or a caller without a seat at that table (a public lobby, a stranger: the
  DRF view decides between its own answers and 404);
- any request method but GET.

The answer is the DRF view's to the byte: the same body (the snapshot is that view with the
personal parts taken out; they are put back here from the same functions), the same ETag (game,
version, caller) and the same headers; tests/games/test_fast_view.py compares the two.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any

from asgiref.sync import sync_to_async
from django.http import HttpRequest, HttpResponse
from rest_framework.renderers import JSONRenderer

from config import redis_clients
from games import engine, view_cache
from games.engine import State
from players import token_cache
from players.models import hash_token

logger = logging.getLogger(__name__)

_RENDERER = JSONRenderer()
_DRF_HEADERS = {"Vary": "Accept", "Allow": "GET, HEAD, OPTIONS"}


def personal(snapshot: dict[str, Any], user_id: int, table_field: Any) -> dict[str, Any] | None:
    """The view of ``user_id`` from a snapshot, or None when they have no seat in it."""
    base = snapshot["base"]
    mine = next((p for p in base["players"] if p["user_id"] == user_id), None)
    if mine is None:
        return None
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


async def answer(request: HttpRequest, game_id: Any) -> HttpResponse | None:
    """The fast answer to ``GET games/{id}/``, or None for the DRF view to answer."""
    from games.api.views import GAME_SERIALIZER, etag_for, etag_matches

    client = redis_clients.async_client()
    header = request.headers.get("Authorization", "")
    scheme, _, raw = header.partition(" ")
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
    mine = any(p["user_id"] == user_id for p in snapshot["base"]["players"])
    if not mine:
        return None
    etag = etag_for(game_id, int(version), user_id)
    if etag_matches(request.headers.get("If-None-Match", ""), etag):
        response = HttpResponse(status=304, headers={"ETag": etag, **_DRF_HEADERS})
        del response["Content-Type"]  # as DRF's empty 304
        return response
    body = personal(snapshot, user_id, GAME_SERIALIZER.fields["table"])
    if body is None:
        return None
    content = _RENDERER.render(body)
    return HttpResponse(
        content,
        content_type="application/json",
        headers={"ETag": etag, **_DRF_HEADERS},
    )


def with_fast_path(view: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap the DRF view of ``games/{id}/``: the fast answer first, the view when there is none."""
    from games.api.live import _as_async_view

    run_view = sync_to_async(view)

    async def game_view(request: HttpRequest, *args: Any, **kwargs: Any) -> Any:
        if request.method == "GET":
            try:
                response = await answer(request, kwargs["game_id"])
            except Exception:
                # A shortcut must never be the reason a request fails: the view answers.
                logger.exception("game view fast path failed; answering from the database")
                response = None
            if response is not None:
                return response
        return await run_view(request, *args, **kwargs)

    return _as_async_view(view, game_view)


__all__ = ["answer", "personal", "with_fast_path"]
