"""The relay, judged by what it delivers: sent mail (pytest-django's mailoutbox) and outbox rows.

E-mail is at-least-once with a stable event id; the relay sends each due delivery once, retries
with backoff under the same id, collapses pending "your turn" mails, holds mail in quiet hours and
skips what is no longer true.
"""

from __future__ import annotations

import uuid
from datetime import time, timedelta
from typing import Any

import pytest
from django.core import mail
from django.test import override_settings
from django.utils import timezone
from time_machine import TimeMachineFixture

from live import presence
from notifications import relay, services
from notifications.channels.base import Message, PermanentDeliveryError
from notifications.channels.email import EVENT_ID_HEADER, EmailChannel
from notifications.kinds import STREAM_ONLY
from notifications.models import Delivery, Notification, Preference
from tests.games.conftest import Player
from tests.notifications.conftest import (
    NOON,
    PushSpy,
    deliveries,
    mails_to,
    new_game,
    pass_turn,
    persona,
    started,
    to_move,
    your_turn_for,
)

pytestmark = pytest.mark.django_db


def test_the_relay_sends_a_your_turn_mail_once(
    alice: Player, bob: Player, clock: TimeMachineFixture
) -> None:
    game = new_game(alice, bob)
    waiting = to_move(game, alice, bob)

    assert relay.relay() == 1
    assert relay.relay() == 0  # a repeated relay finds nothing due
    (message,) = mail.outbox
    assert message.to == [waiting.user.email]
    assert message.subject == "Your turn"
    notice = Notification.objects.exclude(kind__in=STREAM_ONLY).get(user=waiting.user)
    assert message.extra_headers[EVENT_ID_HEADER] == str(notice.event_id)
    assert f"/games/{game.pk}" in message.body
    (delivery,) = deliveries(waiting)
    assert delivery.status == Delivery.SENT and delivery.attempts == 1
    assert delivery.sent_at == timezone.now()


def test_the_relay_runs_after_the_commit_of_the_move(
    alice: Player, bob: Player, django_capture_on_commit_callbacks: Any
) -> None:
    game, mover, (waiting,) = started(alice, bob)
    mail.outbox.clear()
    Delivery.objects.update(status=Delivery.SENT)

    with django_capture_on_commit_callbacks(execute=True):
        pass_turn(mover, game)

    # Celery runs inline in tests (as in the embedded mode): the mail went out after commit.
    assert [m.to for m in mail.outbox] == [[waiting.user.email]]


def test_mail_is_not_written_for_an_unverified_address(alice: Player, clock: Any) -> None:
    bob = persona("bob", email_verified=False)
    your_turn_for(bob, alice, bob)
    assert Notification.objects.filter(user=bob.user, kind="your_turn").exists()
    assert deliveries(bob) == []
    relay.relay()
    assert mails_to(bob) == []


def test_a_kind_switched_off_gets_no_delivery_but_still_reaches_the_inbox(
    alice: Player, bob: Player, clock: TimeMachineFixture
) -> None:
    for player in (alice, bob):
        services.update_preferences(user=player.user, switches={"email": {"your_turn": False}})
    game = new_game(alice, bob)
    waiting = to_move(game, alice, bob)
    assert Notification.objects.filter(user=waiting.user, kind="your_turn").count() == 1
    assert Delivery.objects.count() == 0
    assert relay.relay() == 0
    assert mail.outbox == []


def test_a_kind_switched_off_after_it_was_queued_is_skipped(
    alice: Player, bob: Player, clock: TimeMachineFixture
) -> None:
    game = new_game(alice, bob)
    waiting = to_move(game, alice, bob)
    services.update_preferences(user=waiting.user, switches={"email": {"your_turn": False}})
    assert relay.relay() == 0
    assert mail.outbox == []
    (delivery,) = deliveries(waiting)
    assert delivery.status == Delivery.SKIPPED


def test_noisy_kinds_are_off_by_default_and_can_be_switched_on(alice: Player, bob: Player) -> None:
    game = new_game(alice, bob)
    for player in (alice, bob):
        services.notify(user=player.user, kind="round_over", game=game, data={"round": 1})
    assert [d.notification.kind for d in deliveries(alice)] == [
        k for k in ["your_turn"] if to_move(game, alice, bob) is alice
    ]
    services.update_preferences(user=alice.user, switches={"email": {"round_over": True}})
    services.notify(user=alice.user, kind="round_over", game=game, data={"round": 2})
    assert deliveries(alice, "round_over")


