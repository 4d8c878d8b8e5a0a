"""Clocks: turns that ran out (the sweep and its timeouts) and vacations that pause them."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from config import error_codes as codes
from config import metrics
from config.errors import ServiceError
from games.kinds import registry as kinds
from games.models import Game
from games.services.base import bump_version, rules_of, take_over
from games.services.bots import bot_act
from games.services.play import apply_action, bots_leave_alone
from players.models import User


def sweep_expired_turns(*, now: datetime | None = None, limit: int = 200) -> int:
    """Time out every turn past its deadline. Returns how many were timed out.

    Safe to run late, twice or in several workers at once: each game is claimed under its row
    lock with the version it was found at, so a game that moved on meanwhile is left alone.
    """
    now = now or timezone.now()
    due = list(
        Game.objects.filter(status=Game.ACTIVE, turn_deadline__lte=now)
        .order_by("turn_deadline")
        .values_list("pk", "version")[:limit]
    )
    return sum(timeout_turn(game_id=pk, version=version, now=now) for pk, version in due)


def timeout_turn(*, game_id: Any, version: int, now: datetime | None = None) -> bool:
    """Apply the engine's timeout to the seat whose turn is overdue, if it still is.

    The game's timeout policy acts after ``max_timeouts`` timeouts in a row, so one absent
    player cannot stall the table: a bot takes the seat over (``bot``, the default; the player
    takes it back by acting) or the player is taken out of the game (``leave``, RULES.md).

    A bot's turn past its deadline is the bot's move, not a timeout: its task was lost (a worker
    restarted) or never queued (no broker), and the sweep asks the bot instead.
    """
    now = now or timezone.now()
    with transaction.atomic():
        # SKIP LOCKED: a game another sweeper is handling right now is that sweeper's.
        game = (
            Game.objects.select_for_update(skip_locked=True)
            .filter(pk=game_id, status=Game.ACTIVE, version=version, turn_deadline__lte=now)
            .first()
        )
        if game is None:
            return False
        rules = rules_of(game)
        state = rules.state_from_dict(game.state)
        position = rules.to_move(state)
        if position is None:
            return False
        seats = list(game.seats.select_related("user"))
        seat = next(s for s in seats if s.position == position)
        if seat.is_bot:
            if not bot_act(game, state, seats, only=position, now=now):
                # A bot always has a move on its turn; if it ever had none, the table goes on.
                timeout = rules.timeout_action(state, position)
                apply_action(game, timeout, seat=None, now=now)
            return True
        extra: list[dict[str, Any]] = []
        # A speed-mode turn of a few seconds runs out all the time: that is the game, not an
        # absent player, so it does not count toward the timeout policy (RULES.md).
        if not game.options.get("speed_mode"):
            seat.timeouts_in_row += 1
        give_up = seat.timeouts_in_row >= game.max_timeouts
        # No bot plays this game: the player leaves instead.
        policy = game.timeout_policy if kinds.plays_bots(game.kind) else Game.POLICY_LEAVE
        if give_up and policy == Game.POLICY_BOT:
            extra.append(take_over(seat, now=now, reason="timeouts"))
        metrics.after_commit(metrics.TURN_TIMEOUTS.labels(kind=game.kind))
        # One clock for the whole sweep: the next turn's deadline counts from the sweep's `now`.
        apply_action(
            game,
            rules.timeout_action(state, position),
            seat=None,
            now=now,
            seats=seats,
            extra_events=extra,
        )
        if give_up and policy == Game.POLICY_LEAVE and game.status == Game.ACTIVE:
            seat.left_at = now
            apply_action(game, rules.leave_action(position), seat=None, now=now, seats=seats)
            bots_leave_alone(game, seats, now=now)
        seat.save(
            update_fields=["timeouts_in_row", "left_at", "bot_level", "bot_name", "taken_over_at"]
        )
    return True


def _vacation_bank() -> timedelta:
    return timedelta(days=getattr(settings, "VACATION_DAYS_PER_MONTH", 7))


def _used_this_month(user: User, now: datetime) -> timedelta:
    return user.vacation_used if user.vacation_month == now.strftime("%Y-%m") else timedelta()


def vacation_left(*, user: User, now: datetime | None = None) -> timedelta:
    now = now or timezone.now()
    return max(_vacation_bank() - _used_this_month(user, now), timedelta())


def start_vacation(*, user: User, days: float, now: datetime | None = None) -> User:
    """Pause the player's clocks for ``days`` (from the bank of this month).

    Every running turn of theirs gets its deadline pushed back by the vacation, and turns that
    reach them during it start counting when it ends (see ``save_state``).
    """
    now = now or timezone.now()
    length = timedelta(days=days)
    if length <= timedelta():
        raise ServiceError(codes.INVALID_REQUEST, "A vacation lasts more than 0 days.")
    with transaction.atomic():
        user = User.objects.select_for_update().get(pk=user.pk)
        if user.vacation_until and user.vacation_until > now:
            raise ServiceError(codes.ALREADY_ON_VACATION, "You are on vacation already.")
        if length > vacation_left(user=user, now=now):
            raise ServiceError(
                codes.VACATION_BANK_EXHAUSTED,
                "Not enough vacation left this month.",
                days_left=vacation_left(user=user, now=now).total_seconds() / 86400,
            )
        user.vacation_month = now.strftime("%Y-%m")
        user.vacation_used = _used_this_month(user, now) + length
        user.vacation_until = now + length
        user.save(update_fields=["vacation_month", "vacation_used", "vacation_until"])
        for game in Game.objects.select_for_update().filter(
            current_user=user, status=Game.ACTIVE, turn_deadline__isnull=False
        ):
            game.turn_deadline += length
            bump_version(game)
            game.save(update_fields=["turn_deadline", "version"])
    return user


def end_vacation(*, user: User, now: datetime | None = None) -> User:
    """Come back early: unused vacation returns to the bank; waiting turns get a full clock."""
    now = now or timezone.now()
    with transaction.atomic():
        user = User.objects.select_for_update().get(pk=user.pk)
        if not user.vacation_until or user.vacation_until <= now:
            raise ServiceError(codes.NOT_ON_VACATION, "You are not on vacation.")
        user.vacation_used = max(user.vacation_used - (user.vacation_until - now), timedelta())
        user.vacation_until = None
        user.save(update_fields=["vacation_used", "vacation_until"])
        for game in Game.objects.select_for_update().filter(current_user=user, status=Game.ACTIVE):
            game.turn_deadline = now + timedelta(seconds=game.turn_seconds)
            bump_version(game)
            game.save(update_fields=["turn_deadline", "version"])
    return user
