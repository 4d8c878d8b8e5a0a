"""Replaying the rating history: a full recompute (``manage.py recompute_ratings``) and the
recompute that follows a moderator's void (docs/ratings.md, "Voids and recomputing").

The history is the ``RatingChange`` rows themselves: each says who played a rated match and in
which place. Replayed in the order they were applied, from openskill's defaults, the rows give
back the very numbers the match ends wrote (the same floats in, the same floats out), so a
recompute of an untouched history changes nothing, and a recompute after a void equals what the
service would have written had the voided match never been rated.

**Order.** A match's changes are written by one INSERT after its players' rating rows are
locked, so of two matches that share a player the one applied first has the smaller ids; matches
are replayed in the order of their first change id (two matches that share nobody may come in
either order: neither changes the other).

**Locks.** Both take every rating row of the game kind, in user order, before reading the
history, as a match end locks its players' rows in user order: a match ending meanwhile waits
for the recompute and then applies to its result, and the two never wait on each other in a
cycle.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Count, Exists, F, Max, Min, OuterRef, Q, Sum, Window
from django.utils import timezone
from django.utils.translation import gettext_noop

from config import error_codes as codes
from config.errors import ServiceError
from games.models import Game, Seat
from ratings import formula
from ratings.models import Rating, RatingChange, VoidedMatch

# Rows rated again are written this many at a time.
BATCH = 1000
_CHANGE_FIELDS = ["mu_before", "sigma_before", "mu_after", "sigma_after"]
_CHANGE_FIELDS += ["shown_before", "shown_after"]
_READ = ["id", "game_id", "user_id", "kind", "place", "created_at", *_CHANGE_FIELDS]
_TOTALS = ["mu", "sigma", "shown", "rated_games", "wins", "places_total", "updated_at"]

Belief = tuple[float, float]


@dataclass
class Replayed:
    """What a recompute did: matches rated again, rating-change rows whose numbers changed, and
    players whose running totals were written."""

    matches: int = 0
    changed: int = 0
    players: int = 0

    def add(self, other: Replayed) -> None:
        self.matches += other.matches
        self.changed += other.changed
        self.players += other.players


def _lock_pool(kind: str) -> None:
    list(
        Rating.objects.select_for_update()
        .filter(kind=kind)
        .order_by("user_id")
        .values_list("pk", flat=True)
    )


def _history(kind: str, *, after: int | None) -> Iterator[list[RatingChange]]:
    """The kind's rating changes match by match, in the order they were applied; only the
    matches whose first change id is above ``after`` when given."""
    rows = RatingChange.objects.filter(kind=kind).annotate(
        first=Window(Min("id"), partition_by=[F("game_id")])
    )
    if after is not None:
        rows = rows.filter(first__gt=after)
    group: list[RatingChange] = []
    for row in rows.order_by("first", "id").only(*_READ).iterator(chunk_size=BATCH * 2):
        if group and row.game_id != group[0].game_id:
            yield group
            group = []
        group.append(row)
    if group:
        yield group


def _rate_again(rows: Sequence[RatingChange], before: list[Belief]) -> list[RatingChange]:
    """Set each row's numbers from its player's rating before the match; the rows that
    changed."""
    after = formula.rate(before, [row.place for row in rows])
    changed = []
    for row, (mu0, sigma0), (mu1, sigma1) in zip(rows, before, after, strict=True):
        new = (mu0, sigma0, mu1, sigma1, formula.shown(mu0, sigma0), formula.shown(mu1, sigma1))
        if new != tuple(getattr(row, name) for name in _CHANGE_FIELDS):
            for name, value in zip(_CHANGE_FIELDS, new, strict=True):
                setattr(row, name, value)
            changed.append(row)
    return changed


def _write_changes(rows: list[RatingChange]) -> None:
    """The rows rated again, and their seats' change shown at the match end."""
    if not rows:
        return
    # Written back by their ids as one INSERT … ON CONFLICT (id) DO UPDATE per batch (every
    # column read, so nothing deferred is fetched): bulk_update's CASE WHEN per row and field
    # was most of a full recompute's time (docs/performance.md, "Ratings at scale").
    RatingChange.objects.bulk_create(
        rows,
        update_conflicts=True,
        unique_fields=["id"],
        update_fields=_CHANGE_FIELDS,
        batch_size=BATCH,
    )
    delta = {(row.game_id, row.user_id): row.delta for row in rows}
    # Whole rows (a seat is a dozen small columns), written back the same way.
    seats = list(Seat.objects.filter(game_id__in={row.game_id for row in rows}))
    seats = [s for s in seats if (s.game_id, s.user_id) in delta]
    for seat in seats:
        seat.rating_change = delta[(seat.game_id, seat.user_id)]
    Seat.objects.bulk_create(
        seats,
        update_conflicts=True,
        unique_fields=["id"],
        update_fields=["rating_change"],
        batch_size=BATCH,
    )


