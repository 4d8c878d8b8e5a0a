"""Who is watching which game live: a fact of the live layer, read by notifications so that
push channels can stay quiet about a game its player has open.

The long-poll calls ``mark_watching`` on every poll with a time-to-live a little longer than its
poll interval, and the streams at every keep-alive (``live.driver``); the relay asks
``is_watching`` before sending on a channel with ``skip_while_watching`` (push). E-mail ignores
it.

Kept in Django's cache, so it works with the local-memory cache of the embedded mode and with
Redis. It fails open: with the cache down nobody counts as watching, so push is sent.

Several tabs (or phones) may have the same game open: each live connection marks itself with a
``tab`` of its own, and the game counts as watched while any of them is live. When a connection
ends (the tab closed, or hidden: the client drops its stream then) it removes only its own mark,
so another tab still open keeps the player watching. The marks of one player and game share one
cache entry (tab → expiry); two tabs writing it at the same instant may lose one mark, which the
next keep-alive of that connection (every ~15 s) writes again.

Each game also keeps the set of players watching it (user → expiry, in the same writes), so that a
table can show how many spectators it has (``watchers``, read by games/spectators.py): a count,
approximate in the same way.
"""

from __future__ import annotations

import contextlib
import logging
import time
import uuid
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from django.core.cache import cache

logger = logging.getLogger(__name__)

DEFAULT_TTL_SECONDS = 60


def _key(user_id: Any, game_id: Any) -> str:
    # One spelling per game whether the caller has a UUID, its string, or an upper-case one.
    with contextlib.suppress(ValueError):
        game_id = uuid.UUID(str(game_id))
    return f"games:watching:{game_id}:{user_id}"


def _game_key(game_id: Any) -> str:
    with contextlib.suppress(ValueError):
        game_id = uuid.UUID(str(game_id))
    return f"games:watchers:{game_id}"


def _live_tabs(key: str, now: float) -> dict[str, float]:
    return _still_live(cache.get(key), now)


def _still_live(tabs: Any, now: float) -> dict[str, float]:
    if not isinstance(tabs, dict):  # nothing, or a mark written before tabs existed
        return {}
    return {tab: until for tab, until in tabs.items() if until > now}


def mark_watching(
    user_id: Any, game_id: Any, ttl: int = DEFAULT_TTL_SECONDS, tab: str = ""
) -> None:
    """``user_id`` has ``game_id`` open live (in ``tab``) for the next ``ttl`` seconds."""
    key, now = _key(user_id, game_id), time.time()
    try:
        tabs = _live_tabs(key, now)
        tabs[tab] = now + ttl
        game_key = _game_key(game_id)
        users = _still_live(cache.get(game_key), now)
        users[str(user_id)] = now + ttl
        cache.set_many(
            {key: tabs, game_key: users}, int(max(*tabs.values(), *users.values()) - now) + 1
        )
    except Exception:
        logger.warning("Could not record that a player watches a game", exc_info=True)


def mark_watching_many(marks: Iterable[tuple[Any, Any, str]], ttl: int) -> None:
    """``mark_watching`` for many (user, game, tab) at once, in one cache read and one write:
    the live streams' keep-alives (``live.keepalive``)."""
    now = time.time()
    wanted: dict[str, list[str]] = defaultdict(list)
    for user_id, game_id, tab in marks:
        wanted[_key(user_id, game_id)].append(tab)
        wanted[_game_key(game_id)].append(str(user_id))  # the game's watchers: user ids
    if not wanted:
        return
    try:
        found = cache.get_many(list(wanted))
        out: dict[str, dict[str, float]] = {}
        for key, tabs in wanted.items():
            live = _still_live(found.get(key), now)
            live.update(dict.fromkeys(tabs, now + ttl))
            out[key] = live
        # One timeout for all: the latest mark's (each tab's own expiry is in its entry).
        last = max(until for live in out.values() for until in live.values())
        cache.set_many(out, int(last - now) + 1)
    except Exception:
        logger.warning("Could not record that players watch their games", exc_info=True)


def stop_watching(user_id: Any, game_id: Any, tab: str | None = None) -> None:
    """``tab`` closed (or was hidden); without ``tab``, every tab of the player stops."""
    key, now = _key(user_id, game_id), time.time()
    try:
        tabs = {} if tab is None else _live_tabs(key, now)
        tabs.pop(tab or "", None)
        if tabs:
            cache.set(key, tabs, int(max(tabs.values()) - now) + 1)
            return
        cache.delete(key)
        game_key = _game_key(game_id)
        users = _still_live(cache.get(game_key), now)
        if users.pop(str(user_id), None) is not None:
            cache.set(game_key, users, int(max(users.values(), default=now) - now) + 1)
    except Exception:
        logger.warning("Could not record that a player stopped watching", exc_info=True)


def is_watching(user_id: Any, game_id: Any) -> bool:
    try:
        return bool(_live_tabs(_key(user_id, game_id), time.time()))
    except Exception:
        logger.warning("Could not read who watches a game; assuming nobody", exc_info=True)
        return False


def watchers(game_id: Any) -> set[str]:
    """The ids (as strings) of the players watching ``game_id`` live now; none with the cache
    down."""
    try:
        return set(_still_live(cache.get(_game_key(game_id)), time.time()))
    except Exception:
        logger.warning("Could not read who watches a game; assuming nobody", exc_info=True)
        return set()


def watchers_many(game_ids: Iterable[Any]) -> dict[str, set[str]]:
    """``watchers`` of many games (by their ids as strings), in one cache read."""
    keys = {_game_key(game_id): str(game_id) for game_id in game_ids}
    if not keys:
        return {}
    now = time.time()
    try:
        found = cache.get_many(list(keys))
    except Exception:
        logger.warning("Could not read who watches games; assuming nobody", exc_info=True)
        found = {}
    return {game: set(_still_live(found.get(key), now)) for key, game in keys.items()}
