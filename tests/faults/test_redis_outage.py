"""Redis stopped during play: the game goes on, notifications and timers catch up afterwards.

A web server, a Celery worker and beat run on a private Redis and the test database; mail goes to
an SMTP server in the test process. Two games are running. Redis is
killed, and while it is down:

- moves through the API keep succeeding (2xx), with their inbox rows written at once;
- their e-mail deliveries wait in the database (nothing can queue the relay, beat cannot send
  its sweeps), and an overdue turn is not timed out (no sweep reaches a worker).

Redis is started again (empty, as after a crash), and then:

- the overdue turn is timed out exactly once;
- every e-mail delivery ends sent or skipped (a "your turn" whose turn was already played is
  skipped), each sent one in exactly one message whose event id is the notification's (or, for
  a collapsed message, derived from its notifications' ids), and no message is sent twice;
- the inbox holds each notification exactly once: nothing was added or repeated by the catch-up.
"""

from __future__ import annotations

import json
import time
import uuid
from collections import Counter
from datetime import timedelta
from typing import Any

from django.db.models import QuerySet
from django.utils import timezone

from games.engine.uno.state import State
from games.models import Game, Move
from notifications.channels.email import EVENT_ID_HEADER
from notifications.models import Delivery, Notification
from notifications.relay import COLLAPSED_NAMESPACE
from tests.faults.conftest import Processes
from tests.faults.infra import Server, http, refuses_connections, two_player_game, wait_for
from tests.games.conftest import make_player
from tests.live.servers import turn_action

MOVES_DURING_OUTAGE = 6
SWEEP = "games.tasks.sweep_expired_turns"


def _player(name: str) -> tuple[int, str]:
    player = make_player(f"{name}-{uuid.uuid4().hex[:6]}")
    player.user.email = f"{player.user.username}@example.com"
    player.user.email_verified = True
    player.user.save(update_fields=["email", "email_verified"])
    return player.user.pk, player.token


def _started_game(server: Server) -> tuple[str, dict[int, str]]:
    host_id, host = _player("host")
    guest_id, guest = _player("guest")
    return two_player_game(server, host, guest), {host_id: host, guest_id: guest}


def _move(server: Server, game_id: str, tokens: dict[int, str]) -> dict[str, Any]:
    """The player to move takes a turn action that keeps the game going (``turn_action``)."""
    for token in tokens.values():
        status, _, body = http("GET", f"{server.base}/api/v1/games/{game_id}/", token=token)
        assert status == 200, body
        view = json.loads(body)
        if not view["your_turn"]:
            continue
        action = turn_action(view["table"]["legal_actions"])
        assert action is not None, view
        payload = {k: v for k, v in action.items() if k != "seat"}
        payload["expected_version"] = view["version"]
        status, _, body = http(
            "POST",
            f"{server.base}/api/v1/games/{game_id}/actions/",
            payload,
            token=token,
            headers={"Idempotency-Key": str(uuid.uuid4())},
        )
        assert status == 200, (payload, status, body)
        return dict(json.loads(body))
    raise AssertionError(f"nobody's turn in {game_id}")


def _state(processes: Processes, games: list[str]) -> str:
    deliveries = [
        (d.pk, d.notification.kind, d.status, d.attempts, d.last_error[:200])
        for d in Delivery.objects.filter(notification__game_id__in=games).select_related(
            "notification"
        )
    ]
    return f"deliveries: {deliveries}\n{processes.logs()}"


def _unfinished(game_ids: list[str]) -> list[Delivery]:
    return list(
        Delivery.objects.filter(notification__game_id__in=game_ids).exclude(
            status__in=[Delivery.SENT, Delivery.SKIPPED]
        )
    )


def _assert_each_delivery_went_out_once(
    processes: Processes, games: list[str]
) -> tuple[list[Any], QuerySet[Delivery]]:
    """External deliveries: each sent one in exactly one message under its stable event id, and
    only moot turn notices skipped. The mails and the skipped deliveries, for the summary."""
    mails = processes.smtp.confirmed()
    sent_ids = Counter(m[EVENT_ID_HEADER] for m in mails)
    assert all(count == 1 for count in sent_ids.values()), sent_ids
    for message in mails:
        assert message["Message-ID"].startswith(f"<{message[EVENT_ID_HEADER]}@"), message
    batches: dict[tuple[int, Any], list[str]] = {}
    for delivery in Delivery.objects.filter(
        notification__game_id__in=games, status=Delivery.SENT
    ).select_related("notification"):
        # One send finishes its whole batch at once: the batch is (player, sent_at).
        batch = batches.setdefault((delivery.notification.user_id, delivery.sent_at), [])
        batch.append(str(delivery.notification.event_id))
    expected = {
        ids[0] if len(ids) == 1 else str(uuid.uuid5(COLLAPSED_NAMESPACE, ",".join(sorted(ids))))
        for ids in batches.values()
    }
    assert expected == set(sent_ids), (expected, sent_ids)
    skipped = Delivery.objects.filter(notification__game_id__in=games, status=Delivery.SKIPPED)
    # A turn notice made moot is skipped: withdrawn by the move that ended the turn (issue 21:
    # one live notice per game), or found over by the relay when it sends. Nothing else.
    moot = {"the notice was withdrawn", "the turn is over"}
    assert all(d.last_error in moot for d in skipped), [d.last_error for d in skipped]
    return mails, skipped


