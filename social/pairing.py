"""Quick pairing: a player posts a seek (game, seats, rated or not, house rules, an optional
range of opponents' shown ratings); seeks of one pool are matched by shown rating, and a full
group's game is made and started by the games services (docs/social.md, "Quick pairing").

How far a seek reaches widens with waiting, as Lichess's pool does (lila ``modules/pool``:
a pair's rating difference is offset by a bonus for every wave missed, the smaller bonus of the
two counting, up to a cap). Here a seek may wait hours, so the window grows per five minutes
waited rather than per wave, and the shorter wait of the two decides: nobody is given an
opponent further off than they themselves have waited for. Explicit ranges are hard limits both
ways, and so are blocks (lila's "block malus" makes them all but impossible; here, impossible).

Exactly once: matching in a pool holds its ``SeekPool`` row lock, so two seeks of one pool are
never matched at the same time; the candidates' rows are locked too, so a withdrawal waits for
the match and then finds the seek closed; and the seeks are claimed by a compare-and-set on
their status, all of them or (with the game) none.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Count, F, Q
from django.db.models.functions import Abs
from django.utils import timezone

from config import error_codes as codes
from config.errors import ServiceError
from games.models import Game
from games.services import create_game, join_game
from games.services.lobby import check_games_in_progress, check_settings
from players.models import User
from ratings import formula
from ratings.models import Rating
from social.models import Seek, SeekPool
from social.selectors import blocked_ids

logger = logging.getLogger(__name__)

# Shown-rating points a new seek reaches, how much more per step waited, and the most.
WINDOW_BASE = 150
WINDOW_GROWTH = 50
WINDOW_STEP = timedelta(minutes=5)
WINDOW_MAX = 600
# The nearest open seeks looked at for one match (locked while it is made).
CANDIDATES = 50
# Seeks of one pool a periodic wave tries, oldest first (the rest wait for the next wave).
WAVE_SIZE = 200


def window(waited: timedelta) -> int:
    """How far apart two shown ratings may be when the shorter wait of the two is ``waited``."""
    steps = max(0, int(waited / WINDOW_STEP))
    return min(WINDOW_BASE + WINDOW_GROWTH * steps, WINDOW_MAX)


def _accepts(seek: Seek, rating: int) -> bool:
    low, high = seek.min_rating, seek.max_rating
    return (low is None or rating >= low) and (high is None or rating <= high)


def in_reach(a: Seek, b: Seek, now: datetime) -> bool:
    """Whether ``a`` and ``b`` may be matched by rating: within the window of the shorter wait,
    and each inside the other's own range."""
    waited = now - max(a.created_at, b.created_at)
    if abs(a.rating - b.rating) > window(waited):
        return False
    return _accepts(a, b.rating) and _accepts(b, a.rating)


def pool_key(kind: str, seats: int, rated: bool, options: dict[str, Any]) -> str:
    """Seeks are matched only within one pool: the same game, seats, ratedness and house rules."""
    rules = ",".join(sorted(name for name, on in options.items() if on))
    return f"{kind}/{seats}/{'rated' if rated else 'casual'}/{rules}"


def shown_ratings(kind: str, user_ids: list[Any]) -> dict[Any, int]:
    """Each player's shown rating in ``kind`` (a player without one: a new player's). One query."""
    found = dict(
        Rating.objects.filter(kind=kind, user_id__in=user_ids).values_list("user_id", "shown")
    )
    new = formula.shown(formula.MU, formula.SIGMA)
    return {user_id: found.get(user_id, new) for user_id in user_ids}


def _seek_ttl() -> timedelta:
    return timedelta(seconds=settings.SEEK_TTL_SECONDS)


def _lock_pool(key: str) -> None:
    """Caller holds a transaction: every match in the pool waits for it to end."""
    if not SeekPool.objects.select_for_update().filter(key=key).exists():
        SeekPool.objects.get_or_create(key=key)  # a new pool (another request may make it too)
        SeekPool.objects.select_for_update().filter(key=key).exists()


def post_seek(
    *,
    user: User,
    kind: str,
    seats: int,
    rated: bool | None = None,
    options: dict[str, bool] | None = None,
    min_rating: int | None = None,
    max_rating: int | None = None,
) -> Seek:
    """Post a seek and match it at once if its pool holds a group in reach; else it waits (the
    ``pair-seeks`` job tries again as windows widen) until withdrawn or expired. The settings
    are checked as ``games_create`` checks them (``check_settings``)."""
    opts, rated = check_settings(kind=kind, max_players=seats, options=options, rated=rated)
    if min_rating is not None and max_rating is not None and min_rating > max_rating:
        raise ServiceError(codes.INVALID_SETUP, "The lowest rating is above the highest.")
    check_games_in_progress(user)
    key = pool_key(kind, seats, rated, opts)
    now = timezone.now()
    with transaction.atomic():
        _lock_pool(key)
        if Seek.objects.filter(user=user, pool_id=key, status=Seek.OPEN).exists():
            raise ServiceError(codes.ALREADY_SEEKING, "You already seek a game like this.")
        seek = Seek.objects.create(
            user=user,
            pool_id=key,
            kind=kind,
            seats=seats,
            rated=rated,
            options=opts,
            rating=shown_ratings(kind, [user.pk])[user.pk],
            min_rating=min_rating,
            max_rating=max_rating,
            created_at=now,
            expires_at=now + _seek_ttl(),
        )
        game = _pair(seek, now, owner_may_sit=True)
    if game is not None:  # as _pair's compare-and-set wrote it
        seek.status, seek.game, seek.closed_at = Seek.MATCHED, game, now
    return seek


