"""The social app's periodic jobs (registered from ``SocialConfig.ready``: ``config/jobs.py``)."""

from __future__ import annotations

# name -> (interval in seconds, dotted path of the Celery task)
JOBS: dict[str, tuple[float, str]] = {
    "expire-challenges": (300.0, "social.tasks.expire_challenges"),
    # Quick pairing: seeks past their expiry close, then every pool is matched again with the
    # windows widened by the wait (social/pairing.py).
    "pair-seeks": (60.0, "social.tasks.pair_seeks"),
}
