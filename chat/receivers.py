"""The chat's receivers: its part of a finished game's record (``games.records``) and of a
player's data export (``players.selectors.add_to_export``)."""

from __future__ import annotations

from typing import Any

from chat import live, selectors
from games.records import record_building
from players import selectors as player_selectors


def add_chat_to_record(
    *, game: Any, seats: list[Any], reader: Any = None, **kwargs: Any
) -> dict[str, Any]:
    """The players' chat, for its players (and the service itself): a public game's record is
    readable by anyone signed in, its players' chat is not."""
    if reader is not None and reader.pk not in {seat.user_id for seat in seats}:
        return {}
    return {"chat": selectors.record_part(game.pk)}


def connect() -> None:
    record_building.connect(add_chat_to_record, dispatch_uid="chat-record")
    player_selectors.add_to_export("chat", selectors.export_chat)
    live.register()
