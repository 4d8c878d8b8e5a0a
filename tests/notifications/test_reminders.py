"""Reminders before the deadline: at half and at a tenth of the turn's time left, once each."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.test import override_settings
from time_machine import TimeMachineFixture

from games.models import Game
from notifications import relay
from notifications.models import Delivery, Notification
from notifications.reminders import send_reminders
from tests.games.conftest import Player
from tests.notifications.conftest import NOON, mails_to, new_game, pass_turn, to_move

pytestmark = pytest.mark.django_db

HOUR = 3600


def reminders_of(player: Player) -> list[Notification]:
    return list(Notification.objects.filter(user=player.user, kind="reminder").order_by("pk"))


def test_a_reminder_at_half_and_at_a_tenth_of_the_time_left_exactly_once_each(
    alice: Player, bob: Player, clock: TimeMachineFixture
) -> None:
    game = new_game(alice, bob, turn_seconds=10 * HOUR)
    waiting = to_move(game, alice, bob)
    deadline = game.turn_deadline
    assert deadline == NOON + timedelta(hours=10)

    clock.move_to(deadline - timedelta(hours=5, seconds=1))
    assert send_reminders() == 0  # more than half left

    clock.move_to(deadline - timedelta(hours=5))
    assert send_reminders() == 1
    assert send_reminders() == 0  # repeated sweeps add nothing
    clock.move_to(deadline - timedelta(hours=2))
    assert send_reminders() == 0

    clock.move_to(deadline - timedelta(hours=1))
    assert send_reminders() == 1
    clock.move_to(deadline - timedelta(minutes=10))
    assert send_reminders() == 0

    half, tenth = reminders_of(waiting)
    assert (half.data["fraction"], tenth.data["fraction"]) == (0.5, 0.1)
    assert (half.data["seconds_left"], tenth.data["seconds_left"]) == (5 * HOUR, HOUR)
    assert half.data["deadline"] == deadline.isoformat()
    assert reminders_of(next(p for p in (alice, bob) if p is not waiting)) == []


def test_a_reminder_is_mailed_in_the_players_words(
    alice: Player, bob: Player, clock: TimeMachineFixture
) -> None:
    game = new_game(alice, bob, turn_seconds=10 * HOUR)
    waiting = to_move(game, alice, bob)
    relay.relay()  # the start's "your turn"
    mail.outbox.clear()

    clock.move_to(game.turn_deadline - timedelta(hours=5))
    send_reminders()
    assert relay.relay() == 1
    (message,) = mails_to(waiting)
    assert message.subject == "Your time is running out"
    assert "You have 5 hours left to move against" in message.body


def test_a_late_sweep_sends_only_the_latest_reminder(
    alice: Player, bob: Player, clock: TimeMachineFixture
) -> None:
    game = new_game(alice, bob, turn_seconds=10 * HOUR)
    waiting = to_move(game, alice, bob)
    clock.move_to(game.turn_deadline - timedelta(minutes=30))  # both points have passed
    assert send_reminders() == 1
    assert send_reminders() == 0
    (only,) = reminders_of(waiting)
    assert only.data["fraction"] == 0.1


def test_a_new_turn_has_its_own_reminders(
    alice: Player, bob: Player, clock: TimeMachineFixture
) -> None:
    game = new_game(alice, bob, turn_seconds=10 * HOUR)
    first = to_move(game, alice, bob)
    clock.move_to(game.turn_deadline - timedelta(hours=5))
    assert send_reminders() == 1
    pass_turn(first, game)
    second = to_move(game, alice, bob)
    game.refresh_from_db()
    assert send_reminders() == 0  # the new clock has all its time
    clock.move_to(game.turn_deadline - timedelta(hours=5))
    assert send_reminders() == 1
    assert len(reminders_of(first)) == len(reminders_of(second)) == 1


def test_a_reminder_for_a_turn_played_meanwhile_is_not_mailed(
    alice: Player, bob: Player, clock: TimeMachineFixture
) -> None:
    game = new_game(alice, bob, turn_seconds=10 * HOUR)
    waiting = to_move(game, alice, bob)
    relay.relay()
    mail.outbox.clear()
    clock.move_to(game.turn_deadline - timedelta(hours=5))
    send_reminders()
    pass_turn(waiting, game)
    relay.relay()
    (reminder,) = Delivery.objects.filter(notification__kind="reminder")
    assert reminder.status == Delivery.SKIPPED
    assert mails_to(waiting) == []


def sent_before_the_deadline(clock: TimeMachineFixture, game: Game, *times: timedelta) -> list[int]:
    """How many reminders ``send_reminders`` sent at each of ``times`` before the turn's end."""
    sent = []
    for before in times:
        clock.move_to(game.turn_deadline - before)
        sent.append(send_reminders())
    return sent


@override_settings(NOTIFY_REMINDER_FRACTIONS=[0.25])
def test_the_reminder_points_are_configurable(
    alice: Player, bob: Player, clock: TimeMachineFixture
) -> None:
    game = new_game(alice, bob, turn_seconds=4 * HOUR)
    waiting = to_move(game, alice, bob)
    assert sent_before_the_deadline(clock, game, timedelta(hours=2), timedelta(hours=1)) == [0, 1]
    assert [n.data["fraction"] for n in reminders_of(waiting)] == [0.25]


def test_short_turns_get_no_reminder_that_would_arrive_with_the_timeout(
    alice: Player, bob: Player, clock: TimeMachineFixture
) -> None:
    game = new_game(alice, bob, turn_seconds=300)  # a tenth is 30 s: not worth a message
    waiting = to_move(game, alice, bob)
    sent = sent_before_the_deadline(clock, game, timedelta(seconds=150), timedelta(seconds=20))
    assert sent == [1, 0]
    assert [n.data["fraction"] for n in reminders_of(waiting)] == [0.5]


def test_speed_mode_turns_get_no_reminder(
    alice: Player, bob: Player, clock: TimeMachineFixture
) -> None:
    # turn_seconds is not the clock of a speed-mode game: its 5 s turns must not be taken for
    # a day's turn that is nearly over.
    game = new_game(alice, bob, turn_seconds=10 * HOUR, options={"speed_mode": True})
    assert game.turn_deadline == NOON + timedelta(seconds=5)
    clock.move_to(game.turn_deadline - timedelta(seconds=1))
    assert send_reminders() == 0
    assert reminders_of(alice) == reminders_of(bob) == []


def test_finished_games_and_passed_deadlines_get_no_reminder(
    alice: Player, bob: Player, clock: TimeMachineFixture
) -> None:
    game = new_game(alice, bob, turn_seconds=10 * HOUR)
    clock.move_to(game.turn_deadline + timedelta(seconds=1))
    assert send_reminders() == 0
    Game.objects.filter(pk=game.pk).update(status=Game.FINISHED)
    clock.move_to(game.turn_deadline - timedelta(hours=1))
    assert send_reminders() == 0


def test_the_reminder_sweep_writes_nothing_to_the_games_tables(
    alice: Player, bob: Player, clock: TimeMachineFixture, django_assert_max_num_queries: object
) -> None:
    game = new_game(alice, bob, turn_seconds=10 * HOUR)
    before = Game.objects.values().get(pk=game.pk)
    clock.move_to(game.turn_deadline - timedelta(hours=5))
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        assert send_reminders() == 1
    writes = [
        q["sql"]
        for q in queries.captured_queries
        if q["sql"].lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE"))
    ]
    assert writes and all("games_" not in sql.split("(")[0] for sql in writes), writes
    assert Game.objects.values().get(pk=game.pk) == before
