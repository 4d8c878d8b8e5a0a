"""Periodic jobs that run inside the web process when there is no Redis.

With Redis, Celery beat schedules periodic work and workers run it. In the embedded mode (one
machine, SQLite, no Redis) there is no beat, yet timers such as turn deadlines must still fire.
``serve`` therefore starts ``start()``'s daemon thread, which calls every registered job on its
interval.

Jobs must be safe to run late, twice, or concurrently with a Celery worker doing the same job:
they re-read state from the database and act only on what is still due. The loop gives no stronger
guarantee than "roughly every interval while the process lives".

Register jobs from an ``AppConfig.ready()``, for example::

    background.register("turn-timer-sweep", 1.0, sweep_expired_turns)
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from django.db import close_old_connections

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Job:
    name: str
    interval_seconds: float
    func: Callable[[], object]


_jobs: dict[str, Job] = {}
_jobs_lock = threading.Lock()
_runner: Runner | None = None
_runner_lock = threading.Lock()


def register(name: str, interval_seconds: float, func: Callable[[], object]) -> None:
    """Add or replace the job called ``name``.

    Replacing by name keeps registration idempotent: ``ready()`` can run more than once (tests,
    autoreload) and must not make a job fire twice as often.
    """
    if interval_seconds <= 0:
        raise ValueError(f"interval_seconds must be positive, got {interval_seconds!r}")
    with _jobs_lock:
        _jobs[name] = Job(name=name, interval_seconds=float(interval_seconds), func=func)


def unregister(name: str) -> None:
    """Remove a job; unknown names are ignored."""
    with _jobs_lock:
        _jobs.pop(name, None)


def registered_jobs() -> list[Job]:
    """A snapshot of the registered jobs, in registration order."""
    with _jobs_lock:
        return list(_jobs.values())


class Runner:
    """Calls due jobs. ``run_pending`` is the whole scheduling logic; the thread only loops it."""

    def __init__(
        self,
        jobs: Callable[[], list[Job]] = registered_jobs,
        *,
        tick_seconds: float = 0.5,
        clock: Callable[[], float] = time.monotonic,
        reset_connections: Callable[[], None] = close_old_connections,
    ) -> None:
        self._jobs = jobs
        self._tick = tick_seconds
        self._clock = clock
        self._reset_connections = reset_connections
        self._next_run: dict[str, float] = {}
        self.stop_event = threading.Event()

    def run_pending(self) -> list[str]:
        """Run every job whose interval has elapsed; return the names that ran.

        A job is first due one interval after it is first seen, not immediately: the process may
        be starting and migrations may have just run.
        """
        ran = []
        for job in self._jobs():
            now = self._clock()
            due = self._next_run.setdefault(job.name, now + job.interval_seconds)
            if now < due:
                continue
            # Schedule from "now", not from "due": after a long stall (debugger, suspended
            # laptop) we want one catch-up run, not a burst of every missed one.
            self._next_run[job.name] = now + job.interval_seconds
            self._run_one(job)
            ran.append(job.name)
        return ran

    def _run_one(self, job: Job) -> None:
        # The thread outlives requests, so it must drop connections the database has closed,
        # as the request cycle does for views.
        self._reset_connections()
        try:
            job.func()
        except Exception:
            # One failing job must never stop the loop: the next tick, or another job, may be
            # the one that matters.
            logger.exception("Background job %s failed", job.name)
        finally:
            self._reset_connections()

    def run_forever(self) -> None:
        logger.info("Background jobs: runner started")
        while not self.stop_event.is_set():
            try:
                self.run_pending()
            except Exception:
                # Only reachable through a broken job list or clock; keep going all the same.
                logger.exception("Background job runner tick failed")
            self.stop_event.wait(self._tick)


def start(*, tick_seconds: float = 0.5) -> Runner:
    """Start the runner in a daemon thread, once per process; later calls return the same one.

    Daemon, so it never keeps the process alive after the server has shut down.
    """
    global _runner
    with _runner_lock:
        if _runner is None:
            _runner = Runner(tick_seconds=tick_seconds)
            thread = threading.Thread(
                target=_runner.run_forever, name="background-jobs", daemon=True
            )
            thread.start()
        return _runner
