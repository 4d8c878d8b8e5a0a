"""The games app's answers to the players app's signals (connected in ``GamesConfig.ready``)."""

from __future__ import annotations

import logging
from typing import Any

from config.errors import ServiceError
from games import selectors, services
from games.models import Game, Seat
from players import selectors as player_selectors
from players import signals as player_signals
from players.models import User

logger = logging.getLogger(__name__)


def leave_every_game(*, user: User, **kwargs: Any) -> None:
    """Before an account is deleted: leave every lobby and game in progress, so that nobody
    waits out turn timers for a seat that will never move again. Finished games stay intact:
    their seats keep the scores and lose the user (``SET_NULL``)."""
    game_ids = Seat.objects.filter(
        user=user, left_at__isnull=True, game__status__in=[Game.LOBBY, Game.ACTIVE]
    ).values_list("game_id", flat=True)
    for game_id in list(game_ids):
        try:
            services.leave_game(user=user, game_id=game_id)
        except ServiceError as exc:
            # The game ended in the meantime, or the engine refused: the seat is freed anyway.
            logger.info("account %s could not leave game %s: %s", user.pk, game_id, exc)


def connect() -> None:
    player_signals.account_deleting.connect(leave_every_game, dispatch_uid="games.leave_every_game")
    player_selectors.add_to_export("games", selectors.export_games)
