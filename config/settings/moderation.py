"""Moderation: blocked names and collusion signals.

Included by ``config/settings/__init__.py`` into one namespace: names from the parts
included before this one are in scope."""

from __future__ import annotations

from django.core.exceptions import ImproperlyConfigured

from config.env import env_int, env_list, env_str

DISPLAY_NAME_BLOCKLIST = env_list(
    "DISPLAY_NAME_BLOCKLIST",
    default=["admin", "moderator", "unoallwild"],
    help="Words refused anywhere in a display name or username (by look-alike skeleton).",
)
DISPLAY_NAME_BLOCKLIST_FILE = env_str(
    "DISPLAY_NAME_BLOCKLIST_FILE",
    default="",
    help="A file with more blocked words, one per line (# starts a comment).",
)
# The chat's word filter (chat/text.py): matched like the names blocklist, word by word; a
# message it catches is shown to its author only and counts toward moderation.
CHAT_WORD_FILTER = env_list(
    "CHAT_WORD_FILTER",
    default=[],
    help="Words that hide a chat message from everybody but its author (by look-alike skeleton).",
)
CHAT_WORD_FILTER_FILE = env_str(
    "CHAT_WORD_FILTER_FILE",
    default="",
    help="A file with more filtered chat words, one per line (# starts a comment).",
)
_collusion_z = env_str(
    "COLLUSION_Z_THRESHOLD",
    default="3.0",
    help="Collusion signals list pairs whose targeting is this many standard deviations off.",
)
try:
    COLLUSION_Z_THRESHOLD = float(_collusion_z)
except ValueError:
    raise ImproperlyConfigured(
        f"COLLUSION_Z_THRESHOLD must be a number, got {_collusion_z!r}."
    ) from None
if not COLLUSION_Z_THRESHOLD > 0:
    raise ImproperlyConfigured("COLLUSION_Z_THRESHOLD must be greater than 0.")
COLLUSION_MIN_TARGETED_PLAYS = env_int(
    "COLLUSION_MIN_TARGETED_PLAYS",
    default=20,
    min_value=1,
    help="Targeted plays a pair needs between them before it can be flagged.",
)
COLLUSION_WINDOW_DAYS = env_int(
    "COLLUSION_WINDOW_DAYS",
    default=90,
    min_value=1,
    help="Collusion signals look at games created in this many last days.",
)
