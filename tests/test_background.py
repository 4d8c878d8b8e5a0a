"""The in-process periodic job runner used when there is no Celery beat."""

from __future__ import annotations

import logging
import threading

import pytest

from config import background
from config.background import Job, Runner


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def no_database() -> None:
    """These jobs never touch the database; pytest-django would refuse the real reset."""


def make_runner(jobs: list[Job], clock: FakeClock) -> Runner:
    return Runner(lambda: jobs, clock=clock, reset_connections=no_database)


def test_a_job_runs_once_per_interval() -> None:
    calls: list[float] = []
    clock = FakeClock()
    runner = make_runner([Job("tick", 5, lambda: calls.append(clock.now))], clock)
    assert runner.run_pending() == []  # first due one interval after start
    clock.now += 5
    assert runner.run_pending() == ["tick"]
    clock.now += 4
    assert runner.run_pending() == []
    clock.now += 1
    assert runner.run_pending() == ["tick"]
    assert calls == [1005.0, 1010.0]


def test_a_long_stall_causes_one_catch_up_run_not_a_burst() -> None:
    calls: list[float] = []
    clock = FakeClock()
    runner = make_runner([Job("tick", 1, lambda: calls.append(clock.now))], clock)
    runner.run_pending()
    clock.now += 60
    runner.run_pending()
    runner.run_pending()
    assert len(calls) == 1


def test_a_failing_job_is_logged_and_the_others_still_run(
    caplog: pytest.LogCaptureFixture,
) -> None:
    def explode() -> None:
        raise RuntimeError("boom")

    calls: list[str] = []
    clock = FakeClock()
    runner = make_runner(
        [Job("bad", 1, explode), Job("good", 1, lambda: calls.append("ok"))], clock
    )
    runner.run_pending()
    clock.now += 1
    with caplog.at_level(logging.ERROR, logger="config.background"):
        assert runner.run_pending() == ["bad", "good"]
        clock.now += 1
        assert runner.run_pending() == ["bad", "good"]
    assert calls == ["ok", "ok"]
    assert "Background job bad failed" in caplog.text


def test_registering_the_same_name_twice_replaces_the_job() -> None:
    def first() -> None: ...
    def second() -> None: ...

    try:
        background.register("test-job", 1, first)
        background.register("test-job", 2, second)
        jobs = [job for job in background.registered_jobs() if job.name == "test-job"]
        assert jobs == [Job("test-job", 2.0, second)]
    finally:
        background.unregister("test-job")


def test_a_non_positive_interval_is_refused() -> None:
    with pytest.raises(ValueError, match="interval_seconds must be positive"):
        background.register("never", 0, lambda: None)


def test_the_thread_keeps_running_after_a_job_fails() -> None:

    ran = threading.Event()
    attempts: list[int] = []

    def flaky() -> None:
        attempts.append(1)
        if len(attempts) == 1:
            raise RuntimeError("first call fails")
        ran.set()

    runner = Runner(
        lambda: [Job("flaky", 0.01, flaky)], tick_seconds=0.01, reset_connections=no_database
    )
    thread = threading.Thread(target=runner.run_forever, daemon=True)
    thread.start()
    try:
        assert ran.wait(timeout=5), "the loop died after the first failure"
    finally:
        runner.stop_event.set()
        thread.join(timeout=5)
    assert not thread.is_alive()
