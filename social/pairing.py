"""Quick pairing: a player posts a seek (game, seats, rated or not, house rules, an optional
range of opponents' shown ratings); seeks of one pool are matched by shown rating, and a full
group's game is made and started by the games services (docs/social.md, "Quick pairing").

How far a seek reaches widens with waiting, as Lichess's pool does (lila ``modules/pool``:
a pair's rating difference is offset by a bonus for every wave missed, the smaller bonus of the
two counting, up to a cap). Here a seek may wait hours, so the window grows per five minutes
waited rather than per wave, and the shorter wait of the two decides: nobody is given an
opponent further off than they themselves have waited for. Explicit ranges are hard limits both
ways, and so are blocks (lila's "block malus" makes them all but impossible; here, impossible).

Exactly once: a match locks the candidates' rows it reads (``FOR UPDATE SKIP LOCKED``: a seek
another match holds is passed over, never waited for, so two matches never wait on each other),
so a withdrawal waits for the match and then finds the seek closed; and the seeks are claimed
by a compare-and-set on their status, all of them or (with the game) none. The periodic wave
also holds its pool's ``SeekPool`` row lock, so that two waves of one pool take turns.

A posted seek costs three queries when it waits (the player's cap and rating; the insert; the
candidates, blocks and the candidates' caps in the same query) and starts its game in a few
more (docs/performance.md, "Quick pairing").
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Count, F, OuterRef, Q, Subquery, Value
from django.db.models.functions import Abs, Coalesce
from django.utils import timezone

from config import error_codes as codes
from config.errors import ServiceError
from games.models import Game
from games.services import start_game_with
from games.services.lobby import (
    check_games_in_progress,
    check_settings,
    games_in_progress_max,
    games_in_progress_of,
)
from players.models import User
from ratings import formula
from ratings.models import Rating
from social import paired
from social.models import Seek, SeekPool
from social.selectors import blocked_ids, exclude_blocked

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


def accepts(seek: Seek, rating: int) -> bool:
    """Whether ``seek``'s own range takes an opponent of shown ``rating``."""
    low, high = seek.min_rating, seek.max_rating
    return (low is None or rating >= low) and (high is None or rating <= high)


def in_reach(a: Seek, b: Seek, now: datetime) -> bool:
    """Whether ``a`` and ``b`` may be matched by rating: within the window of the shorter wait,
    and each inside the other's own range."""
    waited = now - max(a.created_at, b.created_at)
    if abs(a.rating - b.rating) > window(waited):
        return False
    return accepts(a, b.rating) and accepts(b, a.rating)


def pool_key(kind: str, seats: int, rated: bool, options: dict[str, Any]) -> str:
    """Seeks are matched only within one pool: the same game, seats, ratedness and house rules."""
    rules = ",".join(sorted(name for name, on in options.items() if on))
    return f"{kind}/{seats}/{'rated' if rated else 'casual'}/{rules}"


def new_player_rating() -> int:
    return formula.shown(formula.MU, formula.SIGMA)


def shown_ratings(kind: str, user_ids: list[Any]) -> dict[Any, int]:
    """Each player's shown rating in ``kind`` (a player without one: a new player's). One query."""
    found = dict(
        Rating.objects.filter(kind=kind, user_id__in=user_ids).values_list("user_id", "shown")
    )
    return {user_id: found.get(user_id, new_player_rating()) for user_id in user_ids}


def player_facts(user: User, kind: str) -> tuple[int, int]:
    """``user``'s seats in games in progress (the cap's count) and shown rating in ``kind``, in
    one query."""
    shown = Rating.objects.filter(kind=kind, user_id=OuterRef("pk")).values("shown")[:1]
    seated, rating = (
        User.objects.filter(pk=user.pk)
        .annotate(
            seated=games_in_progress_of(OuterRef("pk")),
            rating=Coalesce(Subquery(shown), Value(new_player_rating())),
        )
        .values_list("seated", "rating")
        .get()
    )
    return seated, rating


def _seek_ttl() -> timedelta:
    return timedelta(seconds=settings.SEEK_TTL_SECONDS)