def test_a_failing_send_is_retried_with_backoff_under_the_same_event_id(
    alice: Player, bob: Player, clock: TimeMachineFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = new_game(alice, bob)
    waiting = to_move(game, alice, bob)
    seen: list[str] = []
    real_send = EmailChannel.send

    def flaky(self: EmailChannel, message: Message) -> None:
        seen.append(message.event_id)
        if len(seen) == 1:
            raise ConnectionRefusedError("SMTP server down")
        real_send(self, message)

    monkeypatch.setattr(EmailChannel, "send", flaky)

    assert relay.relay() == 0
    (delivery,) = deliveries(waiting)
    assert delivery.status == Delivery.PENDING
    assert delivery.attempts == 1
    assert "SMTP server down" in delivery.last_error
    assert delivery.next_attempt_at == NOON + timedelta(seconds=30)
    assert mail.outbox == []

    clock.move_to(NOON + timedelta(seconds=29))
    assert relay.relay() == 0  # not due yet
    clock.move_to(NOON + timedelta(seconds=30))
    assert relay.relay() == 1

    notice = Notification.objects.exclude(kind__in=STREAM_ONLY).get(user=waiting.user)
    assert seen == [str(notice.event_id)] * 2
    (message,) = mail.outbox
    assert message.extra_headers[EVENT_ID_HEADER] == str(notice.event_id)
    assert message.extra_headers["Message-ID"].startswith(f"<{notice.event_id}@")
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts, delivery.last_error) == (Delivery.SENT, 2, "")


def every_mail_fails(monkeypatch: pytest.MonkeyPatch, error: Exception) -> None:
    """From now on the e-mail channel's every send raises ``error``."""

    def fail(self: EmailChannel, message: Message) -> None:
        raise error

    monkeypatch.setattr(EmailChannel, "send", fail)


