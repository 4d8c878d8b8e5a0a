"""Who may read and write which chat of a game: the one place that decides it.

The players' chat is its seated players' (a seat they left still reads it, as the game does;
writing takes a seat still held). The spectators' chat is for those who watch the game without
a seat: whoever the spectators' rules let watch it (``games.spectators.watched_game``: the
host's choice, friends, blocks), and whoever may see a public lobby before it starts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from chat.models import ChatMessage
from config.errors import ServiceError
from games import selectors as game_selectors
from games import spectators
from games.models import Seat
from players.models import User


@dataclass(frozen=True)
class Access:
    """What ``user`` may do in one channel of a game."""

    channel: str
    read: bool
    write: bool
    seated: bool


def may_see_game(user: User, game_id: Any) -> bool:
    """Whether ``user`` may see the game at all: as a player, or as one who may watch it."""
    return _may_watch(user, game_id)


def _may_watch(user: User, game_id: Any) -> bool:
    """Whether ``user`` may see the game: one the spectators' rules let them watch
    (``check_watching``'s query and its receivers'), else one they play in or a lobby they may
    see (``progress_for``: one query more, off the path of an allowed spectator's checks)."""
    try:
        spectators.check_watching(user, game_id)
    except ServiceError:
        return game_selectors.progress_for(user, game_id) is not None
    return True


def _seat(user: User, game_id: Any) -> tuple[bool, bool]:
    """(has a seat, holds it still): one query."""
    try:
        row = Seat.objects.filter(game_id=game_id, user_id=user.pk).values_list("left_at")[:1]
        found = next(iter(row), None)
    except (ValueError, TypeError):
        return False, False
    return found is not None, found is not None and found[0] is None


def access(user: User, game_id: Any, channel: str) -> Access:
    """What ``user`` may do in ``channel`` of the game (no access at all: a game they may not
    see, or a channel not theirs)."""
    seated, holds = _seat(user, game_id)
    if channel == ChatMessage.PLAYERS:
        return Access(channel, seated, holds, seated)
    spectator = not seated and _may_watch(user, game_id)
    return Access(channel, spectator, spectator, seated)


def reader_channel(user: User, game_id: Any) -> str | None:
    """The channel a live stream of the game carries to ``user``: the players' to a seat, the
    spectators' to a spectator; None to anybody else."""
    seated, _ = _seat(user, game_id)
    if seated:
        return ChatMessage.PLAYERS
    return ChatMessage.SPECTATORS if _may_watch(user, game_id) else None
