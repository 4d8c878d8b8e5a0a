"""The moderation app's periodic jobs (registered from ``ModerationConfig.ready``)."""

from __future__ import annotations

# name -> (interval in seconds, dotted path of the Celery task)
JOBS: dict[str, tuple[float, str]] = {
    # A suspension that ran out is lifted within a minute, not at the next log-in.
    "end-expired-suspensions": (60.0, "moderation.tasks.end_expired_suspensions"),
}
