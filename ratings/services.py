"""Every write of ratings: a finished match's rating changes, applied exactly once.

Exactly once, by three things together: the match ends once (the games app moves the game out of
``active`` under its row lock and sends ``match_finished`` in that transaction); the players'
rating rows are locked before they are read, so two matches of one player ending at the same
moment apply one after the other, each to the other's result; and ``RatingChange``'s unique
(game, user) refuses a second change of the same match, rolling back whatever tried it.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from games.models import Game, Seat
from ratings import formula
from ratings.models import Rating, RatingChange, VoidedMatch

_RUNNING_TOTALS = ["mu", "sigma", "shown", "rated_games", "wins", "places_total", "updated_at"]


def ensure_ratings(*, kind: str, user_ids: Sequence[int], inactive: Collection[int] = ()) -> None:
    """A rating row for each player (a new player's defaults), so that the match end finds a row
    to lock for everyone: a row that does not exist yet cannot be locked, and two first matches
    ending together would both start from the defaults. ``inactive``: the players whose account
    is not in good standing (``Rating.active``). One query."""
    # In user order: two starts inserting the same new players wait on each other's rows in one
    # order, never in a cycle.
    Rating.objects.bulk_create(
        [
            Rating(user_id=user_id, kind=kind, active=user_id not in inactive)
            for user_id in sorted(user_ids)
        ],
        ignore_conflicts=True,
    )


def rate_match(
    *, game: Game, standings: Sequence[tuple[int, int]], now: datetime | None = None
) -> dict[int, RatingChange]:
    """Rate a finished match: ``standings`` is (user id, place) per player, 1 first. Returns each
    player's change. Three queries: lock the ratings, write the changes, write the new ratings.

    Caller holds the game's row lock in the transaction that finished it (or checked that no
    change of this match exists, as ``rate_game`` does); raises ``IntegrityError`` if the match
    was rated already."""
    now = now or timezone.now()
    user_ids = sorted(user_id for user_id, _ in standings)
    # In user order, so that two matches locking overlapping players cannot deadlock.
    locked = Rating.objects.select_for_update().filter(kind=game.kind, user_id__in=user_ids)
    current = {r.user_id: r for r in locked.order_by("user_id")}
    before = [
        current.get(user_id) or Rating(user_id=user_id, kind=game.kind) for user_id, _ in standings
    ]
    places = [place for _, place in standings]
    after = formula.rate([(r.mu, r.sigma) for r in before], places)
    changes: dict[int, RatingChange] = {}
    totals = []
    for old, place, (mu, sigma) in zip(before, places, after, strict=True):
        shown = formula.shown(mu, sigma)
        changes[old.user_id] = RatingChange(
            game=game,
            user_id=old.user_id,
            kind=game.kind,
            place=place,
            mu_before=old.mu,
            sigma_before=old.sigma,
            mu_after=mu,
            sigma_after=sigma,
            shown_before=old.shown,
            shown_after=shown,
            created_at=now,
        )
        totals.append(
            Rating(
                user_id=old.user_id,
                kind=game.kind,
                mu=mu,
                sigma=sigma,
                shown=shown,
                rated_games=old.rated_games + 1,
                wins=old.wins + (place == 1),
                places_total=old.places_total + place,
                updated_at=now,
            )
        )
    RatingChange.objects.bulk_create(changes.values())
    # One upsert writes every running total, a row created at the start or not (a game started
    # before ratings existed has none).
    Rating.objects.bulk_create(
        sorted(totals, key=_user_id),
        update_conflicts=True,
        unique_fields=["user", "kind"],
        update_fields=_RUNNING_TOTALS,
    )
    return changes


def _user_id(rating: Rating) -> int:
    return rating.user_id


def standings_of(seats: Sequence[Seat]) -> list[tuple[int, int]]:
    """The rated players of a finished game and their places: every seat with a person (an
    account deleted since has none) and a place."""
    return [
        (seat.user_id, seat.place)
        for seat in seats
        if seat.user_id is not None and seat.place is not None
    ]


def rate_seats(*, game: Game, seats: Sequence[Seat]) -> None:
    """Rate a rated game that has just finished and set each seat's ``rating_change`` (the
    caller saves the seats). Fewer than two rated players: nothing to compare."""
    standings = standings_of(seats)
    if not game.rated or len(standings) < 2:
        return
    changes = rate_match(game=game, standings=standings, now=game.finished_at)
    for seat in seats:
        change = changes.get(seat.user_id) if seat.user_id is not None else None
        if change is not None:
            seat.rating_change = change.delta


def rate_game(*, game_id: Any) -> bool:
    """Rate a finished rated game unless it has been rated or its rating was voided: safe to
    repeat and to run from a task or a command at any time. Returns whether it rated it now."""
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None or game.status != Game.FINISHED or not game.rated:
            return False
        if RatingChange.objects.filter(game=game).exists():
            return False
        if VoidedMatch.objects.filter(game=game).exists():
            return False
        seats = list(game.seats.all())
        rate_seats(game=game, seats=seats)
        Seat.objects.bulk_update(seats, ["rating_change"])
        return True
