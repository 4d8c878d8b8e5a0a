"""Reminders before a turn's deadline, at fractions of the turn's time (default: when half and
when a tenth of it is left).

A periodic sweep, safe to run late, twice or in several workers at once, that never writes to
the games tables. It reads the turn clock the games app keeps (``Game.turn_deadline``,
``turn_seconds``, ``current_user``) and keeps its own bookkeeping in the inbox: each reminder's
unique ``Notification.key`` names the game, the player, the deadline and the point, so a point
already reminded of is never reminded of again, and a second sweeper that races to write the same
reminder hits the unique key and gives up. A new deadline (the turn passed, a vacation moved it)
is a new clock with its own reminders.

When a sweep is late enough that several points have passed at once, only the latest is sent.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.db.models import DateTimeField, ExpressionWrapper, F, Value
from django.utils import timezone

from games.models import Game
from notifications import kinds
from notifications.models import Notification
from notifications.services import Planned, write

logger = logging.getLogger(__name__)

# A point closer to the deadline than this is not worth a message: it would arrive (the sweep
# runs every 30 s) about when the turn times out.
MIN_LEAD = timedelta(seconds=60)


def fractions() -> list[float]:
    """The configured points, largest first (settings.NOTIFY_REMINDER_FRACTIONS)."""
    return sorted(getattr(settings, "NOTIFY_REMINDER_FRACTIONS", [0.5, 0.1]), reverse=True)


def reminder_key(game_id: object, user_id: int, deadline: datetime, step: int) -> str:
    return f"reminder:{game_id}:{user_id}:{deadline.isoformat()}:{step}"


def send_reminders(*, now: datetime | None = None) -> int:
    """Write the reminders that are due. Returns how many were written."""
    now = now or timezone.now()
    points = fractions()
    if not points:
        return 0
    clocks = Game.objects.filter(
        status=Game.ACTIVE, current_user__isnull=False, turn_deadline__gt=now
    ).exclude(
        # Speed mode: a turn of a few seconds (speed_seconds, not turn_seconds); a reminder
        # could only arrive with the timeout.
        options__speed_mode=True
    )
    if connection.vendor == "postgresql":
        # Only clocks that reached the first point: deadline <= now + first * turn_seconds.
        # SQLite cannot multiply a duration in SQL; its (one-machine) games are filtered below.
        reached = ExpressionWrapper(
            Value(now) + F("turn_seconds") * Value(timedelta(seconds=points[0])),
            output_field=DateTimeField(),
        )
        clocks = clocks.alias(first_point=reached).filter(turn_deadline__lte=F("first_point"))
    due = []
    for game_id, user_id, deadline, seconds in clocks.values_list(
        "pk", "current_user_id", "turn_deadline", "turn_seconds"
    ):
        step = _step(deadline - now, timedelta(seconds=seconds), points)
        if step is not None:
            due.append((game_id, user_id, deadline, step))
    if not due:
        return 0
    keys = {
        reminder_key(game_id, user_id, deadline, s)
        for game_id, user_id, deadline, step in due
        for s in range(step, len(points))
    }
    done = set(Notification.objects.filter(key__in=keys).values_list("key", flat=True))
    written = 0
    for game_id, user_id, deadline, step in due:
        if any(
            reminder_key(game_id, user_id, deadline, s) in done for s in range(step, len(points))
        ):
            continue
        written += _remind(game_id, user_id, deadline, step, points[step], now)
    return written


def _step(left: timedelta, total: timedelta, points: list[float]) -> int | None:
    """The latest point the clock has reached, if it is worth a reminder."""
    reached = [i for i, f in enumerate(points) if left <= total * f and total * f >= MIN_LEAD]
    return reached[-1] if reached else None


def _remind(
    game_id: object, user_id: int, deadline: datetime, step: int, fraction: float, now: datetime
) -> int:
    game = Game.objects.select_related("current_user").get(pk=game_id)
    user = game.current_user
    if user is None or user.pk != user_id or game.turn_deadline != deadline:
        return 0  # the turn moved on since the sweep looked
    seats = list(game.seats.select_related("user"))
    opponents = [
        s.user.public_name
        for s in seats
        if s.user is not None and s.user_id != user.pk and s.left_at is None
    ]
    data = {
        "opponents": opponents,
        "deadline": deadline.isoformat(),
        "fraction": fraction,
        "seconds_left": int((deadline - now).total_seconds()),
    }
    key = reminder_key(game.pk, user.pk, deadline, step)
    try:
        with transaction.atomic():
            write([Planned(user, kinds.REMINDER, data, key)], game=game, now=now)
    except IntegrityError:
        # Another sweeper wrote this reminder first.
        return 0
    return 1
