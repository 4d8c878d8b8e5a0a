"""The games app's periodic jobs (registered from ``GamesConfig.ready``, see ``config/jobs.py``)."""

from __future__ import annotations

# name -> (interval in seconds, dotted path of the Celery task)
JOBS: dict[str, tuple[float, str]] = {
    "sweep-expired-turns": (1.0, "games.tasks.sweep_expired_turns"),
    "expire-lobbies": (300.0, "games.tasks.expire_lobbies"),
    # Idempotency keys are kept a day; older ones are deleted hourly.
    "prune-idempotency-keys": (3600.0, "games.tasks.prune_idempotency_keys"),
}
