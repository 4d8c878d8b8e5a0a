"""Health check of Celery beat, for docker-compose.yml: ``python -m config.healthcheck beat``.

Beat answers no requests, so nothing can ask it whether it is alive. What shows it is its
schedule file (``CELERY_BEAT_SCHEDULE_FILENAME``): beat rewrites it every ``CELERY_BEAT_SYNC_EVERY``
sent tasks and at least every 3 minutes, and the turn-timer sweep alone is sent every second. A
file older than ``--max-age`` seconds means beat is stuck or gone, and no turn timer fires.

Exit status 0 when healthy, 1 (with the reason on stderr) when not.
"""

from __future__ import annotations

import argparse
import glob
import os
import sys
import time

# Longer than beat's longest gap between two writes (3 minutes) with room to spare.
DEFAULT_MAX_AGE_SECONDS = 300


def schedule_age(filename: str, now: float | None = None) -> float | None:
    """Seconds since beat last wrote its schedule, or None when there is no schedule file.

    The file's name may carry a suffix the dbm module adds (``.db``; ``.dat``/``.dir`` for
    dbm.dumb), so every file that starts with the configured name counts."""
    times = [os.path.getmtime(path) for path in glob.glob(glob.escape(filename) + "*")]
    if not times:
        return None
    return (time.time() if now is None else now) - max(times)


def check_beat(filename: str, max_age: float) -> str | None:
    """None when beat is healthy, otherwise why not."""
    age = schedule_age(filename)
    if age is None:
        return f"no beat schedule file at {filename}*"
    if age > max_age:
        return f"beat last wrote its schedule {age:.0f} s ago (more than {max_age:.0f} s)"
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m config.healthcheck", description=__doc__)
    parser.add_argument("process", choices=["beat"])
    parser.add_argument("--max-age", type=float, default=DEFAULT_MAX_AGE_SECONDS)
    args = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    # Reading one setting does not need django.setup() (no apps, no database).
    from django.conf import settings

    problem = check_beat(settings.CELERY_BEAT_SCHEDULE_FILENAME, args.max_age)
    if problem:
        print(problem, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
