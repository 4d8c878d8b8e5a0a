"""The ratings app's answers to games.signals (connected in ``RatingsConfig.ready``). Both run
inside the game's transaction, under its row lock: what they write commits with the move."""

from __future__ import annotations

from typing import Any

from django.db.models.signals import post_save

from games import records
from games import signals as game_signals
from players.models import User
from ratings import services
from ratings.models import Rating, RatingChange


def make_rating_rows(*, game: Any, seats: list[Any], **kwargs: Any) -> None:
    """A rated game starts: each player has a rating row to lock when it ends. A bot account
    seated makes it unrated, for good, as a house bot does (ratings compare people)."""
    if game.rated and any(seat.user is not None and seat.user.is_bot for seat in seats):
        game.rated = False
        game.save(update_fields=["rated"])
    if game.rated:
        users = [seat.user for seat in seats if seat.user is not None]
        services.ensure_ratings(
            kind=game.kind,
            user_ids=[user.pk for user in users],
            inactive=[user.pk for user in users if not user.is_active],
        )


def copy_account_standing(
    *, instance: User, created: bool, update_fields: Any = None, **kwargs: Any
) -> None:
    """An account banned, suspended or reopened: its rating rows' copy of ``is_active`` follows
    in the same transaction (what keeps a leaderboard's count free of a join). One query, and
    none for a save that leaves ``is_active`` out (a log-in, a profile edit)."""
    if created or (update_fields is not None and "is_active" not in update_fields):
        return
    Rating.objects.filter(user=instance).exclude(active=instance.is_active).update(
        active=instance.is_active
    )


def rate_finished_match(*, game: Any, seats: list[Any], **kwargs: Any) -> None:
    """A match ended: a rated one changes its players' ratings (and their seats' change)."""
    services.rate_seats(game=game, seats=seats)


def record_rating_changes(*, game: Any, seats: list[Any], **kwargs: Any) -> dict[str, Any]:
    """A finished game's record (games/records.py) lists what its match did to the ratings: one
    query, and none for an unrated game."""
    if not game.rated:
        return {}
    position = {seat.user_id: seat.position for seat in seats if seat.user_id is not None}
    changes = RatingChange.objects.filter(game=game).order_by("user_id")
    return {
        "rating_changes": [
            {
                "seat": position.get(change.user_id),
                "user_id": change.user_id,
                "rating_before": change.shown_before,
                "rating_after": change.shown_after,
                "change": change.delta,
            }
            for change in changes
            if change.user_id in position
        ]
    }


def connect() -> None:
    post_save.connect(
        copy_account_standing, sender=User, dispatch_uid="ratings.copy_account_standing"
    )
    game_signals.game_started.connect(make_rating_rows, dispatch_uid="ratings.make_rating_rows")
    game_signals.match_finished.connect(
        rate_finished_match, dispatch_uid="ratings.rate_finished_match"
    )
    records.record_building.connect(
        record_rating_changes, dispatch_uid="ratings.record_rating_changes"
    )
