"""Who moves next and by when: the turn deadline, and the moves queued for bots."""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.db import transaction

from config.celery import app as celery_app
from config.celery import task_named
from games.bots import schedule
from games.models import Game, Seat
from games.services.base import logger


def turn_limit_seconds(game: Game) -> int:
    """A player's time for one turn: the speed-mode limit when that house rule is on."""
    return game.speed_seconds if game.options.get("speed_mode") else game.turn_seconds


def set_deadline(game: Game, current: Seat | None, now: datetime) -> None:
    """A fresh clock for the seat on turn. A free action (UNO, a catch) or a draw mid-turn
    leaves the clock running, so callers call this only when the turn passed."""
    if current is not None and current.is_bot:
        game.turn_deadline = now + timedelta(seconds=_bot_deadline_seconds(game))
        return
    # A player on vacation gets a clock that starts when the vacation ends.
    away = current.user.vacation_until if current and current.user else None
    start = max(now, away) if away else now
    game.turn_deadline = start + timedelta(seconds=turn_limit_seconds(game))


def _bot_delay_seconds(game: Game) -> float:
    """How long a bot "thinks" before its move: a short, natural pause; none in speed mode."""
    if game.options.get("speed_mode"):
        return 0.0
    low, high = settings.BOT_DELAY_SECONDS
    return secrets.SystemRandom().uniform(low, high)


def _tasks_run_inline() -> bool:
    return bool(celery_app.conf.task_always_eager)


def _bot_deadline_seconds(game: Game) -> float:
    """The clock of a bot's turn. With a broker the task moves the bot after its delay and the
    deadline is only the safety net, a little later; without one the sweep is what moves it."""
    grace = 0.0 if _tasks_run_inline() else settings.BOT_GRACE_SECONDS
    return _bot_delay_seconds(game) + grace


def bots_to_ask(state: Any, seats: list[Seat]) -> list[tuple[Seat, frozenset[str] | None]]:
    """Bot seats to ask now and what each may do (games.bots.schedule: a bot holding one card
    says UNO first, bots off turn may catch, then the bot on turn moves)."""
    by_position = {
        s.position: s for s in seats if s.is_bot and s.position is not None and s.left_at is None
    }
    if not by_position:
        return []
    return [(by_position[p], allowed) for p, allowed in schedule.to_ask(state, by_position)]


def schedule_bots(game: Game, state: Any, seats: list[Seat]) -> None:
    """Queue the bots' next move once this one is committed (caller holds the game lock)."""
    if game.status != Game.ACTIVE or _tasks_run_inline():
        return
    if not bots_to_ask(state, seats):
        return
    countdown = _bot_delay_seconds(game)
    transaction.on_commit(partial(_queue_bot_move, game.pk, game.version, countdown))


def _queue_bot_move(game_id: Any, version: int, countdown: float) -> None:
    try:
        # Capped: a delayed message waits in the broker, and only short waits are safe there.
        task_named("games.tasks.bot_move").apply_async(
            (str(game_id), version), countdown=min(countdown, 10)
        )
    except Exception:  # the broker is down: the sweep moves a bot on turn at its deadline
        logger.warning("could not queue a bot move for game %s", game_id, exc_info=True)
