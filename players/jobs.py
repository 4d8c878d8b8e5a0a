"""The players app's periodic jobs (registered from ``PlayersConfig.ready``, see
``config/jobs.py``)."""

from __future__ import annotations

# name -> (interval in seconds, dotted path of the Celery task)
JOBS: dict[str, tuple[float, str]] = {
    # An export asked for is started within this many seconds; the check is one indexed query.
    "build-exports": (2.0, "players.tasks.build_exports"),
    "prune-exports": (3600.0, "players.tasks.prune_exports"),
}
