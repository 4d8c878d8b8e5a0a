"""The worker and beat stay quiet about periodic jobs that found nothing to do.

A worker at INFO logs "received" and "succeeded" for every task, and beat "Sending due task" for
every send; the turn-timer sweep runs every second. ``config.celery.QuietPeriodicJobs`` keeps the
lines that say something: a job that acted, any failure.
"""

from __future__ import annotations

import logging
import uuid
from datetime import timedelta
from typing import Any

import pytest
from celery.app.trace import LOG_RECEIVED
from django.utils import timezone

from config.celery import app
from games import services
from games.models import Game
from tests.games.factories import started_game, user

SWEEP = "games.tasks.sweep_expired_turns"


def run_like_a_worker(name: str) -> None:
    """Run a task through Celery's tracer, which writes the "succeeded" or "raised" line a
    worker writes, after the "received" line a worker's consumer writes (same arguments)."""
    context = {"id": str(uuid.uuid4()), "name": name, "args": "()", "kwargs": "{}", "eta": None}
    logging.getLogger("celery.worker.strategy").info(LOG_RECEIVED, context)
    app.tasks[name].apply(throw=False)


def beat_sends(name: str, task: str) -> None:
    # What celery.beat.Scheduler.apply_entry logs for each send.
    logging.getLogger("celery.beat").info("Scheduler: Sending due task %s (%s)", name, task)


def celery_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name.startswith("celery")]


@pytest.fixture
def info_logs(caplog: pytest.LogCaptureFixture) -> pytest.LogCaptureFixture:
    caplog.set_level(logging.INFO)
    return caplog


def _overdue_game() -> Game:
    game = started_game(host=user("alice"), guest=user("bob"), turn_seconds=60)
    Game.objects.filter(pk=game.pk).update(turn_deadline=timezone.now() - timedelta(seconds=5))
    return game


@pytest.mark.django_db
def test_a_sweep_with_nothing_due_logs_nothing(info_logs: pytest.LogCaptureFixture) -> None:
    run_like_a_worker(SWEEP)
    beat_sends("sweep-expired-turns", SWEEP)

    assert celery_lines(info_logs) == []


@pytest.mark.django_db
def test_a_sweep_that_timed_out_a_turn_logs_one_line(info_logs: pytest.LogCaptureFixture) -> None:
    _overdue_game()

    run_like_a_worker(SWEEP)

    lines = celery_lines(info_logs)
    assert len(lines) == 1, lines
    assert SWEEP in lines[0] and "succeeded" in lines[0] and lines[0].endswith(": 1")


@pytest.mark.django_db
def test_a_failing_sweep_is_still_logged(
    info_logs: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(**_: object) -> int:
        raise RuntimeError("the sweep broke")

    monkeypatch.setattr(services, "sweep_expired_turns", broken)

    run_like_a_worker(SWEEP)

    failures = [r for r in info_logs.records if r.levelno >= logging.ERROR]
    assert failures and "the sweep broke" in failures[0].getMessage()


def test_beat_still_logs_the_jobs_it_sends_rarely(info_logs: pytest.LogCaptureFixture) -> None:
    beat_sends("prune-idempotency-keys", "games.tasks.prune_idempotency_keys")

    assert celery_lines(info_logs) == [
        "Scheduler: Sending due task prune-idempotency-keys (games.tasks.prune_idempotency_keys)"
    ]


@pytest.mark.django_db
def test_log_periodic_jobs_keeps_every_line(
    info_logs: pytest.LogCaptureFixture, settings: Any
) -> None:
    settings.LOG_PERIODIC_JOBS = True

    run_like_a_worker(SWEEP)
    beat_sends("sweep-expired-turns", SWEEP)

    lines = celery_lines(info_logs)
    assert [line.split("[")[0] for line in lines[:2]] == [f"Task {SWEEP}"] * 2
    assert lines[2].startswith("Scheduler: Sending due task sweep-expired-turns")


def test_other_tasks_keep_their_lines(info_logs: pytest.LogCaptureFixture) -> None:
    context = {"id": "1", "name": "notifications.tasks.send_one", "args": "()", "kwargs": "{}"}
    logging.getLogger("celery.worker.strategy").info(LOG_RECEIVED, context)

    assert celery_lines(info_logs) == ["Task notifications.tasks.send_one[1] received"]