@dataclass
class _Group:
    seeks: list[Seek]
    blocked: set[Any]  # blocked either way with any member

    def admits(self, other: Seek, now: datetime) -> bool:
        if other.user_id in self.blocked or any(s.user_id == other.user_id for s in self.seeks):
            return False
        return all(in_reach(s, other, now) for s in self.seeks)


def _may_sit(user: User) -> bool:
    try:
        check_games_in_progress(user)
    except ServiceError:
        return False
    return True


def _candidates(seek: Seek, exclude: set[Any], now: datetime) -> list[Seek]:
    """The pool's open seeks nearest ``seek`` by rating, locked. Caller holds the pool lock."""
    low, high = seek.rating - WINDOW_MAX, seek.rating + WINDOW_MAX
    if seek.min_rating is not None:
        low = max(low, seek.min_rating)
    if seek.max_rating is not None:
        high = min(high, seek.max_rating)
    return list(
        Seek.objects.select_for_update(of=("self",))
        .filter(
            pool_id=seek.pool_id,
            status=Seek.OPEN,
            expires_at__gt=now,
            rating__gte=low,
            rating__lte=high,
        )
        # Only those whose own range takes this seek's rating: the ones that refuse it would
        # crowd out the nearest that accept it.
        .filter(Q(min_rating__isnull=True) | Q(min_rating__lte=seek.rating))
        .filter(Q(max_rating__isnull=True) | Q(max_rating__gte=seek.rating))
        .exclude(pk=seek.pk)
        .exclude(user_id__in=exclude)
        .select_related("user")
        .annotate(distance=Abs(F("rating") - seek.rating))
        .order_by("distance", "created_at")[:CANDIDATES]
    )


def _group_for(seek: Seek, now: datetime, owner_may_sit: bool) -> list[Seek] | None:
    """``seek`` and the nearest seeks in reach of every member, enough to fill its seats; None
    when there are not enough. Caller holds the pool lock."""
    if not owner_may_sit and not _may_sit(seek.user):
        return None
    group = _Group([seek], blocked_ids(seek.user_id))
    for other in _candidates(seek, group.blocked | {seek.user_id}, now):
        if not group.admits(other, now) or not _may_sit(other.user):
            continue
        theirs = blocked_ids(other.user_id)
        if any(s.user_id in theirs for s in group.seeks):
            continue
        group.seeks.append(other)
        group.blocked |= theirs
        if len(group.seeks) == seek.seats:
            return group.seeks
    return None


class _Claimed(Exception):
    """A seek of the group closed meanwhile (withdrawn, expired): the match is undone."""


def _pair(seek: Seek, now: datetime, owner_may_sit: bool = False) -> Game | None:
    """Match ``seek`` with a full group if its pool holds one: the game is made, the others
    join it (the last join starts it) and every seek of the group is claimed, or nothing is.
    Caller holds the pool lock (and has checked the cap for ``seek``'s player when
    ``owner_may_sit``)."""
    group = _group_for(seek, now, owner_may_sit)
    if group is None:
        return None
    group.sort(key=lambda s: (s.created_at, s.pk))  # the longest waiting hosts
    ids = [s.pk for s in group]
    try:
        with transaction.atomic():
            game = create_game(
                host=group[0].user,
                kind=seek.kind,
                max_players=seek.seats,
                visibility=Game.PRIVATE,
                options=seek.options,
                rated=seek.rated,
            )
            for member in group[1:]:
                join_game(user=member.user, invite_code=game.invite_code)
            claimed = Seek.objects.filter(pk__in=ids, status=Seek.OPEN).update(
                status=Seek.MATCHED, game=game, closed_at=now
            )
            if claimed != len(ids):
                raise _Claimed
    except (_Claimed, ServiceError) as exc:
        logger.info("seeks %s not matched: %r", ids, exc)
        return None
    return game


def pair_waiting(*, now: datetime | None = None) -> int:
    """One wave: every pool with two or more open seeks is matched again with today's wider
    windows, oldest seek first. Returns the games started. Safe to run late, twice or
    concurrently (each pool's matching holds its lock)."""
    now = now or timezone.now()
    open_seeks = Seek.objects.filter(status=Seek.OPEN, expires_at__gt=now)
    pools = list(
        open_seeks.values("pool_id")
        .annotate(n=Count("pk"))
        .filter(n__gte=2)
        .values_list("pool_id", flat=True)
    )
    started = 0
    for key in pools:
        with transaction.atomic():
            _lock_pool(key)
            waiting = open_seeks.filter(pool_id=key).select_related("user").order_by("created_at")
            matched: set[Any] = set()
            for seek in list(waiting[:WAVE_SIZE]):
                if seek.pk in matched:
                    continue
                game = _pair(seek, now)
                if game is not None:
                    started += 1
                    matched.update(Seek.objects.filter(game=game).values_list("pk", flat=True))
    return started


def withdraw_seek(*, user: User, seek_id: Any) -> Seek:
    """``user`` withdraws an open seek of theirs. A seek being matched is locked: this waits for
    the match, then finds it closed (``seek_closed``)."""
    seek = Seek.objects.filter(user=user, pk=seek_id).first()
    if seek is None:
        raise ServiceError(codes.NOT_FOUND, "No such seek.")
    now = timezone.now()
    if not Seek.objects.filter(pk=seek.pk, status=Seek.OPEN).update(
        status=Seek.WITHDRAWN, closed_at=now
    ):
        seek.refresh_from_db()
        raise ServiceError(codes.SEEK_CLOSED, f"This seek is {seek.status}.")
    seek.refresh_from_db()
    return seek


def expire_seeks(*, now: datetime | None = None) -> int:
    """Close every open seek past its expiry (a compare-and-set on the status: safe to repeat)."""
    now = now or timezone.now()
    return Seek.objects.filter(status=Seek.OPEN, expires_at__lte=now).update(
        status=Seek.EXPIRED, closed_at=now
    )
