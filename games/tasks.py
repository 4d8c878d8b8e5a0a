"""Celery tasks of the games app: small, take ids, re-check state, call services."""

from __future__ import annotations

from celery import shared_task

from games import idempotency, services


@shared_task(name="games.tasks.expire_lobbies")
def expire_lobbies() -> int:
    """Close lobbies past their expiry. Idempotent: a closed lobby is not closed again."""
    return services.expire_lobbies()


@shared_task(name="games.tasks.prune_idempotency_keys")
def prune_idempotency_keys() -> int:
    """Forget Idempotency-Keys past IDEMPOTENCY_KEY_DAYS."""
    return idempotency.prune()


@shared_task(name="games.tasks.sweep_expired_turns")
def sweep_expired_turns() -> int:
    """Time out overdue turns. The deadline lives in the database, never in the broker."""
    return services.sweep_expired_turns()


@shared_task(name="games.tasks.bot_move", ignore_result=True)
def bot_move(game_id: str, version: int) -> bool:
    """A bot's move, queued on commit of the move that left it something to do.

    Re-checks under the game's lock that the game is still at ``version``: a late or repeated
    task does nothing. A lost one is covered by the bot's short turn deadline (the sweep)."""
    return services.bot_move(game_id=game_id, version=version)
