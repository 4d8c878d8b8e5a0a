"""Celery tasks of the notifications app: small, idempotent, safe to run late or twice."""

from __future__ import annotations

from celery import shared_task

from notifications import relay as relay_module
from notifications import reminders


@shared_task(name="notifications.tasks.relay")
def relay(delivery_ids: list[int] | None = None) -> int:
    """Send due deliveries (only ``delivery_ids`` when given: queued after a commit). Run
    periodically without ids as the sweep that catches everything else."""
    return relay_module.relay(delivery_ids=delivery_ids)


@shared_task(name="notifications.tasks.send_reminders")
def send_reminders() -> int:
    """Write due deadline reminders (their e-mails go out through the relay)."""
    return reminders.send_reminders()