def _write_totals(kind: str, beliefs: dict[int, Belief]) -> None:
    """Each player's running totals from their remaining history, and their latest belief."""
    ids = sorted(beliefs)
    for start in range(0, len(ids), BATCH):
        chunk = ids[start : start + BATCH]
        sums = {
            row["user_id"]: row
            for row in RatingChange.objects.filter(kind=kind, user_id__in=chunk)
            .values("user_id")
            .annotate(
                n=Count("id"),
                won=Count("id", filter=Q(place=1)),
                places=Sum("place"),
                last=Max("created_at"),
            )
        }
        totals = []
        for user_id in chunk:
            mu, sigma = beliefs[user_id]
            row = sums.get(user_id, {})
            totals.append(
                Rating(
                    user_id=user_id,
                    kind=kind,
                    mu=mu,
                    sigma=sigma,
                    shown=formula.shown(mu, sigma),
                    rated_games=row.get("n", 0),
                    wins=row.get("won", 0),
                    places_total=row.get("places", 0) or 0,
                    updated_at=row.get("last") or timezone.now(),
                )
            )
        Rating.objects.bulk_create(
            totals, update_conflicts=True, unique_fields=["user", "kind"], update_fields=_TOTALS
        )


def _replay(kind: str, *, after: int | None, beliefs: dict[int, Belief] | None) -> Replayed:
    """Rate the history again. ``beliefs`` None: all of it, everyone from the defaults.
    Otherwise the players whose rating changed (their belief now), and only the matches after
    ``after`` that include one of them, or someone whose rating changed since, are rated again.
    Caller holds the pool's lock (``_lock_pool``) in its transaction."""
    full = beliefs is None
    current: dict[int, Belief] = dict(beliefs or {})
    done = Replayed()
    pending: list[RatingChange] = []
    for rows in _history(kind, after=after):
        if not full and not any(row.user_id in current for row in rows):
            continue  # nobody's rating in it changed: its numbers stand
        before = [
            current.get(row.user_id)
            or ((formula.MU, formula.SIGMA) if full else (row.mu_before, row.sigma_before))
            for row in rows
        ]
        pending += _rate_again(rows, before)
        for row in rows:
            current[row.user_id] = (row.mu_after, row.sigma_after)
        done.matches += 1
        if len(pending) >= BATCH:
            done.changed += len(pending)
            _write_changes(pending)
            pending = []
    done.changed += len(pending)
    _write_changes(pending)
    _write_totals(kind, current)
    done.players = len(current)
    if full:
        _reset_unrated(kind)
    return done


def _reset_unrated(kind: str) -> None:
    """A rating row with no change left (its only matches voided) holds the defaults."""
    default = formula.shown(formula.MU, formula.SIGMA)
    history = RatingChange.objects.filter(user=OuterRef("user"), kind=kind)
    Rating.objects.filter(kind=kind).filter(~Exists(history)).exclude(
        rated_games=0, mu=formula.MU, sigma=formula.SIGMA, shown=default
    ).update(
        mu=formula.MU, sigma=formula.SIGMA, shown=default, rated_games=0, wins=0, places_total=0
    )


def recompute(*, kinds: Sequence[str]) -> dict[str, Replayed]:
    """Rate every kind's whole history again, one transaction per kind. Idempotent: an
    untouched history is written back unchanged (``changed`` 0)."""
    done: dict[str, Replayed] = {}
    for kind in kinds:
        with transaction.atomic():
            _lock_pool(kind)
            done[kind] = _replay(kind, after=None, beliefs=None)
    return done


def void_match(*, game_id: Any) -> tuple[Game, Replayed]:
    """Remove a rated match's rating changes for good and rate again, in order, every later
    match of its players (and of theirs, as far as the changes reach). One transaction; the
    caller (moderation) checks who may and writes the audit entry in it."""
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None:
            raise ServiceError(codes.NOT_FOUND, gettext_noop("No such game."))
        if not game.rated or game.status != Game.FINISHED:
            raise ServiceError(
                codes.NOT_RATED,
                gettext_noop("Only a finished rated game's rating changes can be voided."),
            )
        _lock_pool(game.kind)
        if VoidedMatch.objects.filter(game=game).exists():
            raise ServiceError(
                codes.ALREADY_VOIDED, gettext_noop("This game's rating changes are voided already.")
            )
        rows = list(RatingChange.objects.filter(game=game).order_by("id"))
        VoidedMatch.objects.create(game=game)
        if not rows:
            return game, Replayed()
        RatingChange.objects.filter(game=game).delete()
        Seat.objects.filter(game=game).update(rating_change=None)
        beliefs = {row.user_id: (row.mu_before, row.sigma_before) for row in rows}
        return game, _replay(game.kind, after=rows[0].id, beliefs=beliefs)
