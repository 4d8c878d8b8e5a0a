"""How often and how long a delivery is retried, read from settings: shared by the relay and the
webhook channel's test events (which the relay imports, so these live below both)."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings


def max_attempts() -> int:
    return int(getattr(settings, "NOTIFY_MAX_ATTEMPTS", 8))


def backoff(attempts: int) -> timedelta:
    """The wait before the next try after ``attempts`` failed tries: doubling, capped."""
    base = float(getattr(settings, "NOTIFY_RETRY_BASE_SECONDS", 30))
    cap = float(getattr(settings, "NOTIFY_RETRY_MAX_SECONDS", 3600))
    return timedelta(seconds=min(cap, base * 2 ** max(0, attempts - 1)))


def claim_timeout() -> timedelta:
    return timedelta(seconds=int(getattr(settings, "NOTIFY_CLAIM_TIMEOUT_SECONDS", 600)))
