"""What the outbox looks like at a scrape: how many deliveries wait, and how late the most
overdue one is. Read when Prometheus scrapes (config/metrics.py), one query each, both answered
from the partial index of due deliveries (``delivery_due``)."""

from __future__ import annotations

import logging
from collections.abc import Iterator

from django.db import DatabaseError
from django.db.models import Min
from django.utils import timezone
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.metrics_core import Metric

from config.metrics import PREFIX
from notifications.models import Delivery

logger = logging.getLogger(__name__)


class OutboxCollector:
    def collect(self) -> Iterator[Metric]:
        waiting = Delivery.objects.filter(status__in=Delivery.DUE)
        try:
            backlog = waiting.count()
            oldest = waiting.aggregate(oldest=Min("next_attempt_at"))["oldest"]
        except DatabaseError as exc:
            # A scrape during a database outage still returns the processes' counters.
            logger.warning("Outbox metrics unavailable: %s", exc.__class__.__name__)
            return
        yield GaugeMetricFamily(
            f"{PREFIX}_outbox_backlog",
            "Deliveries waiting to be sent (due now, retrying later, or held for quiet hours).",
            value=backlog,
        )
        # Held and retried rows are due later: only a time already past is lateness.
        late = (timezone.now() - oldest).total_seconds() if oldest is not None else 0.0
        yield GaugeMetricFamily(
            f"{PREFIX}_outbox_oldest_due_seconds",
            "How long the most overdue waiting delivery has been due (0: none is overdue).",
            value=max(late, 0.0),
        )
