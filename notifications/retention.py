"""Retention: old inbox rows, their finished deliveries and webhook logs are deleted, so these
tables do not grow without end (settings NOTIFICATION_RETENTION_DAYS, WEBHOOK_LOG_RETENTION_DAYS).

Nothing still owed is deleted: a notification with a delivery that is due, held or being sent
stays until it is finished, and so does a webhook delivery that will be retried. Deletes go in
batches of the oldest rows by id (ids grow with time), so each statement is short and walks the
primary key from its start instead of scanning the table.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone

from config.db import delete_in_batches
from notifications.models import Delivery, Notification, WebhookAttempt, WebhookDelivery


def prune(now: datetime | None = None) -> dict[str, int]:
    """Delete what is past its retention; returns how many rows of each kind went."""
    now = now or timezone.now()
    inbox_cutoff = now - timedelta(days=settings.NOTIFICATION_RETENTION_DAYS)
    log_cutoff = now - timedelta(days=settings.WEBHOOK_LOG_RETENTION_DAYS)
    unfinished = [*Delivery.DUE, Delivery.SENDING]
    return {
        "notifications": delete_in_batches(
            Notification.objects.filter(created_at__lt=inbox_cutoff).exclude(
                deliveries__status__in=unfinished
            )
        ),
        "webhook_deliveries": delete_in_batches(
            WebhookDelivery.objects.filter(
                created_at__lt=log_cutoff,
                status__in=[WebhookDelivery.SENT, WebhookDelivery.FAILED],
            )
        ),
        "webhook_attempts": delete_in_batches(WebhookAttempt.objects.filter(at__lt=log_cutoff)),
    }
