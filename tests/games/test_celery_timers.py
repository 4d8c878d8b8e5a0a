"""Turn timers under a real Celery worker and beat on Redis (not eager, not the web thread).

Each test starts ``celery -A config worker`` (and ``beat`` where it needs one) as subprocesses
against a private ``redis-server`` and the test database, creates games here, and watches the
Move rows the worker writes:

- a 2-second turn limit times out exactly once, within 5 seconds;
- a worker stopped across the deadlines (crash or warm shutdown) and started again applies each
  overdue timeout exactly once, although beat queued a sweep every second meanwhile;
- a burst of concurrent sweeps in two multi-threaded workers applies nothing twice.

Deadlines live in the database and beat sends a sweep every second: the broker never holds a
countdown/ETA task (on Redis, one that outlives the visibility timeout is delivered again).
"""

from __future__ import annotations

import ast
import signal
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import timedelta
from itertools import count, pairwise
from pathlib import Path
from typing import Any

import pytest
from celery import Celery
from django.conf import settings
from django.db import connection
from django.utils import timezone

from games import services
from games.engine.uno.state import State
from games.models import Game, Move
from tests import celery_procs
from tests.celery_procs import Beat, CeleryProcess, Worker
from tests.games.factories import started_game, user
from tests.test_serve import ROOT

SWEEP = "games.tasks.sweep_expired_turns"
POLL = 0.1  # seconds between database polls

_names = count()


@pytest.fixture(scope="module")
def broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """This module's own Redis; the shared one on 6379 is never touched."""
    with celery_procs.redis_server(tmp_path_factory.mktemp("redis")) as url:
        yield url


@dataclass
class CeleryRun(celery_procs.CeleryFactory):
    """The Celery processes of one test; stopped in reverse order when the test ends."""

    broker: str
    environ: dict[str, str]
    log_dir: Path
    probe: Celery
    processes: list[CeleryProcess] = field(default_factory=list)

    def started(self, *workers: Worker, beat: Beat | None = None) -> None:
        for worker in workers:
            worker.wait_ready(self.probe)
            # The worker runs on the private broker and stores results in it: not eager, not the
            # shared Redis.
            text = worker.log()
            host_port = self.broker.removeprefix("redis://")
            assert (
                f"transport:   redis://:**@{host_port}" in text
                and f"results:     {self.broker}" in text
            ), text
        if beat is not None:
            beat.wait_sending(SWEEP)

    def logs(self) -> str:
        return "\n".join(f"--- {p.log_path.name}\n{p.log()[-3000:]}" for p in self.processes)

    def problems(self) -> list[str]:
        return celery_procs.problems(*self.processes, task=SWEEP)


