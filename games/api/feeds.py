"""Side feeds of a game's stream: an app above games (the chat app) registers a feed of its own
events about a game, and the stream (``games/{id}/stream/?chat_after=``) carries them as events
of their own beside the game's versions, woken by the feed's live key. Games imports no app
above it: the app registers its feed in its ``AppConfig.ready``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from players.models import User


@dataclass(frozen=True)
class Feed:
    """``key(game_id)``: the live key the feed announces on (a mark: its last row's id);
    ``open(user, game_id)``: a reader for ``user`` (what they may read; None: nothing, and the
    stream carries no such events); ``read(reader, after)``: the events after the cursor as
    JSON-ready dicts, the new cursor (the key's mark when all were read, so that the next wait
    is for a newer announcement) and whether more follow; its third argument is the mark that
    woke the stream (None: the feed reads it). ``open`` runs in the stream's request, ``read``
    after each of the key's announcements (sync, off the event loop)."""

    key: Callable[[str], str]
    open: Callable[[User, str], Any]
    read: Callable[[Any, int, int | None], tuple[list[dict[str, Any]], int, bool]]


_feeds: dict[str, Feed] = {}


def register(name: str, feed: Feed) -> None:
    _feeds[name] = feed


def feed(name: str) -> Feed | None:
    return _feeds.get(name)
