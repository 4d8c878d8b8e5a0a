"""The audit log's actions: the stable codes its ``action`` column holds, and how the panel
names them and their targets in the moderator's language. Apart from audit.py so the model's
``__str__`` can use them too (audit.py imports the models)."""

from __future__ import annotations

import re

from django.utils.translation import gettext_lazy as _

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
RATINGS_VOIDED = "ratings_voided"
REPLAY_VIEWED = "replay_viewed"
MODERATOR_GRANTED = "moderator_granted"
MODERATOR_REMOVED = "moderator_removed"
CHAT_MESSAGE_DELETED = "chat_message_deleted"
PLAYER_CHAT_MUTED = "player_chat_muted"
CHAT_MESSAGE_FILTERED = "chat_message_filtered"

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
    RATINGS_VOIDED: _("Rating changes voided"),
    REPLAY_VIEWED: _("Replay viewed"),
    MODERATOR_GRANTED: _("Made a moderator"),
    MODERATOR_REMOVED: _("No longer a moderator"),
    CHAT_MESSAGE_DELETED: _("Chat message deleted"),
    PLAYER_CHAT_MUTED: _("Player muted from chat"),
    CHAT_MESSAGE_FILTERED: _("Chat message caught by the word filter"),
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
    (
        re.compile(r"^chat message #(?P<id>\d+) in game (?P<game>\S+)$"),
        _("chat message #%(id)s in game %(game)s"),
    ),
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
