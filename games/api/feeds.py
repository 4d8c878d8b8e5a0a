"""Side feeds of a game's stream: an app above games (the chat app) registers a feed of its own
events about a game, and the stream (``games/{id}/stream/?chat_after=``) carries them as events
of their own beside the game's versions, woken by the feed's live key. Games imports no app
above it: the app registers its feed in its ``AppConfig.ready``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rest_framework.request import Request

from config import query
from live import driver
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


@dataclass
class Side:
    """A side feed a stream carries (the chat): its reader and cursor, advanced as read."""

    feed: Feed
    reader: Any
    cursor: int
    key: str


def chat_of(request: Request, game_id: str) -> tuple[Any, int]:
    """The chat feed's reader for ``?chat_after=`` (None: not asked, or no channel the caller
    may read: the feed decides which, the players' to a seat, the spectators' to a spectator)
    and its cursor."""
    chat_after = query.integer(request, "chat_after", None, 0, query.MAX_ID)
    chat_feed = feed("chat") if chat_after is not None else None
    if chat_feed is None:
        return None, 0
    return chat_feed.open(request.user, game_id), chat_after or 0


def side_of(reader: Any, after: int, game_id: str) -> Side | None:
    """The chat side feed of a stream whose plan has ``reader`` (None: it carries none)."""
    chat_feed = feed("chat")
    if reader is None or chat_feed is None:
        return None
    return Side(chat_feed, reader, after, chat_feed.key(game_id))


def read_side(side: Side, upto: int | None) -> tuple[list[dict[str, Any]], int, bool]:
    """The side feed's next page (on a thread of the live driver's, off the event loop)."""
    try:
        return side.feed.read(side.reader, side.cursor, upto)
    finally:
        driver.release_connections()
