"""Celery tasks of the social app: small, they call a service that re-reads the database."""

from __future__ import annotations

from celery import shared_task

from social import paired, pairing, services


@shared_task(name="social.tasks.expire_challenges")
def expire_challenges() -> int:
    """Close pending challenges past their expiry. Idempotent: a closed one is not touched."""
    return services.expire_challenges()


@shared_task(name="social.tasks.pair_seeks")
def pair_seeks() -> int:
    """Close expired seeks, then match the open ones again. Idempotent: each pool's matching
    holds its lock and claims seeks by their status."""
    pairing.expire_seeks()
    return pairing.pair_waiting()


@shared_task(name="social.tasks.notify_paired")
def notify_paired(game_id: str) -> int:
    """Tell the players a quick-pairing match seated in ``game_id``. Idempotent: one notice
    per game and player."""
    return paired.notify_paired(game_id)