@pytest.fixture
def celery(
    transactional_db: None, broker: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[CeleryRun]:
    """Worker/beat factory for a test. Depends on ``transactional_db`` so the processes are gone
    before the database is flushed: the test's rows are committed, so the subprocesses see them.
    """
    # Short turns for games created here (the worker's own limit comes from TURN_SECONDS_MIN=1).
    monkeypatch.setattr(services.lobby, "MIN_TURN_SECONDS", 1)

    celery_procs.flush(broker)
    environ = celery_procs.subprocess_env(broker, connection.settings_dict)
    resolved = celery_procs.subprocess_config(environ)
    # Eager mode would make beat run the sweep itself, inline: these tests would then pass with
    # no worker at all. The worker and beat must be configured for the broker.
    assert resolved["CELERY_TASK_ALWAYS_EAGER"] is False, resolved
    assert resolved["task_always_eager"] is False, resolved
    assert resolved["broker_url"] == broker, resolved
    assert resolved["database"] == str(connection.settings_dict["NAME"]), resolved
    assert resolved["TURN_SECONDS_MIN"] == 1, resolved

    run = CeleryRun(broker, environ, tmp_path / "celery", celery_procs.probe_app(broker))
    try:
        yield run
    finally:
        run.stop_all()


def _game(turn_seconds: int) -> Game:
    """A started two-player game made here, through the services; nobody will move in it."""
    n = next(_names)
    # Seed 1 opens on a plain Wild: the first player simply takes a turn, no opening choice.
    game = started_game(
        host=user(f"host{n}"), guest=user(f"guest{n}"), seed=1, turn_seconds=turn_seconds
    )
    assert State.from_dict(game.state).phase == "play"
    return game


def _timeouts(games: list[Game]) -> list[Move]:
    return list(
        Move.objects.filter(game__in=games, action__type="timeout").order_by("game_id", "number")
    )


def _wait_until(condition: Callable[[], bool], seconds: float) -> float:
    """Poll ``condition`` for up to ``seconds``; returns how long it took (or raises)."""
    started = time.monotonic()
    while not condition():
        if time.monotonic() - started > seconds:
            raise AssertionError(f"not within {seconds} s")
        time.sleep(POLL)
    return time.monotonic() - started


def _assert_each_overdue_turn_timed_out_once(
    games: list[Game], timeouts: list[Move], run: CeleryRun
) -> None:
    by_game: dict[Any, list[Move]] = {}
    for move in timeouts:
        by_game.setdefault(move.game_id, []).append(move)
    for game in games:
        got = by_game.get(game.pk, [])
        assert len(got) == 1, (game.pk, [(m.number, m.action) for m in got], run.logs())
        # The turn that was overdue, at the version the sweep found it: not a later one.
        assert got[0].number == game.version + 1
        assert got[0].action == {"type": "timeout", "seat": State.from_dict(game.state).current}
        numbers = list(Move.objects.filter(game=game).values_list("number", flat=True))
        assert numbers == list(range(numbers[0], numbers[-1] + 1)), numbers
    assert len(timeouts) == len(games)


def _assert_no_eta_messages(run: CeleryRun, *workers: Worker) -> None:
    scheduled = run.probe.control.inspect(
        destination=[w.name for w in workers], timeout=1
    ).scheduled()
    assert scheduled == {w.name: [] for w in workers}, scheduled
    for message in celery_procs.broker_messages(run.broker):
        headers = message.get("headers", {})
        assert headers.get("eta") is None and headers.get("countdown") is None, headers


@pytest.mark.django_db(transaction=True)
def test_a_two_second_turn_times_out_exactly_once_within_five_seconds(celery: CeleryRun) -> None:
    worker = celery.worker("w1")
    beat = celery.beat()
    celery.started(worker, beat=beat)
    # A task sent from here runs in the worker: its result comes back through the broker.
    assert celery.probe.send_task(SWEEP).get(timeout=10) == 0

    game = _game(turn_seconds=2)
    start = time.monotonic()
    deadline = game.turn_deadline
    assert deadline is not None
    assert deadline - timezone.now() <= timedelta(seconds=2)

    waited = _wait_until(lambda: bool(_timeouts([game])), seconds=5)
    first = _timeouts([game])[0]
    assert first.created_at >= deadline  # not early
    # Later turns have 2 s each too: watch two more seconds, then check every timeout.
    time.sleep(max(0.0, start + waited + 2.0 - time.monotonic()))
    timeouts = _timeouts([game])
    _assert_each_overdue_turn_timed_out_once([game], timeouts[:1], celery)
    # No turn timed out twice: each later timeout is a new turn's, a full turn after the previous.
    for earlier, later in pairwise(timeouts):
        assert later.number > earlier.number
        assert later.created_at - earlier.created_at >= timedelta(seconds=2), timeouts
    assert not celery.problems(), celery.logs()
    _assert_no_eta_messages(celery, worker)
    print(f"\n2-second turn timed out {waited:.2f} s after the game started")


@pytest.mark.parametrize(
    "stop_signal", [signal.SIGKILL, signal.SIGTERM], ids=["crashed", "warm-shutdown"]
)
@pytest.mark.django_db(transaction=True)
def test_a_worker_stopped_across_the_deadlines_applies_each_timeout_once_on_restart(
    celery: CeleryRun, stop_signal: int
) -> None:
    worker = celery.worker("w1")
    beat = celery.beat()
    celery.started(worker, beat=beat)
    games = [_game(turn_seconds=3600) for _ in range(5)]

    worker.stop(stop_signal)
    due = timezone.now() + timedelta(seconds=1)
    Game.objects.filter(pk__in=[g.pk for g in games]).update(turn_deadline=due)
    for game in games:
        game.refresh_from_db()
    sent_before = beat.log().count("Sending due task sweep-expired-turns")

    time.sleep(3)
    # Beat went on queueing sweeps, but nobody else ran them: no timeout without a worker.
    assert beat.log().count("Sending due task sweep-expired-turns") >= sent_before + 2
    assert celery_procs.queue_length(celery.broker) >= 2
    assert not _timeouts(games)

    restarted = celery.worker("w1", log_name="w1-restarted")
    begin = time.monotonic()
    celery.started(restarted)
    _wait_until(lambda: len(_timeouts(games)) >= len(games), seconds=5)
    applied_after = time.monotonic() - begin
    # The backlog of sweeps is consumed (each finds nothing left to do) ...
    _wait_until(lambda: celery_procs.queue_length(celery.broker) == 0, seconds=10)
    time.sleep(1)
    # ... and each overdue turn was timed out exactly once: 5 overdue turns, 5 timeouts.
    _assert_each_overdue_turn_timed_out_once(games, _timeouts(games), celery)
    assert not celery.problems(), celery.logs()
    _assert_no_eta_messages(celery, restarted)
    print(f"\n{len(games)} overdue turns timed out {applied_after:.2f} s after the restart")


@pytest.mark.django_db(transaction=True)
def test_concurrent_sweeps_in_two_workers_apply_nothing_twice(celery: CeleryRun) -> None:
    workers = [celery.worker(name, pool="threads", concurrency=4) for name in ("w1", "w2")]
    celery.started(*workers)
    games = [_game(turn_seconds=3600) for _ in range(20)]
    Game.objects.filter(pk__in=[g.pk for g in games]).update(
        turn_deadline=timezone.now() - timedelta(seconds=1)
    )
    for game in games:
        game.refresh_from_db()

    begin = time.monotonic()
    results = [celery.probe.send_task(SWEEP) for _ in range(40)]
    applied = [result.get(timeout=30) for result in results]
    took = time.monotonic() - begin
    # Every sweep says how many turns it timed out: together exactly one per overdue game.
    assert sum(applied) == len(games), applied
    _assert_each_overdue_turn_timed_out_once(games, _timeouts(games), celery)
    for worker in workers:
        assert f"Task {SWEEP}[" in worker.log(), f"{worker.name} ran no sweep:\n{celery.logs()}"
    assert not celery.problems(), celery.logs()
    print(f"\n40 concurrent sweeps over 20 overdue games in {took:.2f} s: {sorted(applied)}")


def _short_literal(node: ast.expr, limit: float) -> bool:
    return (
        isinstance(node, ast.Constant)
        and isinstance(node.value, int | float)
        and node.value < limit
    )


def test_no_task_is_queued_with_a_long_countdown_or_an_eta() -> None:
    """On Redis a delayed message stays unacknowledged in the worker until it is due; past the
    visibility timeout Redis hands it to another worker as well, so it runs twice. Turn deadlines
    are rows swept every second by beat, and nothing else may wait that long in the broker."""
    options = getattr(settings, "CELERY_BROKER_TRANSPORT_OPTIONS", None) or {}
    visibility_timeout = options.get("visibility_timeout", 3600)  # kombu's Redis default
    offenders = []
    for package in ("config", "games", "players", "notifications"):
        for path in sorted((ROOT / package).rglob("*.py")):
            tree = ast.parse(path.read_text(), filename=str(path))
            for node in ast.walk(tree):
                if not isinstance(node, ast.Call):
                    continue
                for keyword in node.keywords:
                    value = keyword.value
                    # A literal well under the timeout (the task's own run time counts too),
                    # or a value capped by one: min(delay, 10).
                    short = _short_literal(value, visibility_timeout / 2) or (
                        isinstance(value, ast.Call)
                        and isinstance(value.func, ast.Name)
                        and value.func.id == "min"
                        and any(_short_literal(arg, visibility_timeout / 2) for arg in value.args)
                    )
                    if keyword.arg == "eta" or (keyword.arg == "countdown" and not short):
                        offenders.append(f"{path.relative_to(ROOT)}:{node.lineno} {keyword.arg}")
    assert not offenders, offenders
