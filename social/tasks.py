"""Celery tasks of the social app: small, they call a service that re-reads the database."""

from __future__ import annotations

from celery import shared_task

from social import services


@shared_task(name="social.tasks.expire_challenges")
def expire_challenges() -> int:
    """Close pending challenges past their expiry. Idempotent: a closed one is not touched."""
    return services.expire_challenges()
