"""A chat message as the API and the streams show it (one shape, ``ChatMessageSerializer``)."""

from __future__ import annotations

from typing import Any

from chat.models import ChatMessage
from players.models import User


def message_row(message: ChatMessage, reader: User) -> dict[str, Any]:
    """``filtered`` is only ever true for its author (nobody else receives such a message);
    a tombstone (``deletes`` set) has no author and no text."""
    return {
        "id": message.pk,
        "channel": message.channel,
        "author": message.author_name if message.deletes_id is None else "",
        "author_username": message.author_username if message.deletes_id is None else "",
        "text": message.text,
        "created_at": message.created_at,
        "mine": message.author_id == reader.pk and message.deletes_id is None,
        "filtered": message.filtered and message.author_id == reader.pk,
        "deletes": message.deletes_id,
    }
