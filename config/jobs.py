"""Periodic jobs, declared by each app and run by whichever scheduler the deployment has.

Each app lists its own jobs (``games/jobs.py``, ``notifications/jobs.py``, ...) and registers them
from its ``AppConfig.ready()``. ``register`` hands a job to both schedulers: Celery beat (with
Redis, through the Celery app's ``beat_schedule``; a worker runs the task) and the web process's
background thread (without Redis, ``config/background.py`` calls the same task function). Settings
import no app code, so the schedule is collected here at app-ready time, not in settings.

Every job re-reads the database and is safe to run late or twice.
"""

from __future__ import annotations

from importlib import import_module

from config import background
from config.celery import app as celery_app


def register(name: str, every: float, task: str) -> None:
    """Schedule the Celery task at dotted path ``task`` every ``every`` seconds under ``name``.

    Idempotent by name: ``ready()`` may run more than once.
    """
    module, _, attr = task.rpartition(".")
    background.register(name, every, getattr(import_module(module), attr))
    schedule = dict(celery_app.conf.beat_schedule or {})
    # A periodic run that waited longer than its own interval is stale: the next one is already
    # queued. Expiring it keeps a worker outage from leaving a pile of sweeps to chew through.
    schedule[name] = {"task": task, "schedule": every, "options": {"expires": every}}
    celery_app.conf.beat_schedule = schedule


def register_all(jobs: dict[str, tuple[float, str]]) -> None:
    """``register`` each of ``jobs`` (name -> (interval in seconds, dotted task path))."""
    for name, (every, task) in jobs.items():
        register(name, every, task)
