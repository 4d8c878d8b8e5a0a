"""Django settings, read from environment variables through ``config.env``.

The defaults run the whole service on one machine with nothing but Python installed: SQLite in the
project directory, no Redis (local-memory cache, Celery tasks run inline, periodic jobs run in a
thread of the web process). Setting DATABASE_URL and REDIS_URL switches to PostgreSQL, Redis and a
separate Celery worker and beat, which is what docker-compose.yml does.

Every variable is read unconditionally, even when the branch that uses it is not taken, so that the
registry in ``config.env`` always lists the complete set of knobs.
"""

from split_settings.tools import include

# One file per group of settings, executed in this order into this module's namespace (so a
# part may use the names of the parts before it). Each run reads the environment afresh.
include(
    "core.py",
    "database.py",
    "accounts.py",
    "tasks.py",
    "security.py",
    "api.py",
    "email.py",
    "notifications.py",
    "moderation.py",
    "static.py",
    "i18n.py",
    "logs.py",
    "observability.py",
)
