"""Shapes of the notifications API.

The preference switches are built from the channel registry and the kinds when this module is
imported (after the apps are ready, when the URLconf loads the views), so a new channel shows up
in the API and its schema without touching this file.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from config.fields import StrictBooleanField, StrictCharField, StrictIntegerField
from config.serializers import StrictSerializer
from notifications import channels, data, kinds, texts
from notifications.models import Notification


class NotificationSerializer(serializers.Serializer):
    id = StrictIntegerField(help_text="Use as `before` to page to older notifications.")
    event_id = serializers.UUIDField(
        help_text="Stable id; e-mails, pushes and webhooks about this notification carry it."
    )
    kind = serializers.ChoiceField(choices=list(kinds.KINDS))
    game = serializers.UUIDField(allow_null=True, help_text="The game it is about, if any.")
    title = StrictCharField(help_text="In your language.")
    body = StrictCharField(help_text="In your language.")
    url = StrictCharField(help_text="Where the web client shows it.")
    data = serializers.DictField(
        help_text="The facts the texts are made from (names, numbers); depends on `kind`."
    )
    created_at = serializers.DateTimeField()
    read_at = serializers.DateTimeField(allow_null=True)


# In the schema a notification is one shape per kind, its `data` typed (notifications/data.py).
NotificationByKind = data.by_kind(NotificationSerializer, "Notification", lambda: kinds.KINDS)


def present(notification: Notification, language: str) -> dict[str, Any]:
    with texts.in_language(language):
        title, body = texts.render(notification.kind, notification.data)
    return {
        "id": notification.pk,
        "event_id": notification.event_id,
        "kind": notification.kind,
        "game": notification.game_id,
        "title": title,
        "body": body,
        "url": texts.url_for(notification.kind, notification.game_id),
        "data": notification.data,
        "created_at": notification.created_at,
        "read_at": notification.read_at,
    }


class InboxPageSerializer(serializers.Serializer):
    results = NotificationSerializer(many=True)
    has_more = StrictBooleanField(help_text="Whether older notifications exist.")
    next_before = StrictIntegerField(
        allow_null=True, help_text="Pass as `before` for the next (older) page."
    )


class UnreadCountSerializer(serializers.Serializer):
    unread = StrictIntegerField(help_text="Unread notifications in the inbox.")
    games_waiting = StrictIntegerField(
        help_text="Games waiting for your move now: what the badge shows (one per game)."
    )


class ReadAllRequestSerializer(StrictSerializer):
    up_to = StrictIntegerField(
        required=False,
        min_value=1,
        help_text="Only notifications with this id or lower (what the client has shown).",
    )


class ReadAllResponseSerializer(serializers.Serializer):
    marked = StrictIntegerField(help_text="How many notifications were unread before.")


def _switches_serializer() -> type[serializers.Serializer]:
    fields: dict[str, Any] = {
        kind: StrictBooleanField(required=False, help_text=kinds.DESCRIPTIONS[kind])
        for kind in kinds.KINDS
    }
    return type("NotificationSwitchesSerializer", (StrictSerializer,), fields)


NotificationSwitchesSerializer = _switches_serializer()


def _channels_serializer() -> type[serializers.Serializer]:
    fields: dict[str, Any] = {
        name: NotificationSwitchesSerializer(
            required=False, help_text=f"Which kinds are sent by {name}."
        )
        for name in channels.names()
    }
    return type("NotificationChannelsSerializer", (StrictSerializer,), fields)


NotificationChannelsSerializer = _channels_serializer()


@extend_schema_field(
    {
        # Not `format: time`: that is RFC 3339's full-time, which has a UTC offset. These are
        # wall-clock times in the profile's time zone, and answers carry no offset.
        "type": "string",
        "pattern": r"^([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9](\.[0-9]{1,6})?)?$",
        "example": "22:00",
    }
)
class LocalTimeField(serializers.TimeField):
    """A local time of day, ``HH:MM`` or ``HH:MM:SS[.ffffff]``, without a UTC offset."""


class QuietHoursSerializer(StrictSerializer):
    start = LocalTimeField(help_text="Local time (your profile's time zone), e.g. 22:00.")
    end = LocalTimeField(help_text="Local time; before `start` means the next morning.")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs["start"] == attrs["end"]:
            raise serializers.ValidationError("start and end must differ.")
        return attrs


class PreferencesSerializer(serializers.Serializer):
    channels = NotificationChannelsSerializer(
        help_text=(
            "Per channel, which kinds it sends. The in-app inbox is not listed: it always gets "
            "every notification."
        )
    )
    quiet_hours = QuietHoursSerializer(
        allow_null=True,
        help_text=(
            "External channels hold what falls into these hours and send it when they end; the "
            "inbox still gets it at once. Null: no quiet hours."
        ),
    )
    time_zone = StrictCharField(
        read_only=True, help_text="Your profile's time zone, in which quiet hours are read."
    )


class PreferencesUpdateSerializer(StrictSerializer):
    channels = NotificationChannelsSerializer(
        required=False, help_text="Only the switches you send change."
    )
    quiet_hours = QuietHoursSerializer(
        required=False, allow_null=True, help_text="Null switches quiet hours off."
    )
