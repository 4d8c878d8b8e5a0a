"""Periodic jobs of the games app, one table for both schedulers.

With Redis, Celery beat reads ``CELERY_BEAT_SCHEDULE`` (built from this table in settings) and a
worker runs the task; without Redis the web process's background thread calls the same function
(config/background.py). Each job re-reads the database and is safe to run late or twice.
"""

from __future__ import annotations

# name -> (interval in seconds, dotted path of the Celery task)
PERIODIC_JOBS: dict[str, tuple[float, str]] = {
    "sweep-expired-turns": (1.0, "games.tasks.sweep_expired_turns"),
    "expire-lobbies": (300.0, "games.tasks.expire_lobbies"),
    # Notifications: the relay sweep sends what the per-commit relay missed (Redis was down, a
    # worker died, quiet hours ended, a retry is due); reminders before turn deadlines.
    "notifications-relay": (5.0, "notifications.tasks.relay"),
    "notifications-reminders": (30.0, "notifications.tasks.send_reminders"),
    # Moderation: a suspension that ran out is lifted within a minute, not at the next log-in.
    "end-expired-suspensions": (60.0, "moderation.tasks.end_expired_suspensions"),
    # Retention: old notifications, webhook logs and idempotency keys are deleted hourly.
    "notifications-prune": (3600.0, "notifications.tasks.prune"),
    "prune-idempotency-keys": (3600.0, "games.tasks.prune_idempotency_keys"),
}