def test_redis_stopped_during_play_moves_go_on_and_notifications_and_timers_catch_up(
    processes: Processes,
) -> None:
    worker = processes.worker("w1")
    beat = processes.beat()
    server = processes.server()
    worker.wait_ready(processes.probe)
    beat.wait_sending(SWEEP)

    game_id, tokens = _started_game(server)
    timer_id, _ = _started_game(server)
    games = [game_id, timer_id]
    # Before the outage the opening "your turn" mails go out through the worker.
    wait_for(
        lambda: not _unfinished(games),
        30,
        "the opening mails",
        detail=lambda: _state(processes, games),
    )
    assert len(processes.smtp.confirmed()) == 2

    # Redis goes away.
    processes.redis.stop()
    assert refuses_connections(processes.redis.port), "Redis still listening"
    notified_before = set(Notification.objects.values_list("pk", flat=True))
    answers = [_move(server, game_id, tokens) for _ in range(MOVES_DURING_OUTAGE)]
    # The last mover may still be to move (a draw leaves a pass to make): play on until the turn
    # passes, so a "your turn" notice is waiting for its e-mail.
    while answers[-1]["your_turn"] and len(answers) < 2 * MOVES_DURING_OUTAGE:
        answers.append(_move(server, game_id, tokens))
    assert [a["version"] for a in answers] == sorted({a["version"] for a in answers})
    overdue = Game.objects.get(pk=timer_id)
    Game.objects.filter(pk=timer_id).update(turn_deadline=timezone.now() - timedelta(seconds=1))
    outage_notices = list(Notification.objects.exclude(pk__in=notified_before).order_by("pk"))
    assert outage_notices, "the moves wrote no inbox rows"
    waiting = _unfinished(games)
    assert waiting, "no e-mail delivery was waiting for Redis"
    time.sleep(3)  # beat would have sent three sweeps by now, and the relay sweep would be due
    assert refuses_connections(processes.redis.port)
    assert not Move.objects.filter(game_id=timer_id, action__type="timeout").exists()
    assert {d.pk for d in _unfinished(games)} == {d.pk for d in waiting}
    assert all(d.status == Delivery.PENDING and d.attempts == 0 for d in _unfinished(games))
    assert len(processes.smtp.confirmed()) == 2
    assert worker.process.poll() is None and beat.process.poll() is None, processes.logs()

    # Redis is back (empty, as after a crash): timers and notifications catch up.
    processes.redis.start()
    restarted = time.monotonic()
    wait_for(
        lambda: Move.objects.filter(game_id=timer_id, action__type="timeout").exists(),
        30,
        "the overdue turn timed out",
    )
    timed_out_after = time.monotonic() - restarted
    wait_for(lambda: not _unfinished(games), 40, "every delivery sent or skipped")
    time.sleep(2)  # a few more sweeps: nothing may happen twice

    timeouts = list(Move.objects.filter(game_id=timer_id, action__type="timeout"))
    assert len(timeouts) == 1, [(m.number, m.action) for m in timeouts]
    assert timeouts[0].number == overdue.version + 1
    assert timeouts[0].action == {"type": "timeout", "seat": State.from_dict(overdue.state).current}
    # The inbox: each notification once; the catch-up added only the timeout's own.
    after = Notification.objects.exclude(pk__in=notified_before)
    assert sorted(after.filter(game_id=game_id).values_list("pk", flat=True)) == [
        n.pk for n in outage_notices if str(n.game_id) == game_id
    ]
    keys = Counter(after.values_list("key", flat=True))
    assert all(count == 1 for count in keys.values()), keys
    timer_kinds = Counter(after.filter(game_id=timer_id).values_list("kind", flat=True))
    assert timer_kinds["timed_out"] == 1, timer_kinds

    mails, skipped = _assert_each_delivery_went_out_once(processes, games)
    print(
        f"\n{len(answers)} moves during the outage; after the restart the overdue turn timed out "
        f"in {timed_out_after:.1f} s; {len(mails)} mails, {skipped.count()} skipped deliveries"
    )
