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
