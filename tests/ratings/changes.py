"""Rating history rows made directly, for tests that need a past without playing it."""

from __future__ import annotations

from typing import Any

from games.models import Game
from players.models import User
from ratings.models import RatingChange


def rating_change(
    game: Game, user: User, *, place: int, shown_before: int, shown_after: int, **fields: Any
) -> RatingChange:
    """``user``'s unsaved change of rating in ``game`` (of the game's kind): only the shown
    rating moves, mu and sigma stay a new player's."""
    return RatingChange(
        game=game,
        user=user,
        kind=game.kind,
        place=place,
        mu_before=25.0,
        sigma_before=8.0,
        mu_after=25.0,
        sigma_after=8.0,
        shown_before=shown_before,
        shown_after=shown_after,
        **fields,
    )
