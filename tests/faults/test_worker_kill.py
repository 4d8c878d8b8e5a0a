"""A Celery worker killed with SIGKILL in the middle of its work: every game effect happens once.

Both tests run a real worker and beat on a private Redis and the test database, kill the worker
while it is provably busy, start a new one, and check the database. Recovery comes from the
periodic sweeps beat keeps sending (the state is in the database), not from the broker handing
the killed task to someone again: the killed task's message stays unacknowledged in Redis (it
would only come back after the broker's visibility timeout, an hour) and never runs again here.

- In the middle of a timeout sweep over 100 overdue games: some games were timed out before the
  kill, the rest after the restart, each exactly once (one timeout move at the overdue version,
  one ``timed_out`` notice for the late player).
- In the middle of sending an e-mail (the SMTP server has the whole message but never confirms
  it): the delivery stays claimed, is claimed again once ``NOTIFY_CLAIM_TIMEOUT_SECONDS`` passed,
  and is sent again under the same event id (``Message-ID`` and ``X-Uno-Event-Id``); the inbox row
  and the game are untouched.
"""

from __future__ import annotations

import random
import re
import signal
import time
from collections import Counter
from datetime import timedelta
from itertools import count
from typing import Any
from unittest import mock

import pytest
from django.utils import timezone

from games import services
from games.engine.uno.state import State
from games.models import Game, Move
from notifications import services as notification_services
from notifications.channels.email import EVENT_ID_HEADER
from notifications.models import Delivery, Notification
from players.models import User
from tests import celery_procs
from tests.celery_procs import Worker
from tests.faults.conftest import Processes
from tests.faults.infra import wait_for

SWEEP = "games.tasks.sweep_expired_turns"
RELAY = "notifications.tasks.relay"
OVERDUE_GAMES = 100  # one sweep takes them all (services.sweep_expired_turns' limit is 200)

_names = count()


def _game(*, email: bool = False) -> Game:
    """A started two-player game made here, through the services; nobody moves in it."""
    n = next(_names)
    fields: dict[str, Any] = {}
    users = []
    for role in ("host", "guest"):
        if email:
            fields = {"email": f"{role}{n}@example.com", "email_verified": True}
        users.append(User.objects.create_user(username=f"{role}{n}-kill", **fields))
    game = services.create_game(host=users[0], max_players=2, target_score=0, turn_seconds=3600)
    rng = random.Random(n)
    with mock.patch.object(services.base, "new_rng", lambda: rng):
        services.join_game(user=users[1], invite_code=game.invite_code)
    game.refresh_from_db()
    assert game.status == Game.ACTIVE
    return game


def _kill(worker: Worker) -> None:
    worker.process.send_signal(signal.SIGKILL)
    assert worker.process.wait(timeout=10) == -signal.SIGKILL


def _running_task(worker: Worker, task: str) -> str:
    """The id of the ``task`` the worker received last and never finished."""
    text = worker.log()
    received = re.findall(rf"Task {re.escape(task)}\[([0-9a-f-]+)\] received", text)
    finished = set(
        re.findall(rf"Task {re.escape(task)}\[([0-9a-f-]+)\] (?:succeeded|failed)", text)
    )
    unfinished = [task_id for task_id in received if task_id not in finished]
    assert len(unfinished) == 1, (unfinished, text[-3000:])
    return unfinished[0]


def _unacked_ids(broker: str) -> set[str]:
    return {m["headers"]["id"] for m in celery_procs.broker_messages(broker) if "headers" in m}


