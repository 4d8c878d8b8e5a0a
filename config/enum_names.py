"""The schema's enum names, apart from config/openapi.py: settings read them, and settings may
import nothing of DRF's (a DRF view class imported while settings load would keep DRF's default
schema class, not drf-spectacular's)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

# The schema's enum names: drf-spectacular's ENUM_NAME_OVERRIDES (name -> the choices, or the
# dotted path of a list of them), which settings point at. The platform's are below; each game
# kind adds its own when it is registered (games.kinds.registry, from its adapter's
# ``enum_names``), so that no game is named here or in settings.
ENUM_NAMES: dict[str, Any] = {
    # Reports have a `status` and a `reason` of their own: every `status` enum is named, so that
    # none gets a hash suffix, and `reason` and `reasons` (same choices) get one name.
    "StatusEnum": "moderation.api.serializers.GAME_STATUS_VALUES",
    "ReportStatusEnum": "moderation.models.Report.STATUSES",
    "ReportReasonEnum": "moderation.api.serializers.PLAYER_REASONS",
    "OAuthScopeEnum": "players.oauth.SCOPE_NAMES",
    # Notification kinds keep one name wherever they appear (webhook `kinds` filters too);
    # the webhook event's `type` gets its own.
    "KindEnum": "notifications.kinds.KINDS",
    "WebhookEventTypeEnum": "notifications.models.WebhookDelivery.TYPES",
    # The kinds a game is created with (each game's table's own kind is its adapter's).
    "GameEnum": "games.api.serializers.game_kinds",
}


def name_enums(names: Mapping[str, Any]) -> None:
    """Add enum names to the schema's (``ENUM_NAMES``). A name means one choice set: giving it
    again with other choices is a mistake, refused."""
    for name, choices in names.items():
        if ENUM_NAMES.setdefault(name, choices) != choices:
            raise ValueError(f"the schema's enum {name} is named for other choices already")


def unname_enums(names: Mapping[str, Any], keep: Mapping[str, Any]) -> None:
    """Remove enum names added by ``name_enums``, but those in ``keep`` (still in use)."""
    for name in set(names) - set(keep):
        ENUM_NAMES.pop(name, None)
