"""The notifications app's periodic jobs (registered from ``NotificationsConfig.ready``)."""

from __future__ import annotations

# name -> (interval in seconds, dotted path of the Celery task)
JOBS: dict[str, tuple[float, str]] = {
    # The relay sweep sends what the per-commit relay missed (Redis was down, a worker died,
    # quiet hours ended, a retry is due); reminders before turn deadlines.
    "notifications-relay": (5.0, "notifications.tasks.relay"),
    "notifications-reminders": (30.0, "notifications.tasks.send_reminders"),
    # Retention: old notifications and webhook logs are deleted hourly.
    "notifications-prune": (3600.0, "notifications.tasks.prune"),
}
