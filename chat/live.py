"""The chat on the live streams: its key per game, the announcement after a message commits,
and the game stream's chat feed (``games.api.feeds``), registered in ``ChatConfig.ready``."""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from typing import Any

from django.db import transaction

from chat import access, selectors
from chat.models import ChatMessage
from chat.rows import message_row
from games.api import feeds
from live import announce
from players.models import User

# A game's chat key: ``chat:<game id>``, its mark the id of the game's last chat row.
PREFIX = "chat:"
# Messages per `chat` event of a stream.
PAGE = 100


def key(game_id: Any) -> str:
    return f"{PREFIX}{game_id}"


def announce_after_commit(game_id: Any, message_id: int) -> None:
    transaction.on_commit(lambda: announce.publish(key(game_id), message_id))


# How long a live reader's access, chat switch and hidden authors hold before the next message
# reads them again: the rows of a message are read once for all the readers of its channel
# (``_shared_page``), and each reader's own queries stay off the path of every message. A
# spectator who may no longer watch, a new mute or block, takes effect within this time.
RECHECK_SECONDS = 10.0
# Shared pages kept (per live process): a page is asked for by every reader of the channel
# within a moment of its announcement.
SHARED_PAGES = 256


class Reader:
    """One stream's reader of a game's chat: who reads, which channel, and what they may see,
    read when the stream opens and again at most every ``RECHECK_SECONDS``."""

    def __init__(self, user: User, game_id: str, channel: str) -> None:
        self.user, self.game_id, self.channel = user, game_id, channel
        self._refresh()

    def _refresh(self) -> None:
        self.checked = time.monotonic()
        self.enabled = selectors.chat_enabled(self.user)
        self.hidden = selectors.hidden_authors(self.user)

    def may_read(self) -> str | None:
        """The channel to deliver now (re-checked when due), or None: the reader may no longer
        read the game's chat."""
        if time.monotonic() - self.checked >= RECHECK_SECONDS:
            channel = access.reader_channel(self.user, self.game_id)
            self.channel = channel or ""
            self._refresh()
        return self.channel if self.channel and self.enabled else None

    def sees(self, message: ChatMessage) -> bool:
        if message.author_id in self.hidden:
            return False
        return not message.filtered or message.author_id == self.user.pk


def open_reader(user: User, game_id: str) -> Reader | None:
    channel = access.reader_channel(user, game_id)
    return None if channel is None else Reader(user, game_id, channel)


_shared: OrderedDict[tuple[str, str, int, int], tuple[list[ChatMessage], int, bool]] = OrderedDict()
_shared_lock = threading.Lock()


def _shared_page(
    game_id: str, channel: str, after: int, upto: int
) -> tuple[list[ChatMessage], int, bool]:
    """``selectors.channel_page``, read once per (game, channel, cursor, mark) in this process:
    200 spectators woken by one message make one query, not 200."""
    key = (str(game_id), channel, after, upto)
    with _shared_lock:
        found = _shared.get(key)
        if found is None:
            found = _shared[key] = selectors.channel_page(
                game_id, channel, after=after, upto=upto, limit=PAGE
            )
            while len(_shared) > SHARED_PAGES:
                _shared.popitem(last=False)
    return found


def read(
    reader: Reader, after: int, upto: int | None = None
) -> tuple[list[dict[str, Any]], int, bool]:
    """The rows ``reader`` sees after ``after`` up to the mark ``upto`` (None: the game's mark,
    read first, so that no message written meanwhile falls between the page and the cursor),
    and the cursor: the mark when all were read (a message in the other channel, or one hidden
    from the reader, moves it on too)."""
    if upto is None:
        upto = selectors.mark(reader.game_id)
    channel = reader.may_read()
    if channel is None:
        return [], max(upto, after), False
    rows, cursor, more = _shared_page(reader.game_id, channel, after, upto)
    return [message_row(m, reader.user) for m in rows if reader.sees(m)], cursor, more


FEED = feeds.Feed(key=key, open=open_reader, read=read)


def register() -> None:
    feeds.register("chat", FEED)
    announce.read_marks_with(PREFIX, selectors.marks)