def _new_seek(
    user: User, pool_id: str, options: dict[str, bool], rating: int, now: datetime
) -> Seek:
    """An open seek of ``user`` in ``pool_id`` posted ``now``, not saved (the caller sets its
    game, seats and ratedness, as the pool's key says them)."""
    return Seek(
        user=user,
        pool_id=pool_id,
        options=options,
        rating=rating,
        created_at=now,
        expires_at=now + _seek_ttl(),
    )


def _lock_pool(key: str) -> None:
    """Caller holds a transaction: every wave of the pool waits for it to end."""
    if not SeekPool.objects.select_for_update().filter(key=key).exists():
        SeekPool.objects.get_or_create(key=key)  # a new pool (another wave may make it too)
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
    seated, rating = player_facts(user, kind)
    check_games_in_progress(user, seated=seated)
    now = timezone.now()
    seek = _new_seek(user, pool_key(kind, seats, rated, opts), opts, rating, now)
    seek.kind, seek.seats, seek.rated = kind, seats, rated
    seek.min_rating, seek.max_rating = min_rating, max_rating
    try:
        with transaction.atomic():
            seek.save(force_insert=True)
            game = _pair(seek, now, owner_may_sit=True, locked=True)
    except IntegrityError as exc:  # one_open_seek_per_pool (nothing else is written first)
        raise ServiceError(codes.ALREADY_SEEKING, "You already seek a game like this.") from exc
    except _Claimed:
        # Only where rows cannot be locked: a seek of the group closed meanwhile. Post it again
        # to wait for the next wave rather than fail the player's request.
        seek.pk = None
        with transaction.atomic():
            seek.save(force_insert=True)
        return seek
    if game is not None:  # as _pair's compare-and-set wrote it
        seek.status, seek.game, seek.closed_at = Seek.MATCHED, game, now
    return seek


@dataclass
class _Group:
    seeks: list[Seek]
    blocked: set[Any]  # blocked either way with any member (read for groups of three or more)

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


def _candidates(seek: Seek, now: datetime) -> list[Seek]:
    """The pool's open seeks nearest ``seek`` by rating whose players may sit (under the cap)
    and block nobody of it either way, locked (those another match holds are skipped). One
    query."""
    low, high = seek.rating - WINDOW_MAX, seek.rating + WINDOW_MAX
    if seek.min_rating is not None:
        low = max(low, seek.min_rating)
    if seek.max_rating is not None:
        high = min(high, seek.max_rating)
    found = (
        Seek.objects.select_for_update(of=("self",), skip_locked=True)
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
        .exclude(user_id=seek.user_id)
        .alias(seated=games_in_progress_of(OuterRef("user_id")))
        .filter(seated__lt=games_in_progress_max())
    )
    found = exclude_blocked(found, seek.user_id)
    return list(
        found.select_related("user")
        .annotate(distance=Abs(F("rating") - seek.rating))
        .order_by("distance", "created_at")[:CANDIDATES]
    )


def _group_for(seek: Seek, now: datetime, owner_may_sit: bool) -> list[Seek] | None:
    """``seek`` and the nearest seeks in reach of every member, enough to fill its seats; None
    when there are not enough. Blocks between the other members of a group of three or more
    are read per member (a pair's are left out by the candidates' query)."""
    if not owner_may_sit and not _may_sit(seek.user):
        return None
    many = seek.seats > 2
    group = _Group([seek], blocked_ids(seek.user_id) if many else set())
    for other in _candidates(seek, now):
        if not group.admits(other, now):
            continue
        if many:
            theirs = blocked_ids(other.user_id)
            if any(s.user_id in theirs for s in group.seeks):
                continue
            group.blocked |= theirs
        group.seeks.append(other)
        if len(group.seeks) == seek.seats:
            return group.seeks
    return None


class _Claimed(Exception):
    """A seek of the group closed meanwhile (withdrawn, expired): the match is undone."""


