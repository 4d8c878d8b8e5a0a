"""The social app's periodic jobs (registered from ``SocialConfig.ready``: ``config/jobs.py``)."""

from __future__ import annotations

# name -> (interval in seconds, dotted path of the Celery task)
JOBS: dict[str, tuple[float, str]] = {
    "expire-challenges": (300.0, "social.tasks.expire_challenges"),
}
