"""Writing the audit log: one call per moderation act, inside the act's transaction."""

from __future__ import annotations

from typing import Any

from moderation.models import AuditEntry, Report

# What the log's "action" column holds (stable: CSV exports are read by scripts).
REPORT_DISMISSED = "report_dismissed"
PLAYER_WARNED = "player_warned"
PLAYER_SUSPENDED = "player_suspended"
PLAYER_BANNED = "player_banned"
PLAYER_UNBANNED = "player_unbanned"
SUSPENSION_EXPIRED = "suspension_expired"
NAME_RESET = "display_name_reset"
GAME_ABORTED = "game_aborted"
PLAYER_REMOVED = "player_removed"
TURN_TIMED_OUT = "turn_forced_timeout"
REPLAY_VIEWED = "replay_viewed"
MODERATOR_GRANTED = "moderator_granted"
MODERATOR_REMOVED = "moderator_removed"

SYSTEM = "(system)"


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
