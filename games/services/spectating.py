"""The host's choice of who may watch a game and how many moves behind (games/spectators.py)."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from config import error_codes as codes
from config.errors import ServiceError
from games.models import Game
from games.services.base import bump_version, lock_game
from players.models import User

# Once a game is over there is nothing left to hide or to show later.
_CHANGEABLE = (Game.LOBBY, Game.ACTIVE)


def set_spectating(
    *, user: User, game_id: Any, spectating: str | None = None, delay: int | None = None
) -> Game:
    """Change who may watch ``game_id`` (``spectating``) and the spectators' delay in moves;
    the host only (``not_host``), before the game ends (``game_over``). In a lobby the change
    is a new version, as every lobby change is. In play the version stays (a player's move
    sent on it must still land); the next move's news carries the new settings, and each
    spectator's stream then asks again whether it may watch."""
    with transaction.atomic():
        game = lock_game(game_id)
        if game.host_id != user.pk:
            if game.seats.filter(user=user).exists():
                raise ServiceError(codes.NOT_HOST, "Only the host chooses who may watch.")
            raise ServiceError(codes.NOT_FOUND, "No such game.")
        if game.status not in _CHANGEABLE:
            raise ServiceError(codes.GAME_OVER, "The game is over.")
        if spectating is not None:
            game.spectating = spectating
        if delay is not None:
            game.spectator_delay = delay
        fields = ["spectating", "spectator_delay"]
        if game.status == Game.LOBBY:
            bump_version(game)
            fields.append("version")
        game.save(update_fields=fields)
    return game
