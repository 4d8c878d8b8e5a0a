"""The Celery application used by `celery -A config worker` and `celery -A config beat`."""

import logging
import os
import time
from datetime import timedelta
from typing import Any

from celery import Celery, signals
from celery import Task as BaseTask
from celery.app.trace import LOG_RECEIVED, LOG_SUCCESS
from django.conf import settings

from config import logs, metrics

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")


class Task(BaseTask):  # type: ignore[misc]
    """Tasks the service sends are fire-and-forget: nothing in it waits for their results.

    Sent without ``ignore_result``, Celery first subscribes the sending process to the task's
    result on the Redis result backend; with Redis down that subscription retries for about 20
    seconds (then breaks the backend for good), so a move that queues a notification relay would
    hang instead of failing fast. A caller that does want the result passes
    ``ignore_result=False``.
    """

    def apply_async(self, *args: Any, **options: Any) -> Any:
        options.setdefault("ignore_result", True)
        return super().apply_async(*args, **options)


app = Celery("config", task_cls=Task)
# All Celery options live in Django settings with a CELERY_ prefix, so they are read from the
# environment through config.env like everything else.
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


# Celery's own log lines for the periodic jobs: a worker logs "received" and "succeeded" for
# every task and beat logs "Sending due task" for every send, at INFO. With a sweep every second
# that is some 170,000 lines a day that say nothing happened. Quiet when there was nothing to do.
QUIET_BELOW_SECONDS = 60.0
"""Beat's "Sending due task" line is dropped for jobs run more often than this."""
_NOTHING_DONE = frozenset({"0", "None", "False", "[]", "{}", "()"})


class QuietPeriodicJobs(logging.Filter):
    """Drops Celery's INFO lines about the periodic jobs of ``CELERY_BEAT_SCHEDULE`` unless they
    say something: a job's "succeeded" line stays when the job returned a count above 0 (it
    acted), failures and retries always stay (they are other messages, and WARNING or ERROR);
    "received" goes (the outcome line follows it), and so does beat's "Sending due task" for a
    job that runs every few seconds."""

    def __init__(self, celery_app: Celery) -> None:
        super().__init__()
        self.app = celery_app
        self._cached: dict[str, float] | None = None

    def _jobs(self) -> dict[str, float]:
        # Task name -> interval, read once the settings are loaded (not at import).
        if self._cached is None:
            jobs = {}
            for entry in (self.app.conf.beat_schedule or {}).values():
                every = entry["schedule"]
                seconds = every.total_seconds() if isinstance(every, timedelta) else every
                if isinstance(seconds, int | float):
                    jobs[entry["task"]] = float(seconds)
            self._cached = jobs
        return self._cached

    def says_nothing(self, name: str, return_value: Any) -> bool:
        """A periodic job's run that did nothing (config.celery's own line for each task)."""
        return (
            not settings.LOG_PERIODIC_JOBS
            and name in self._jobs()
            and str(return_value) in _NOTHING_DONE
        )

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno != logging.INFO or settings.LOG_PERIODIC_JOBS:
            return True
        args = record.args
        if isinstance(args, dict) and args.get("name") in self._jobs():
            if record.msg == LOG_RECEIVED:
                return False
            if record.msg == LOG_SUCCESS:
                return str(args.get("return_value")) not in _NOTHING_DONE
        if (
            isinstance(args, tuple)
            and isinstance(record.msg, str)
            and record.msg.startswith("Scheduler: Sending due task")
        ):
            every = self._jobs().get(str(args[-1]))
            return every is None or every >= QUIET_BELOW_SECONDS
        return True


def quiet_periodic_jobs(celery_app: Celery) -> QuietPeriodicJobs:
    """Install the filter on the loggers Celery writes those lines with. A filter on a logger
    (not a handler) sees only that logger's own records and survives Celery's and Django's
    logging set-up, which replace handlers."""
    quiet = QuietPeriodicJobs(celery_app)
    for name in ("celery.worker.strategy", "celery.app.trace", "celery.beat"):
        logger = logging.getLogger(name)
        for old in [f for f in logger.filters if isinstance(f, QuietPeriodicJobs)]:
            logger.removeFilter(old)
        logger.addFilter(quiet)
    return quiet


