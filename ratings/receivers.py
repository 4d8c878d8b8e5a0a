"""The ratings app's answers to games.signals (connected in ``RatingsConfig.ready``). Both run
inside the game's transaction, under its row lock: what they write commits with the move."""

from __future__ import annotations

from typing import Any

from games import signals as game_signals
from ratings import services


def make_rating_rows(*, game: Any, seats: list[Any], **kwargs: Any) -> None:
    """A rated game starts: each player has a rating row to lock when it ends."""
    if game.rated:
        user_ids = [seat.user_id for seat in seats if seat.user_id is not None]
        services.ensure_ratings(kind=game.kind, user_ids=user_ids)


def rate_finished_match(*, game: Any, seats: list[Any], **kwargs: Any) -> None:
    """A match ended: a rated one changes its players' ratings (and their seats' change)."""
    services.rate_seats(game=game, seats=seats)


def connect() -> None:
    game_signals.game_started.connect(make_rating_rows, dispatch_uid="ratings.make_rating_rows")
    game_signals.match_finished.connect(
        rate_finished_match, dispatch_uid="ratings.rate_finished_match"
    )
