"""The notifications app's answers to the games app's signals (connected in
``NotificationsConfig.ready``). They run inside the game's transaction, with its row locked, and
only write rows (the outbox): delivery happens after commit."""

from __future__ import annotations

from typing import Any

from games import signals as game_signals
from notifications import outbox, services


def record_move(**kwargs: Any) -> None:
    outbox.record_move(
        game=kwargs["game"],
        move=kwargs["move"],
        state=kwargs["state"],
        events=kwargs["events"],
        seats=kwargs["seats"],
        turn_passed=kwargs["turn_passed"],
    )


def notify_invited(**kwargs: Any) -> None:
    services.notify_invited(user=kwargs["user"], game=kwargs["game"], by=kwargs["by"])


def connect() -> None:
    game_signals.move_applied.connect(record_move, dispatch_uid="notifications.record_move")
    game_signals.player_invited.connect(notify_invited, dispatch_uid="notifications.invited")
