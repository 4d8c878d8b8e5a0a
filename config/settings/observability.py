"""Watching it run: metrics and the error reporter (docs/deploy.md).

Included by ``config/settings/__init__.py`` into one namespace: names from the parts
included before this one are in scope."""

from __future__ import annotations

from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

from config.env import env_int, env_str, env_url

METRICS_TOKEN = env_str(
    "METRICS_TOKEN",
    default="",
    help="Bearer token Prometheus must send to GET /metrics (and a worker's port). Unset: off.",
)
# prometheus_client reads this itself, at import; it is read here too so that it is documented
# and checked with the other settings.
PROMETHEUS_MULTIPROC_DIR = env_str(
    "PROMETHEUS_MULTIPROC_DIR",
    default="",
    help="An empty directory where each process of a kind (gunicorn's workers) writes its metrics.",
)
if PROMETHEUS_MULTIPROC_DIR and not Path(PROMETHEUS_MULTIPROC_DIR).is_dir():
    raise ImproperlyConfigured("PROMETHEUS_MULTIPROC_DIR must be an existing directory.")
# Not CELERY_…: Celery reads every setting of that prefix as one of its own.
WORKER_METRICS_PORT = env_int(
    "WORKER_METRICS_PORT",
    default=0,
    min_value=0,
    help="A Celery worker answers Prometheus on this port (0: not at all).",
)

SENTRY_DSN = env_url(
    "SENTRY_DSN",
    default=None,
    schemes=("http", "https"),
    help="Report unhandled errors of views and tasks to this Sentry DSN. Unset: no reporter.",
)
SENTRY_ENVIRONMENT = env_str(
    "SENTRY_ENVIRONMENT", default="production", help="The environment errors are reported under."
)
SENTRY_RELEASE = env_str(
    "SENTRY_RELEASE", default="", help="The release errors are reported under (e.g. a git tag)."
)
if SENTRY_DSN:
    # Only then: sentry_sdk and its integrations are not even loaded without a DSN.
    from config import sentry

    sentry.init(dsn=SENTRY_DSN, environment=SENTRY_ENVIRONMENT, release=SENTRY_RELEASE)
