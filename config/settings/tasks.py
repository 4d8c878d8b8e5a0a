"""Redis, the cache and Celery.

Included by ``config/settings/__init__.py`` into one namespace: names from the parts
included before this one are in scope."""

from __future__ import annotations

import hashlib
import tempfile
from pathlib import Path

from config.env import env_str, env_url

REDIS_URL = env_url(
    "REDIS_URL",
    default=None,
    schemes=("redis", "rediss", "unix"),
    help="Redis URL for cache and Celery. Unset: local-memory cache, tasks run inline.",
)

# Redis pub/sub ignores database numbers: two deployments on one Redis would hear each other's
# games. Their live channels and counters (live/announce.py) carry this prefix, by default one
# derived from the database, which two deployments never share.
_database_identity = "|".join(str(_database.get(k, "")) for k in ("ENGINE", "HOST", "PORT", "NAME"))
LIVE_CHANNEL_PREFIX = env_str(
    "LIVE_CHANNEL_PREFIX",
    default=f"live:{hashlib.blake2b(_database_identity.encode(), digest_size=5).hexdigest()}:",
    help="Prefix of the live updates' Redis channels and keys. Unset: derived from the database.",
)

if REDIS_URL:
    # Fails open (config/cache.py): with Redis down, cache reads miss and throttles let requests
    # through instead of answering 500. Short timeouts so a hung Redis costs little.
    CACHES = {
        "default": {
            "BACKEND": "config.cache.FailOpenRedisCache",
            "LOCATION": REDIS_URL,
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }
    CELERY_BROKER_URL = REDIS_URL
    CELERY_RESULT_BACKEND = REDIS_URL
    CELERY_TASK_ALWAYS_EAGER = False
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    # No broker: run tasks inline in the caller. Periodic jobs run in a thread of the web process
    # instead of Celery beat (see config/background.py and the `serve` command).
    CELERY_BROKER_URL = "memory://"
    CELERY_RESULT_BACKEND = None
    CELERY_TASK_ALWAYS_EAGER = True
# With tasks run inline, account mails (password reset, verification) are sent from a thread of
# their own after commit, so that no response waits on the mail server (players/services.py).
ACCOUNT_MAILS_IN_BACKGROUND = CELERY_TASK_ALWAYS_EAGER
# Inline tasks should fail loudly in development and tests, as they would in a worker's log.
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TIMEZONE = "UTC"
CELERY_TASK_ACKS_LATE = True
# Tasks re-check state before acting, so a redelivered message is harmless; losing one is not.
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True


# The beat schedule is not set here: each app registers its own periodic jobs when it is ready
# (config/jobs.py), so settings import no app code.
# Beat keeps when each job last ran in this file. Not in the working directory (Celery's
# default): the image's /app is read-only for the user beat runs as, and beat would exit with
# PermissionError, so no turn timer would fire. Losing the file only means each job runs once
# more at start-up (every job is safe to run late or twice).
CELERY_BEAT_SCHEDULE_FILENAME = env_str(
    "CELERY_BEAT_SCHEDULE_FILENAME",
    default=str(Path(tempfile.gettempdir()) / "unoallwild-celerybeat-schedule"),
    help="Where Celery beat keeps its schedule (a writable path; a suffix may be added).",
)
# Beat writes the schedule out after this many sent tasks (and every 3 minutes). The sweep is
# sent every second, so the file is rewritten every half minute or so, and its age tells the
# health check that beat is alive (config/healthcheck.py).
CELERY_BEAT_SYNC_EVERY = 30
# Results of the 1-second sweeps are rarely read: keep them an hour, not Celery's default day.
CELERY_RESULT_EXPIRES = 3600
