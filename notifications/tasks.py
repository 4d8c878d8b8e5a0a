"""Celery tasks of the notifications app: small, idempotent, safe to run late or twice."""

from __future__ import annotations

from celery import shared_task

from notifications import relay as relay_module
from notifications import reminders, retention
from notifications.channels import webhook


@shared_task(name="notifications.tasks.relay")
def relay(delivery_ids: list[int] | None = None) -> int:
    """Send due deliveries (only ``delivery_ids`` when given: queued after a commit). Run
    periodically without ids as the sweep that catches everything else (webhook test events
    that are due for a retry too)."""
    sent = relay_module.relay(delivery_ids=delivery_ids)
    if delivery_ids is None:
        sent += webhook.send_due_tests()
    return sent


@shared_task(name="notifications.tasks.send_webhook_tests")
def send_webhook_tests(ids: list[int]) -> int:
    """Send webhook test events right after the request that queued them committed."""
    return webhook.send_due_tests(ids=ids)


@shared_task(name="notifications.tasks.send_reminders")
def send_reminders() -> int:
    """Write due deadline reminders (their e-mails go out through the relay)."""
    return reminders.send_reminders()


@shared_task(name="notifications.tasks.prune")
def prune() -> dict[str, int]:
    """Delete inbox rows, deliveries and webhook logs past their retention."""
    return retention.prune()
