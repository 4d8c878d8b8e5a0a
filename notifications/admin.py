"""Moderation screens: what was notified, what the outbox is doing, and sending it again."""

from __future__ import annotations

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone

from notifications.models import (
    Delivery,
    Notification,
    Preference,
    PushSubscription,
    WebhookAttempt,
    WebhookEndpoint,
)


class DeliveryInline(admin.TabularInline):
    model = Delivery
    extra = 0
    can_delete = False
    readonly_fields = [
        "channel",
        "status",
        "attempts",
        "next_attempt_at",
        "claimed_at",
        "sent_at",
        "last_error",
    ]
    fields = readonly_fields

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    list_display = ["id", "user", "kind", "game", "created_at", "read_at"]
    list_filter = ["kind", "created_at"]
    search_fields = ["user__username", "event_id", "key"]
    raw_id_fields = ["user", "game"]
    readonly_fields = ["event_id", "key", "created_at"]
    inlines = [DeliveryInline]


@admin.register(Delivery)
class DeliveryAdmin(admin.ModelAdmin):
    list_display = ["id", "notification", "channel", "status", "attempts", "next_attempt_at"]
    list_filter = ["status", "channel"]
    search_fields = ["notification__user__username", "notification__event_id"]
    raw_id_fields = ["notification"]
    readonly_fields = ["claim", "claimed_at", "sent_at", "created_at"]
    actions = ["retry_now"]

    @admin.action(description="Send again now (failed, held or pending)")
    def retry_now(self, request: HttpRequest, queryset: QuerySet[Delivery]) -> None:
        # Same event id as before: receivers that saw it already drop it.
        changed = queryset.filter(
            status__in=[Delivery.FAILED, Delivery.HELD, Delivery.PENDING]
        ).update(status=Delivery.PENDING, next_attempt_at=timezone.now(), last_error="")
        self.message_user(request, f"{changed} deliveries will be sent by the next relay sweep.")


@admin.register(Preference)
class PreferenceAdmin(admin.ModelAdmin):
    list_display = ["user", "quiet_start", "quiet_end", "updated_at"]
    search_fields = ["user__username"]
    raw_id_fields = ["user"]


@admin.register(PushSubscription)
class PushSubscriptionAdmin(admin.ModelAdmin):
    list_display = ["id", "user", "user_agent", "created_at", "last_success_at"]
    search_fields = ["user__username", "endpoint"]
    raw_id_fields = ["user"]
    readonly_fields = ["endpoint", "p256dh", "auth", "created_at", "last_success_at"]


@admin.register(WebhookEndpoint)
class WebhookEndpointAdmin(admin.ModelAdmin):
    list_display = ["id", "user", "url", "active", "failure_count", "disabled_at", "created_at"]
    list_filter = ["active"]
    search_fields = ["user__username", "url"]
    raw_id_fields = ["user", "token"]
    # The signing secret is its owner's: never shown, not even here.
    exclude = ["secret"]
    readonly_fields = ["created_at", "last_success_at", "last_failure_at"]


@admin.register(WebhookAttempt)
class WebhookAttemptAdmin(admin.ModelAdmin):
    """The webhook delivery log: every request, its answer and how long it took."""

    list_display = [
        "id",
        "endpoint",
        "delivery",
        "attempt",
        "status_code",
        "ok",
        "duration_ms",
        "at",
    ]
    list_filter = ["ok", "at"]
    search_fields = ["endpoint__url", "endpoint__user__username", "delivery__event_id"]
    raw_id_fields = ["endpoint", "delivery"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False
