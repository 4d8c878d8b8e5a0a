"""The chat on the live streams: its key per game, the announcement after a message commits,
and the game stream's chat feed (``games.api.feeds``), registered in ``ChatConfig.ready``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction

from chat import access, selectors
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


@dataclass(frozen=True)
class Reader:
    user: User
    game_id: str
    channel: str


def open_reader(user: User, game_id: str) -> Reader | None:
    channel = access.reader_channel(user, game_id)
    return None if channel is None else Reader(user, game_id, channel)


def read(reader: Reader, after: int) -> tuple[list[dict[str, Any]], int, bool]:
    """The rows ``reader`` sees after ``after``, and the cursor: the game's mark when all were
    read (a message in the other channel, or one hidden from the reader, moves it on too)."""
    rows, cursor, more = selectors.page(
        reader.user, reader.game_id, reader.channel, after=after, limit=PAGE
    )
    return [message_row(m, reader.user) for m in rows], cursor, more


FEED = feeds.Feed(key=key, open=open_reader, read=read)


def register() -> None:
    feeds.register("chat", FEED)
    announce.read_marks_with(PREFIX, selectors.marks)
