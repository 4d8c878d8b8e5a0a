"""Retention: old inbox rows, finished deliveries, webhook logs and idempotency keys are deleted
by hourly jobs; anything still owed (a due, held or sending delivery; a webhook retry) stays."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from django.utils import timezone

from games import idempotency
from games import tasks as game_tasks
from games.models import IdempotencyRecord
from notifications import tasks
from notifications.models import (
    Delivery,
    Notification,
    WebhookAttempt,
    WebhookDelivery,
    WebhookEndpoint,
)
from players.models import ApiToken
from tests.games.conftest import Player

OLD = timezone.now() - timedelta(days=91)
RECENT = timezone.now() - timedelta(days=89)

pytestmark = pytest.mark.django_db


def notification(player: Player, when: object, *deliveries: str) -> Notification:
    row = Notification.objects.create(user=player.user, kind="your_turn", created_at=when)
    for channel, status in zip(("email", "webpush", "webhook"), deliveries, strict=False):
        Delivery.objects.create(notification=row, channel=channel, status=status, created_at=when)
    return row


def test_old_notifications_go_with_their_finished_deliveries_and_nothing_owed_goes(
    alice: Player,
) -> None:
    gone = [
        notification(alice, OLD),
        notification(alice, OLD, Delivery.SENT, Delivery.FAILED),
        notification(alice, OLD, Delivery.SKIPPED),
    ]
    kept = [
        notification(alice, RECENT, Delivery.SENT),
        notification(alice, OLD, Delivery.SENT, Delivery.PENDING),  # still owed
        notification(alice, OLD, Delivery.HELD),
        notification(alice, OLD, Delivery.SENDING),
    ]

    pruned = tasks.prune.apply().get()

    assert pruned["notifications"] == len(gone)
    assert set(Notification.objects.values_list("pk", flat=True)) == {n.pk for n in kept}
    assert Delivery.objects.count() == 5  # the kept notifications' deliveries, all of them
    assert tasks.prune()["notifications"] == 0  # a second run finds nothing left to do


def test_old_finished_webhook_deliveries_and_attempts_go_and_retries_stay(alice: Player) -> None:
    token, _ = ApiToken.issue(alice.user, name="app", scope=ApiToken.SCOPE_PLAY)
    endpoint = WebhookEndpoint.objects.create(
        user=alice.user, token=token, url="https://example.com/hook", secret="s"
    )
    old = timezone.now() - timedelta(days=31)

    def delivery(status: str, when: object) -> WebhookDelivery:
        row = WebhookDelivery.objects.create(
            endpoint=endpoint,
            event_id=uuid.uuid4(),
            kind="your_turn",
            payload={},
            status=status,
            created_at=when,
        )
        WebhookAttempt.objects.create(delivery=row, endpoint=endpoint, attempt=1, at=when)
        return row

    delivery(WebhookDelivery.SENT, old)
    delivery(WebhookDelivery.FAILED, old)
    retry = delivery(WebhookDelivery.PENDING, old)
    fresh = delivery(WebhookDelivery.SENT, timezone.now())

    pruned = tasks.prune()

    assert pruned["webhook_deliveries"] == 2
    assert set(WebhookDelivery.objects.values_list("pk", flat=True)) == {retry.pk, fresh.pk}
    # The retry's own old attempt goes from the log; the delivery itself is kept.
    assert pruned["webhook_attempts"] == 1
    assert list(WebhookAttempt.objects.values_list("delivery_id", flat=True)) == [fresh.pk]


def test_old_idempotency_keys_are_forgotten(alice: Player) -> None:
    old = IdempotencyRecord.objects.create(user=alice.user, key="old", request_hash="h")
    IdempotencyRecord.objects.filter(pk=old.pk).update(
        created_at=timezone.now() - timedelta(days=8)
    )
    IdempotencyRecord.objects.create(user=alice.user, key="new", request_hash="h")

    assert game_tasks.prune_idempotency_keys.apply().get() == 1
    assert list(IdempotencyRecord.objects.values_list("key", flat=True)) == ["new"]
    assert idempotency.prune() == 0


def test_batches_delete_everything_due(alice: Player) -> None:
    Notification.objects.bulk_create(
        Notification(user=alice.user, kind="your_turn", created_at=OLD) for _ in range(25)
    )
    from config.db import delete_in_batches

    assert delete_in_batches(Notification.objects.filter(created_at__lt=RECENT), batch=10) == 25
    assert not Notification.objects.exists()
