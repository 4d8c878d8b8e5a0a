"""Request and response shapes of the reports and blocks API."""

from __future__ import annotations

from rest_framework import serializers

from config.fields import StrictCharField, StrictIntegerField, StrictUUIDField
from config.serializers import StrictSerializer
from games.models import Game
from moderation.models import Block, Report

# The games' `status` enum exactly as games/api/serializers.py declares it (values only): named
# StatusEnum in settings' ENUM_NAME_OVERRIDES, next to ReportStatusEnum, so neither gets a hash.
GAME_STATUS_VALUES = [value for value, _ in Game.STATUSES]


# The reasons a player gives: the word filter's (``chat_filtered``) is the service's own, and
# never on a player's report.
PLAYER_REASONS = [(r, label) for r, label in Report.REASONS if r != Report.CHAT_FILTERED]


class ReportCreateSerializer(StrictSerializer):
    player_id = StrictIntegerField(help_text="The reported player (`user_id` in games).")
    # A chat message is reported with the message (chat_messages_report), not here.
    reason = serializers.ChoiceField(
        choices=[(r, label) for r, label in PLAYER_REASONS if r != Report.CHAT_MESSAGE]
    )
    details = StrictCharField(
        max_length=2000, required=False, allow_blank=True, default="", help_text="Free text."
    )
    game_id = StrictUUIDField(
        required=False, allow_null=True, default=None, help_text="Optional: a game you shared."
    )


class ReportSerializer(serializers.ModelSerializer):
    """One of my reports. Its status, never what was done to the player."""

    player_id = StrictIntegerField(source="reported_id")
    player_name = StrictCharField(source="reported.public_name")
    game_id = serializers.UUIDField(allow_null=True)
    reason = serializers.ChoiceField(choices=PLAYER_REASONS, read_only=True)
    reasons = serializers.ListField(
        child=serializers.ChoiceField(choices=PLAYER_REASONS),
        help_text="Every reason given, when reports of the same player were merged.",
    )
    times = StrictIntegerField(help_text="How many of my reports were merged into this.")
    status = serializers.ChoiceField(
        choices=Report.STATUSES,
        help_text="`open` until a moderator closes it: `dismissed` or `actioned`.",
    )

    class Meta:
        model = Report
        fields = [
            "id",
            "player_id",
            "player_name",
            "reason",
            "reasons",
            "details",
            "game_id",
            "times",
            "status",
            "created_at",
            "last_reported_at",
            "resolved_at",
        ]
        read_only_fields = fields


class BlockCreateSerializer(StrictSerializer):
    player_id = StrictIntegerField(help_text="The player to block (`user_id` in games).")


class BlockSerializer(serializers.ModelSerializer):
    player_id = StrictIntegerField(source="blocked_id")
    player_name = StrictCharField(source="blocked.public_name")

    class Meta:
        model = Block
        fields = ["player_id", "player_name", "created_at"]
        read_only_fields = fields


class ChatReportSerializer(StrictSerializer):
    details = StrictCharField(
        max_length=2000, required=False, allow_blank=True, default="", help_text="Free text."
    )