def _start(group: list[Seek], now: datetime) -> Game:
    """The group's game, started, and every seek of the group claimed for it (else
    ``_Claimed``). Caller holds a transaction."""
    group.sort(key=lambda s: (s.created_at, s.pk))  # the longest waiting hosts
    first = group[0]
    game = start_game_with(
        players=[s.user for s in group], kind=first.kind, options=first.options, rated=first.rated
    )
    ids = [s.pk for s in group]
    claimed = Seek.objects.filter(pk__in=ids, status=Seek.OPEN).update(
        status=Seek.MATCHED, game=game, closed_at=now
    )
    if claimed != len(ids):
        raise _Claimed
    paired.after_commit(game.pk)
    return game


def _pair(
    seek: Seek, now: datetime, owner_may_sit: bool = False, locked: bool = False
) -> Game | None:
    """Match ``seek`` with a full group if its pool holds one: the game is made and started
    with every member seated and every seek of the group claimed, or nothing is. ``locked``:
    the caller holds ``seek``'s row (it just wrote it) and the candidates are locked as they
    are read, so the claim cannot fail where rows lock (PostgreSQL) and needs no savepoint of
    its own; elsewhere (SQLite) a failed claim raises ``_Claimed`` to the caller. Caller holds
    a transaction (and has checked the cap for ``seek``'s player when ``owner_may_sit``)."""
    group = _group_for(seek, now, owner_may_sit)
    if group is None:
        return None
    if locked:
        return _start(group, now)
    try:
        with transaction.atomic():
            return _start(group, now)
    except (_Claimed, ServiceError) as exc:
        logger.info("seeks %s not matched: %r", [s.pk for s in group], exc)
        return None


def take_seek(*, user: User, seek_id: Any) -> Game:
    """``user`` takes another player's open seek for two from the lobby: its game starts with
    both seated, the seeker hosting. The seek's own range is a hard limit (the window is not: the
    taker chose this opponent); never one's own seek, never across a block (``not_found``: the
    lobby does not list it), within both players' caps. A seek of the taker's own in the same
    pool is the one matched with it. Exactly once: the seek's row is locked (a second taker, or
    a match under way, is waited for, and the seek is then found closed) and the two seeks are
    claimed by compare-and-set with the game."""
    seek = exclude_blocked(Seek.objects.filter(pk=seek_id), user.pk).first()
    if seek is None:
        raise ServiceError(codes.NOT_FOUND, "No such seek.")
    if seek.user_id == user.pk:
        raise ServiceError(codes.SEEK_REFUSED, "This seek is your own.")
    if seek.seats != 2:
        raise ServiceError(codes.SEEK_NEEDS_GROUP, "Post a seek like it to be grouped.")
    seated, rating = player_facts(user, seek.kind)
    check_games_in_progress(user, seated=seated)
    if not accepts(seek, rating):
        raise ServiceError(codes.SEEK_REFUSED, "This player's rating range leaves you out.")
    try:
        with transaction.atomic():
            return _take(seek, user, rating, timezone.now())
    except _Claimed as exc:  # only where rows do not lock (SQLite): the other take won
        raise ServiceError(codes.SEEK_CLOSED, "This seek can no longer be taken.") from exc


def _take(seek: Seek, user: User, rating: int, now: datetime) -> Game:
    """``take_seek``'s match. Caller holds a transaction."""
    theirs = (
        Seek.objects.select_for_update(of=("self",))
        .filter(pk=seek.pk, status=Seek.OPEN, expires_at__gt=now)
        .alias(seated=games_in_progress_of(OuterRef("user_id")))
        .filter(seated__lt=games_in_progress_max())
        .select_related("user")
        .first()
    )
    if theirs is None:
        raise ServiceError(codes.SEEK_CLOSED, "This seek can no longer be taken.")
    mine = (
        Seek.objects.select_for_update()
        .filter(user=user, pool_id=seek.pool_id, status=Seek.OPEN)
        .first()
    )
    if mine is None:
        mine = _new_seek(user, seek.pool_id, seek.options, rating, now)
        mine.kind, mine.seats, mine.rated = seek.kind, seek.seats, seek.rated
        mine.save(force_insert=True)
    mine.user = user
    return _start([theirs, mine], now)


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
