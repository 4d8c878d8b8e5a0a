"""The "you were paired" notice: once a quick-pairing match has committed, the worker tells every
player of its group, on their channels under their preferences, quiet hours and digests
(notification kind ``paired``) and on their account event stream (every notification is one
of its events). Out of the match's transaction: posting a seek is the hot path
(docs/performance.md, "Quick pairing"), and a notice is no part of the game's start."""

from __future__ import annotations

import logging
from functools import partial
from typing import Any

from django.db import transaction

from config.celery import task_named
from games.models import Game
from notifications import services as notifications
from social.models import Seek

logger = logging.getLogger(__name__)


def after_commit(game_id: Any) -> None:
    """Queue the notice of ``game_id``'s pairing once the caller's transaction commits."""
    transaction.on_commit(partial(_queue, game_id), robust=True)


def _queue(game_id: Any) -> None:
    try:
        task_named("social.tasks.notify_paired").delay(str(game_id))
    except Exception:  # the broker is down: tell them now rather than never
        logger.warning("could not queue the paired notice of game %s", game_id, exc_info=True)
        notify_paired(game_id)


def notify_paired(game_id: Any) -> int:
    """Notify the players whose seeks ``game_id`` matched. Safe to repeat (one notice per game
    and player). Returns the notices written."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return 0
    seeks = Seek.objects.filter(game=game, status=Seek.MATCHED).select_related("user")
    players = [seek.user for seek in seeks.order_by("created_at", "pk")]
    return len(notifications.notify_paired(game=game, players=players))
