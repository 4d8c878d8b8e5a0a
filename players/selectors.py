"""Every read about an account: its tokens and the full export of its data."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db.models import QuerySet
from django.utils import timezone

from players.models import ApiToken, User


def live_tokens(user: User) -> QuerySet[ApiToken]:
    """Tokens that still work: neither revoked nor expired. Newest first."""
    now = timezone.now()
    return ApiToken.objects.filter(user=user, revoked_at__isnull=True).exclude(expires_at__lte=now)


ExportPart = Callable[[User], Any]

# What other apps add to the export, by key (the games app adds "games" in its AppConfig.ready).
_export_parts: dict[str, ExportPart] = {}


def add_to_export(key: str, part: ExportPart) -> None:
    """Put ``part(user)`` under ``key`` in every export. Idempotent by key."""
    _export_parts[key] = part


def export(user: User) -> dict[str, Any]:
    """Everything stored about ``user``, for a GDPR data export: the account and its tokens here,
    and what the other apps keep about the player (``add_to_export``; games adds their games)."""
    tokens = ApiToken.objects.filter(user=user).order_by("created_at")
    return {
        "exported_at": timezone.now(),
        "profile": user,
        "tokens": list(tokens),
        **{key: part(user) for key, part in _export_parts.items()},
    }
