"""The chat API's shapes."""

from __future__ import annotations

from rest_framework import serializers

from chat.models import MAX_LENGTH, ChatMessage
from config.fields import StrictBooleanField, StrictCharField
from config.serializers import StrictSerializer


class ChatMessageSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    channel = serializers.ChoiceField(choices=[c for c, _ in ChatMessage.CHANNELS])
    author = serializers.CharField(help_text="The author's shown name when they wrote it.")
    author_username = serializers.CharField(help_text="For `@username` mentions and muting.")
    text = serializers.CharField(
        help_text="Plain text: show it as text, never as HTML. Empty in a tombstone."
    )
    created_at = serializers.DateTimeField()
    mine = serializers.BooleanField()
    filtered = serializers.BooleanField(
        help_text="Your own message that the word filter hid from everybody else."
    )
    deletes = serializers.IntegerField(
        allow_null=True,
        help_text="Set in a tombstone: the moderators deleted this message; remove it.",
    )


class ChatPageSerializer(serializers.Serializer):
    messages = ChatMessageSerializer(many=True)
    next_after = serializers.IntegerField(
        help_text="The cursor: pass it as `after` (or the stream's `chat_after`) to go on."
    )
    has_more = serializers.BooleanField()
    enabled = serializers.BooleanField(help_text="Your own chat switch (off: no messages).")


class ChatPostSerializer(StrictSerializer):
    channel = serializers.ChoiceField(
        choices=[c for c, _ in ChatMessage.CHANNELS], default=ChatMessage.PLAYERS
    )
    text = StrictCharField(
        max_length=MAX_LENGTH * 2,
        trim_whitespace=False,
        help_text="Plain text: at most 500 characters once control and bidirectional-override "
        "characters are removed.",
    )


class ChatSettingsSerializer(StrictSerializer):
    enabled = StrictBooleanField(help_text="Off: no game's chat reaches you.")


class MuteRequestSerializer(StrictSerializer):
    username = StrictCharField(max_length=150)


class MutedSerializer(serializers.Serializer):
    username = serializers.CharField(source="muted.username")
    display_name = serializers.CharField(source="muted.public_name")
    since = serializers.DateTimeField(source="created_at")
