"""Writing the audit log: one call per moderation act, inside the act's transaction."""

from __future__ import annotations

import re
from typing import Any

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

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

# The actions as the audit list names them, in the moderator's language (the stored codes stay).
ACTION_LABELS = {
    REPORT_DISMISSED: _("Report dismissed"),
    PLAYER_WARNED: _("Player warned"),
    PLAYER_SUSPENDED: _("Player suspended"),
    PLAYER_BANNED: _("Player banned"),
    PLAYER_UNBANNED: _("Player unbanned"),
    SUSPENSION_EXPIRED: _("Suspension ran out"),
    NAME_RESET: _("Display name reset"),
    GAME_ABORTED: _("Game aborted"),
    PLAYER_REMOVED: _("Player removed from a game"),
    TURN_TIMED_OUT: _("Turn forced to time out"),
    REPLAY_VIEWED: _("Replay viewed"),
    MODERATOR_GRANTED: _("Made a moderator"),
    MODERATOR_REMOVED: _("No longer a moderator"),
}

# The stored target is an English snapshot (the CSV export keeps it as written); shown, it is
# put into the moderator's language by its shape.
_TARGETS = [
    (
        re.compile(r"^player (?P<name>.+) \(#(?P<id>\d+)\) in game (?P<game>\S+)$"),
        _("player %(name)s (#%(id)s) in game %(game)s"),
    ),
    (re.compile(r"^player (?P<name>.+) \(#(?P<id>\d+)\)$"), _("player %(name)s (#%(id)s)")),
    (
        re.compile(r"^turn of (?P<name>.+) in game (?P<game>\S+)$"),
        _("turn of %(name)s in game %(game)s"),
    ),
    (re.compile(r"^report #(?P<id>\d+)$"), _("report #%(id)s")),
    (re.compile(r"^game (?P<game>\S+)$"), _("game %(game)s")),
]


def action_label(action: str) -> str:
    label = ACTION_LABELS.get(action)
    return str(label) if label is not None else action


def target_in_words(target: str) -> str:
    for pattern, words in _TARGETS:
        match = pattern.match(target)
        if match:
            return str(words) % match.groupdict()
    return target


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