@override_settings(NOTIFY_MAX_ATTEMPTS=3, NOTIFY_RETRY_BASE_SECONDS=10, NOTIFY_RETRY_MAX_SECONDS=15)
def test_backoff_doubles_up_to_its_cap_and_gives_up_after_the_last_attempt(
    alice: Player, bob: Player, clock: TimeMachineFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    waiting = to_move(new_game(alice, bob), alice, bob)
    every_mail_fails(monkeypatch, TimeoutError("SMTP timeout"))
    waits = []
    now = NOON
    for _ in range(3):
        relay.relay()
        (delivery,) = deliveries(waiting)
        waits.append(delivery.next_attempt_at - now)
        now = delivery.next_attempt_at
        clock.move_to(now)
    assert waits[:2] == [timedelta(seconds=10), timedelta(seconds=15)]  # 10, 20 capped at 15
    assert delivery.status == Delivery.FAILED and delivery.attempts == 3
    assert relay.relay() == 0


def test_a_permanent_error_fails_the_delivery_at_once(
    alice: Player, bob: Player, clock: TimeMachineFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    waiting = to_move(new_game(alice, bob), alice, bob)
    every_mail_fails(monkeypatch, PermanentDeliveryError("mailbox does not exist"))
    relay.relay()
    (delivery,) = deliveries(waiting)
    assert delivery.status == Delivery.FAILED and "mailbox does not exist" in delivery.last_error


def test_a_claim_abandoned_by_a_dead_relay_is_sent_again_later(
    alice: Player, bob: Player, clock: TimeMachineFixture
) -> None:
    game = new_game(alice, bob)
    waiting = to_move(game, alice, bob)
    # A relay claimed the delivery, then its worker died before sending.
    Delivery.objects.update(status=Delivery.SENDING, claimed_at=NOON)

    clock.move_to(NOON + timedelta(minutes=9))
    assert relay.relay() == 0  # still someone's claim
    clock.move_to(NOON + timedelta(minutes=10))
    assert relay.relay() == 1
    assert len(mails_to(waiting)) == 1


def test_a_relay_never_sends_what_another_relay_has_claimed(
    alice: Player, bob: Player, clock: TimeMachineFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = new_game(alice, bob)
    waiting = to_move(game, alice, bob)
    real_send = EmailChannel.send
    inner: list[int] = []

    def send_while_another_relay_runs(self: EmailChannel, message: Message) -> None:
        inner.append(relay.relay())  # a second relay, started while the first is sending
        real_send(self, message)

    monkeypatch.setattr(EmailChannel, "send", send_while_another_relay_runs)
    assert relay.relay() == 1
    assert inner == [0]
    assert len(mails_to(waiting)) == 1


def test_three_pending_your_turn_mails_collapse_into_one(
    alice: Player, bob: Player, carol: Player, dave: Player, clock: TimeMachineFixture
) -> None:
    games = [your_turn_for(alice, alice, other) for other in (bob, carol, dave)]
    Notification.objects.exclude(user=alice.user).delete()
    mail.outbox.clear()
    # Nothing was relayed yet (as when Redis was down, or the mails were held): three pending.
    assert len(deliveries(alice, "your_turn")) == 3

    assert relay.relay() == 3

    (message,) = mail.outbox
    assert message.subject == "It's your turn in 3 games"
    for game in games:
        assert f"/games/{game.pk}" in message.body
    assert {d.status for d in deliveries(alice)} == {Delivery.SENT}
    assert relay.relay() == 0


def test_a_your_turn_mail_for_a_turn_already_played_is_skipped(
    alice: Player, bob: Player, clock: TimeMachineFixture
) -> None:
    game = new_game(alice, bob)
    waiting = to_move(game, alice, bob)
    pass_turn(waiting, game)  # played before the relay came round (quiet hours, Redis down)
    relay.relay()
    (stale, fresh) = Delivery.objects.order_by("pk")
    stale.refresh_from_db()
    # The move withdrew the notice (one live "your turn" per game): its mail is not sent.
    assert stale.status == Delivery.SKIPPED and stale.last_error == "the notice was withdrawn"
    (message,) = mail.outbox
    assert message.to == [fresh.notification.user.email]


def test_quiet_hours_hold_mail_until_they_end_in_the_players_time_zone(
    alice: Player, bob: Player, clock: TimeMachineFixture
) -> None:
    # 23:00 in Copenhagen (UTC+1 in March before the switch) is 22:00 UTC.
    late_evening = NOON.replace(hour=22)
    clock.move_to(late_evening)
    for player in (alice, bob):
        player.user.time_zone = "Europe/Copenhagen"
        player.user.save()
        services.update_preferences(user=player.user, quiet_hours=(time(22, 0), time(7, 30)))
    game = new_game(alice, bob)
    waiting = to_move(game, alice, bob)

    # The inbox has it at once; the mail is held until 07:30 Copenhagen = 06:30 UTC.
    assert Notification.objects.filter(user=waiting.user, kind="your_turn").exists()
    (delivery,) = deliveries(waiting)
    morning = (late_evening + timedelta(days=1)).replace(hour=6, minute=30)
    assert (delivery.status, delivery.next_attempt_at) == (Delivery.HELD, morning)
    assert relay.relay() == 0

    clock.move_to(morning - timedelta(seconds=1))
    assert relay.relay() == 0
    assert mail.outbox == []
    clock.move_to(morning)
    assert relay.relay() == 1
    assert len(mails_to(waiting)) == 1


def test_a_retry_that_falls_into_quiet_hours_is_held(
    alice: Player, bob: Player, clock: TimeMachineFixture
) -> None:
    game = new_game(alice, bob)
    waiting = to_move(game, alice, bob)
    # Quiet hours begin after the delivery was written: the relay holds it when it gets there.
    services.update_preferences(user=waiting.user, quiet_hours=(time(11, 0), time(13, 0)))
    assert relay.relay() == 0
    (delivery,) = deliveries(waiting)
    assert (delivery.status, delivery.next_attempt_at) == (Delivery.HELD, NOON.replace(hour=13))
    clock.move_to(NOON.replace(hour=13))
    assert relay.relay() == 1


def test_held_your_turn_mails_collapse_when_quiet_hours_end(
    alice: Player, bob: Player, carol: Player, clock: TimeMachineFixture
) -> None:
    services.update_preferences(user=alice.user, quiet_hours=(time(11, 0), time(13, 0)))
    your_turn_for(alice, alice, bob)
    your_turn_for(alice, alice, carol)
    Notification.objects.exclude(user=alice.user).delete()
    assert relay.relay() == 0
    assert {d.status for d in deliveries(alice)} == {Delivery.HELD}

    clock.move_to(NOON.replace(hour=13))
    assert relay.relay() == 2
    (message,) = mail.outbox
    assert message.subject == "It's your turn in 2 games"


def test_a_collapsed_message_keeps_each_notifications_event_id_and_its_own_on_retry(
    alice: Player, bob: Player, carol: Player, push: PushSpy, clock: TimeMachineFixture
) -> None:
    for other in (bob, carol):
        your_turn_for(alice, alice, other)
    Delivery.objects.filter(channel="email").delete()
    ids = sorted(str(n.event_id) for n in Notification.objects.filter(user=alice.user))
    push.failures = 1

    assert relay.relay() == 0  # the push service is down: both deliveries wait for a retry
    clock.move_to(NOON + timedelta(minutes=5))
    assert relay.relay() == 2

    first, retry = push.sent
    assert first.collapsed and len(first.items) == 2
    assert sorted(item.event_id for item in first.items) == ids
    assert first.event_id == retry.event_id  # the same batch again: the same id
    assert first.event_id not in ids
    assert (first.attempt, retry.attempt) == (1, 2)
    payload = retry.payload()
    assert payload["collapsed"] is True and payload["title"] == "It's your turn in 2 games"
    assert sorted(item["event_id"] for item in payload["items"]) == ids


def test_a_registered_channel_gets_deliveries_by_its_defaults(
    alice: Player, bob: Player, push: PushSpy, clock: TimeMachineFixture
) -> None:
    game = new_game(alice, bob)
    waiting = to_move(game, alice, bob)
    assert {d.channel for d in deliveries(waiting)} == {"email", "pushspy"}
    assert relay.relay() == 2
    (message,) = push.sent
    assert message.payload()["event_id"] == str(
        Notification.objects.exclude(kind__in=STREAM_ONLY).get().event_id
    )
    assert message.payload()["items"][0]["game_id"] == str(game.pk)
    assert message.title == "Your turn"


def test_neither_push_nor_mail_goes_for_a_game_the_player_is_watching_live(
    alice: Player, bob: Player, push: PushSpy, clock: TimeMachineFixture
) -> None:
    game = new_game(alice, bob)
    waiting = to_move(game, alice, bob)
    presence.mark_watching(waiting.user.pk, game.pk, ttl=60)
    try:
        assert relay.relay() == 0
    finally:
        presence.stop_watching(waiting.user.pk, game.pk)
    assert push.sent == []
    assert mails_to(waiting) == []
    statuses = {d.channel: d.status for d in deliveries(waiting)}
    assert statuses == {"email": Delivery.SKIPPED, "pushspy": Delivery.SKIPPED}


def test_a_send_that_raises_in_the_inline_relay_does_not_fail_the_move(
    alice: Player,
    bob: Player,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    game = new_game(alice, bob)
    mover = to_move(game, alice, bob)

    def broken_relay(**kwargs: Any) -> int:
        raise RuntimeError("relay bug")

    monkeypatch.setattr(relay, "relay", broken_relay)
    with django_capture_on_commit_callbacks(execute=True):
        pass_turn(mover, game)  # no exception reaches the caller
    assert Delivery.objects.filter(status=Delivery.PENDING).exists()


def test_preferences_row_is_optional(alice: Player) -> None:
    assert not Preference.objects.filter(user=alice.user).exists()
    assert relay.relay() == 0


def test_a_backlog_drains_in_rounds(alice: Player, clock: TimeMachineFixture) -> None:
    for i in range(5):
        services.notify_moderation(user=alice.user, message=f"notice {i}")
    assert relay.relay(limit=2) == 5
    assert len(mails_to(alice)) == 5
    assert relay.relay(limit=2) == 0


def test_watching_is_recorded_whatever_the_spelling_of_the_game_id(alice: Player) -> None:
    game_id = uuid.uuid4()
    presence.mark_watching(alice.user.pk, str(game_id).upper(), ttl=60)
    try:
        assert presence.is_watching(alice.user.pk, game_id)
        assert not presence.is_watching(alice.user.pk + 1, game_id)
    finally:
        presence.stop_watching(alice.user.pk, game_id)
    assert not presence.is_watching(alice.user.pk, game_id)