_quiet = quiet_periodic_jobs(app)


def task_named(name: str) -> Any:
    """The registered task ``name``, queued (``apply_async``) by a module that the task's own
    module imports: a service queues its app's task after commit, and the task calls the service,
    so the service names the task instead of importing it. Looked up in the app's registry, so
    ``task_always_eager`` (embedded mode) still runs it inline, which ``send_task`` would not."""
    return app.tasks[name]


# --- Watching it run: the request id, one log line and the metrics per task -------------------

task_logger = logging.getLogger("config.tasks")
_running: dict[str, tuple[Any, float]] = {}


@signals.before_task_publish.connect
def _carry_request_id(headers: dict[str, Any] | None = None, **kwargs: Any) -> None:
    """A task queued while serving a request (or running a task) carries that request's id in
    its message's headers, so the worker's lines about it name the request that caused it."""
    request_id = logs.current_request_id()
    if request_id and headers is not None:
        headers.setdefault("request_id", request_id)


@signals.task_prerun.connect
def _task_started(task_id: str, task: Any, **kwargs: Any) -> None:
    # A worker reads the id from the message's headers; a task run inline (no broker) is still
    # inside the request that queued it, and keeps its id.
    request_id = logs.sane_request_id(getattr(task.request, "request_id", None))
    token = logs.bind_request_id(request_id or logs.current_request_id())
    _running[task_id] = (token, time.perf_counter())


@signals.task_postrun.connect
def _task_finished(
    task_id: str, task: Any, state: str | None = None, retval: Any = None, **kwargs: Any
) -> None:
    started = _running.pop(task_id, None)
    if started is None:
        return
    token, start = started
    seconds = time.perf_counter() - start
    # No state: the task raised and was run inline with its exception propagated.
    outcome = state or "FAILURE"
    metrics.TASKS.labels(task=task.name, outcome=outcome).inc()
    metrics.TASK_SECONDS.labels(task=task.name).observe(seconds)
    duration_ms = round(seconds * 1000, 1)
    # Quiet about the periodic jobs that found nothing to do, as Celery's own lines are.
    if outcome != "SUCCESS" or not _quiet.says_nothing(task.name, retval):
        _log_task(task.name, task_id, outcome, duration_ms)
    logs.unbind_request_id(token)


def _log_task(name: str, task_id: str, outcome: str, duration_ms: float) -> None:
    task_logger.info(
        "%s %s %.1fms",
        name,
        outcome,
        duration_ms,
        extra={"task": name, "task_id": task_id, "outcome": outcome, "duration_ms": duration_ms},
    )


@signals.after_setup_logger.connect
@signals.after_setup_task_logger.connect
def _json_celery_logs(logger: logging.Logger, **kwargs: Any) -> None:
    """With LOG_FORMAT=json, the lines Celery writes through its own handlers (the worker's and
    beat's start-up, "received", "succeeded", beat's sends) are JSON too, with the request id."""
    if settings.LOG_FORMAT != "json":
        return
    for handler in logger.handlers:
        handler.setFormatter(logs.json_formatter())
        handler.addFilter(logs.RequestIdFilter())


@signals.worker_init.connect
def _serve_metrics(**kwargs: Any) -> None:
    """The worker's scrape port (WORKER_METRICS_PORT), in its main process only."""
    if settings.WORKER_METRICS_PORT:
        if not metrics.multiprocess():
            logging.getLogger(__name__).warning(
                "WORKER_METRICS_PORT without PROMETHEUS_MULTIPROC_DIR: the tasks of a prefork "
                "pool's processes are not counted on that port"
            )
        metrics.serve_worker_metrics(settings.WORKER_METRICS_PORT)
