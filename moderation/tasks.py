"""Celery tasks of the moderation app: small, idempotent, safe to run late or twice."""

from __future__ import annotations

from celery import shared_task

from moderation import services


@shared_task(name="moderation.tasks.end_expired_suspensions")
def end_expired_suspensions() -> int:
    """Reopen the accounts whose suspensions have run out (see services.end_expired_suspensions)."""
    return services.end_expired_suspensions()
