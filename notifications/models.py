"""The inbox (``Notification``), the outbox (``Delivery``) and the players' ``Preference``.

A notification and its deliveries are written in the transaction of whatever caused them (a move,
a reminder, an invitation), so the inbox row exists exactly when the cause committed. Deliveries
to external channels (e-mail; Web Push and webhooks later) are sent after commit by the relay
(``notifications.relay``), at least once, always under the notification's ``event_id``.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone


class Notification(models.Model):
    """One entry of a player's inbox. Its texts are rendered when read, in the player's language
    of the moment, from ``kind`` and ``data`` (names and numbers, never hidden cards)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    # One of notifications.kinds.KINDS. No choices: a new kind must not need a migration.
    kind = models.CharField(max_length=20)
    game = models.ForeignKey(
        "games.Game",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="notifications",
    )
    data = models.JSONField(default=dict, blank=True)
    # Sent with every external delivery and every retry of it, so receivers can drop duplicates.
    event_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    # What caused it, e.g. "move:<move id>:caught:<user id>": a second attempt to record the same
    # cause (a repeated reminder sweep) hits this unique key instead of filling the inbox twice.
    key = models.CharField(max_length=200, unique=True, null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    read_at = models.DateTimeField(null=True, blank=True)
    # Withdrawn from the inbox: a "your turn" replaced by a newer one or made moot by the
    # player's move, or any game notice that arrived while its player had the game open. The
    # row and its deliveries stay (what was sent is history); only the inbox stops showing it.
    cleared_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]
        constraints = [
            # One live "your turn" per player and game: the next turn replaces it.
            models.UniqueConstraint(
                fields=["user", "game"],
                condition=Q(kind="your_turn", cleared_at__isnull=True),
                name="one_live_turn_notice",
            )
        ]
        indexes = [
            # The inbox, newest first, and "my unread" (the badge), both by user.
            models.Index(fields=["user", "-id"], name="notif_inbox"),
            models.Index(fields=["user"], condition=Q(read_at__isnull=True), name="notif_unread"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} for user {self.user_id} ({self.event_id})"


class Delivery(models.Model):
    """One notification to send on one external channel: the outbox row the relay works on."""

    PENDING = "pending"  # due at next_attempt_at
    HELD = "held"  # quiet hours: due when they end (next_attempt_at)
    SENDING = "sending"  # claimed by a relay; reclaimed when the claim is too old
    SENT = "sent"
    FAILED = "failed"  # gave up: a permanent error, or too many attempts
    SKIPPED = "skipped"  # not sent on purpose (turn already played, switched off, watching)
    STATUSES = [
        (PENDING, "Pending"),
        (HELD, "Held for quiet hours"),
        (SENDING, "Sending"),
        (SENT, "Sent"),
        (FAILED, "Failed"),
        (SKIPPED, "Skipped"),
    ]
    DUE = (PENDING, HELD)

    notification = models.ForeignKey(
        Notification, on_delete=models.CASCADE, related_name="deliveries"
    )
    # A registered channel's name ("email"; "webpush", "webhook" ...). No choices: a new channel
    # must not need a migration of this table.
    channel = models.CharField(max_length=20)
    status = models.CharField(max_length=10, choices=STATUSES, default=PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    next_attempt_at = models.DateTimeField(default=timezone.now)
    # The claim of the relay that is sending it: its updates only count while it still holds it.
    claim = models.UUIDField(null=True, blank=True)
    claimed_at = models.DateTimeField(null=True, blank=True)
    last_error = models.TextField(blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["next_attempt_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["notification", "channel"], name="one_delivery_per_channel"
            )
        ]
        indexes = [
            # The relay's question: what is due now? Only unfinished rows are indexed.
            models.Index(
                fields=["next_attempt_at"],
                condition=Q(status__in=["pending", "held"]),
                name="delivery_due",
            ),
            models.Index(
                fields=["claimed_at"], condition=Q(status="sending"), name="delivery_claimed"
            ),
            models.Index(fields=["claim"], name="delivery_claim"),
        ]
        verbose_name_plural = "deliveries"

    def __str__(self) -> str:
        return f"{self.channel} delivery of {self.notification_id} ({self.status})"


class Preference(models.Model):
    """A player's choices. No row means the defaults (see ``notifications.preferences``)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notification_preference"
    )
    # {"email": {"round_over": true, ...}, ...}: only the switches that differ from a channel's
    # defaults need to be here; unknown channels and kinds are ignored.
    switches = models.JSONField(default=dict, blank=True)
    # Local times in the player's time zone; both set or both empty. start > end spans midnight.
    quiet_start = models.TimeField(null=True, blank=True)
    quiet_end = models.TimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"notification preferences of user {self.user_id}"


# ---------------------------------------------------------------------------------------------
# Web Push and webhooks: where the "webpush" and "webhook" channels send (notifications/channels).


class PushSubscription(models.Model):
    """One browser's Web Push subscription (its ``PushSubscription.toJSON()``). A browser that
    subscribes again with the same endpoint replaces the row; the push service's 404/410 for an
    endpoint deletes it."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    # The push service's URL for this browser: a capability, unique to the subscription.
    endpoint = models.URLField(max_length=2000, unique=True)
    p256dh = models.CharField(max_length=200)  # the browser's P-256 public key, base64url
    auth = models.CharField(max_length=100)  # the 16-byte auth secret, base64url
    user_agent = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    last_success_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]

    def __str__(self) -> str:
        return f"push subscription {self.pk} of user {self.user_id}"


class WebhookEndpoint(models.Model):
    """A URL a third-party app gave us to POST a player's notifications to, signed with
    ``secret``. Bound to an API token when ``token`` is set: it then stops with the token."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="webhook_endpoints"
    )
    token = models.ForeignKey(
        "players.ApiToken",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="webhook_endpoints",
    )
    url = models.URLField(max_length=2000)
    description = models.CharField(max_length=100, blank=True)
    # HMAC-SHA256 key of the signatures; shown to the owner once, when the endpoint is created.
    secret = models.CharField(max_length=100)
    # Only these kinds (plus test events); empty: every kind the player's preferences send.
    kinds = models.JSONField(default=list, blank=True)
    active = models.BooleanField(default=True)
    # Failed requests in a row; WEBHOOK_MAX_FAILURES of them switch the endpoint off.
    failure_count = models.PositiveIntegerField(default=0)
    disabled_at = models.DateTimeField(null=True, blank=True)
    disabled_reason = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    last_success_at = models.DateTimeField(null=True, blank=True)
    last_failure_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["id"]
        indexes = [
            models.Index(fields=["user"], condition=Q(active=True), name="webhook_active_user"),
        ]

    def __str__(self) -> str:
        return f"webhook {self.pk} of user {self.user_id} ({self.url})"

    def wants(self, kind: str) -> bool:
        return not self.kinds or kind in self.kinds


class WebhookDelivery(models.Model):
    """One event for one endpoint: the same ``event_id`` and body on every try. Notifications
    are retried by the relay (their ``Delivery`` row), test events by ``next_attempt_at``."""

    NOTIFICATION = "notification"
    TEST = "test"
    TYPES = [(NOTIFICATION, "Notification"), (TEST, "Test event")]

    PENDING = "pending"  # not delivered yet; will be tried again
    SENDING = "sending"  # a test event claimed by a sender
    SENT = "sent"
    FAILED = "failed"  # given up
    STATUSES = [(PENDING, "Pending"), (SENDING, "Sending"), (SENT, "Sent"), (FAILED, "Failed")]

    endpoint = models.ForeignKey(
        WebhookEndpoint, on_delete=models.CASCADE, related_name="deliveries"
    )
    event_id = models.UUIDField()
    type = models.CharField(max_length=20, choices=TYPES, default=NOTIFICATION)
    kind = models.CharField(max_length=20)
    payload = models.JSONField()
    status = models.CharField(max_length=10, choices=STATUSES, default=PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    # Only for test events (the relay schedules notifications): when to try again.
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    claimed_at = models.DateTimeField(null=True, blank=True)
    last_error = models.TextField(blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(fields=["endpoint", "event_id"], name="one_webhook_per_event")
        ]
        indexes = [
            models.Index(
                fields=["next_attempt_at"],
                condition=Q(status__in=["pending", "sending"], next_attempt_at__isnull=False),
                name="webhook_due",
            ),
        ]
        verbose_name_plural = "webhook deliveries"

    def __str__(self) -> str:
        return f"{self.type} {self.event_id} to webhook {self.endpoint_id} ({self.status})"


class WebhookAttempt(models.Model):
    """One HTTP request to a webhook endpoint: the delivery log its owner reads."""

    delivery = models.ForeignKey(
        WebhookDelivery, on_delete=models.CASCADE, related_name="attempt_log"
    )
    endpoint = models.ForeignKey(WebhookEndpoint, on_delete=models.CASCADE, related_name="attempts")
    attempt = models.PositiveSmallIntegerField()  # 1 for the first try of the event
    status_code = models.PositiveSmallIntegerField(null=True, blank=True)  # none: no answer
    ok = models.BooleanField(default=False)
    duration_ms = models.PositiveIntegerField(default=0)
    error = models.CharField(max_length=500, blank=True)
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-id"]
        indexes = [models.Index(fields=["endpoint", "-id"], name="webhook_attempt_log")]

    def __str__(self) -> str:
        return f"attempt {self.attempt} of {self.delivery_id}: {self.status_code or self.error}"
