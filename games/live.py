"""Live updates: tell waiting clients that a game has a new version.

``publish`` is queued by ``games.services`` with ``transaction.on_commit`` after every saved move,
so a waiting client is only woken for a state it can read.
"""

from __future__ import annotations

from typing import Any


def publish(game_id: Any, version: int) -> None:
    """Announce that ``game_id`` reached ``version``."""
