"""Logging.

Included by ``config/settings/__init__.py`` into one namespace: names from the parts
included before this one are in scope."""

from __future__ import annotations

from django.core.exceptions import ImproperlyConfigured

from config.env import env_bool, env_str

LOG_LEVEL = env_str(
    "LOG_LEVEL", default="INFO", help="Log level of the service's own loggers (DEBUG, INFO, ...)."
).upper()
if LOG_LEVEL not in {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}:
    # Checked here so the message names the variable; logging's own error would not.
    raise ImproperlyConfigured("LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL.")

# The worker and beat log nothing about a periodic job's run that found nothing to do
# (config/celery.py); the timer sweep alone runs every second.
LOG_PERIODIC_JOBS = env_bool(
    "LOG_PERIODIC_JOBS",
    default=False,
    help="Log every run of the periodic jobs (worker and beat), also those that did nothing.",
)

LOG_FORMAT = env_str(
    "LOG_FORMAT",
    default="text",
    help="Log lines as text (readable) or json (one JSON object per line, for a log collector).",
).lower()
if LOG_FORMAT not in {"text", "json"}:
    raise ImproperlyConfigured("LOG_FORMAT must be text or json.")

# Every record carries the id of the request or task that wrote it (config/logs.py); the JSON
# lines add the fields a record was given (a request's route, status, duration_ms, user_id).
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"request_id": {"()": "config.logs.RequestIdFilter"}},
    "formatters": {
        "text": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"},
        "json": {
            "()": "pythonjsonlogger.json.JsonFormatter",
            "fmt": "%(asctime)s %(levelname)s %(name)s %(message)s %(request_id)s",
            "rename_fields": {"asctime": "time", "levelname": "level", "name": "logger"},
        },
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": LOG_FORMAT,
            "filters": ["request_id"],
        },
    },
    "root": {"handlers": ["console"], "level": "WARNING"},
    "loggers": {
        name: {"level": LOG_LEVEL, "handlers": ["console"], "propagate": False}
        for name in ("config", "games", "players", "notifications")
    },
}
