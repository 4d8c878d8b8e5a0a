"""Who is watching which game live: a fact of the games layer, read by notifications so that
push channels can stay quiet about a game its player has open.

The live-updates endpoint (long poll) calls ``mark_watching`` on every poll with a time-to-live a
little longer than its poll interval; the relay asks ``is_watching`` before sending on a channel
with ``skip_while_watching`` (push). E-mail ignores it.

Kept in Django's cache, so it works with the local-memory cache of the embedded mode and with
Redis. It fails open: with the cache down nobody counts as watching, so push is sent.
"""

from __future__ import annotations

import contextlib
import logging
import uuid
from typing import Any

from django.core.cache import cache

logger = logging.getLogger(__name__)

DEFAULT_TTL_SECONDS = 60


def _key(user_id: Any, game_id: Any) -> str:
    # One spelling per game whether the caller has a UUID, its string, or an upper-case one.
    with contextlib.suppress(ValueError):
        game_id = uuid.UUID(str(game_id))
    return f"games:watching:{game_id}:{user_id}"


def mark_watching(user_id: Any, game_id: Any, ttl: int = DEFAULT_TTL_SECONDS) -> None:
    """``user_id`` has ``game_id`` open live for the next ``ttl`` seconds."""
    try:
        cache.set(_key(user_id, game_id), 1, ttl)
    except Exception:
        logger.warning("Could not record that a player watches a game", exc_info=True)


def stop_watching(user_id: Any, game_id: Any) -> None:
    try:
        cache.delete(_key(user_id, game_id))
    except Exception:
        logger.warning("Could not record that a player stopped watching", exc_info=True)


def is_watching(user_id: Any, game_id: Any) -> bool:
    try:
        return cache.get(_key(user_id, game_id)) is not None
    except Exception:
        logger.warning("Could not read who watches a game; assuming nobody", exc_info=True)
        return False
