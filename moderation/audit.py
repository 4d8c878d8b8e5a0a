"""Writing the audit log: one call per moderation act, inside the act's transaction."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

# The action codes live in moderation.actions; audit.X keeps naming them for the callers.
from moderation.actions import (  # noqa: F401
    ACTION_LABELS,
    CHAT_MESSAGE_DELETED,
    CHAT_MESSAGE_FILTERED,
    GAME_ABORTED,
    MODERATOR_GRANTED,
    MODERATOR_REMOVED,
    NAME_RESET,
    PLAYER_BANNED,
    PLAYER_CHAT_MUTED,
    PLAYER_REMOVED,
    PLAYER_SUSPENDED,
    PLAYER_UNBANNED,
    PLAYER_WARNED,
    RATINGS_VOIDED,
    REPLAY_VIEWED,
    REPORT_DISMISSED,
    SUSPENSION_EXPIRED,
    TURN_TIMED_OUT,
    action_label,
    target_in_words,
)
from moderation.models import AuditEntry, Report

SYSTEM = "(system)"


def reason_in_words(entry: AuditEntry) -> str:
    """The entry's reason as the moderator reads it: a moderator's own words as typed, the
    service's fixed texts (marked with gettext_noop where written) in the moderator's
    language."""
    move = entry.details.get("move") if isinstance(entry.details, dict) else None
    if entry.action == REPLAY_VIEWED and isinstance(move, int):
        return gettext("Opened the replay at move %(move)d.") % {"move": move}
    return gettext(entry.reason) if entry.reason else entry.reason


def record(
    *,
    actor: Any,
    action: str,
    reason: str,
    target_user: Any = None,
    target_game: Any = None,
    report: Report | None = None,
    target: str = "",
    **details: Any,
) -> AuditEntry:
    """Append one entry. ``actor`` None means the system (an expired suspension)."""
    if not target:
        if target_user is not None:
            target = f"player {target_user.username} (#{target_user.pk})"
        elif target_game is not None:
            target = f"game {target_game.pk}"
    return AuditEntry.objects.create(
        actor=actor,
        actor_name=actor.username if actor is not None else SYSTEM,
        action=action,
        target_user=target_user,
        target_game=target_game,
        report=report,
        target=target[:200],
        reason=reason,
        details=details,
    )