def test_a_worker_killed_in_the_middle_of_a_timeout_sweep_times_each_turn_out_once(
    processes: Processes,
) -> None:
    worker = processes.worker("w1")
    beat = processes.beat()
    worker.wait_ready(processes.probe)
    beat.wait_sending(SWEEP)
    games = [_game() for _ in range(OVERDUE_GAMES)]
    ids = [g.pk for g in games]
    Game.objects.filter(pk__in=ids).update(turn_deadline=timezone.now() - timedelta(seconds=1))
    for game in games:
        game.refresh_from_db()
    timeouts = Move.objects.filter(game_id__in=ids, action__type="timeout")

    # The next sweep takes them all on, one transaction each: kill it after the first one.
    wait_for(timeouts.exists, 30, "the sweep's first timeout", interval=0.005)
    _kill(worker)
    done_at_kill = timeouts.count()
    assert 0 < done_at_kill < OVERDUE_GAMES, f"{done_at_kill} timed out: the kill missed the sweep"
    killed = _running_task(worker, SWEEP)
    time.sleep(2)
    assert timeouts.count() == done_at_kill, "something timed turns out without a worker"
    # acks_late: the killed sweep's message is still unacknowledged in the broker.
    assert killed in _unacked_ids(processes.redis.url)

    restarted = processes.worker("w1", log_name="w1-restarted")
    restarted.wait_ready(processes.probe)
    wait_for(lambda: timeouts.count() >= OVERDUE_GAMES, 60, "every overdue turn timed out")
    time.sleep(2)  # more sweeps: nothing may happen twice

    by_game = Counter(timeouts.values_list("game_id", flat=True))
    assert set(by_game) == set(ids) and set(by_game.values()) == {1}, by_game.most_common(3)
    for game in games:
        move = timeouts.get(game_id=game.pk)
        assert move.number == game.version + 1
        assert move.action == {"type": "timeout", "seat": State.from_dict(game.state).current}
    notices = Counter(
        Notification.objects.filter(game_id__in=ids, kind="timed_out").values_list(
            "game_id", flat=True
        )
    )
    assert set(notices.values()) == {1} and len(notices) == OVERDUE_GAMES
    # Recovery came from new sweeps, not from the killed message coming back.
    assert killed not in restarted.log()
    assert f"Task {SWEEP}[" in restarted.log()
    problems = celery_procs.problems(restarted, task=SWEEP)
    assert not problems, problems
    print(f"\nkilled after {done_at_kill}/{OVERDUE_GAMES} timeouts; the rest after the restart")


@pytest.fixture
def claim_timeout(processes: Processes) -> int:
    seconds = 30  # the shortest the setting allows
    processes.environ["NOTIFY_CLAIM_TIMEOUT_SECONDS"] = str(seconds)
    return seconds


def test_a_worker_killed_in_the_middle_of_a_delivery_sends_it_again_under_the_same_event_id(
    processes: Processes, claim_timeout: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    worker = processes.worker("w1")
    beat = processes.beat()
    worker.wait_ready(processes.probe)
    beat.wait_sending(SWEEP)
    # After a commit here, the relay is queued to the worker's broker (this process runs tasks
    # inline otherwise).
    monkeypatch.setattr(
        notification_services,
        "queue_relay",
        lambda ids=None: processes.probe.send_task(RELAY, kwargs={"delivery_ids": ids}),
    )
    processes.smtp.hold()
    game = _game(email=True)  # the first player gets a "your turn" e-mail
    notice = Notification.objects.get(game=game, kind="your_turn")
    delivery = Delivery.objects.get(notification=notice, channel="email")
    moves = list(Move.objects.filter(game=game).values_list("pk", flat=True))
    inbox = list(Notification.objects.filter(game=game).values_list("pk", flat=True))

    assert processes.smtp.held.wait(30), processes.logs()
    _kill(worker)
    killed = _running_task(worker, RELAY)
    delivery.refresh_from_db()
    assert delivery.status == Delivery.SENDING and delivery.sent_at is None, delivery.status
    assert processes.smtp.confirmed() == []
    killed_at = time.monotonic()

    restarted = processes.worker("w1", log_name="w1-restarted")
    restarted.wait_ready(processes.probe)

    def sent() -> bool:
        delivery.refresh_from_db()
        return delivery.status == Delivery.SENT

    wait_for(sent, claim_timeout + 30, "the delivery sent again", interval=0.2)
    assert time.monotonic() - killed_at >= claim_timeout - 1  # not before its claim expired
    time.sleep(6)  # another relay sweep: it must not send it a third time

    messages = [r.message for r in processes.smtp.messages]
    assert len(messages) == 2, [m[EVENT_ID_HEADER] for m in messages]
    assert [r.confirmed for r in processes.smtp.messages] == [False, True]
    assert {m[EVENT_ID_HEADER] for m in messages} == {str(notice.event_id)}
    assert len({m["Message-ID"] for m in messages}) == 1
    assert delivery.attempts == 1 and delivery.sent_at is not None
    # The game and the inbox are as they were: a delivery retried is not a move replayed.
    assert list(Move.objects.filter(game=game).values_list("pk", flat=True)) == moves
    assert list(Notification.objects.filter(game=game).values_list("pk", flat=True)) == inbox
    assert killed not in restarted.log()
    print(f"\nresent {time.monotonic() - killed_at:.0f} s after the kill, same event id")
