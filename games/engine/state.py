"""Re-exports the Uno family's state (``uno.state``) and All Wild's house rules under their old
names, for the service until it reaches games through the registry."""

from .uno.allwild.house_rules import HOUSE_RULES
from .uno.state import (
    CHOOSE,
    CLOCKWISE,
    COUNTERCLOCKWISE,
    DRAWN,
    MATCH_OVER,
    PHASES,
    PLAY,
    ROUND_OVER,
    STACK,
    Seat,
    State,
    copy_state,
)

__all__ = [
    "CHOOSE",
    "CLOCKWISE",
    "COUNTERCLOCKWISE",
    "DRAWN",
    "HOUSE_RULES",
    "MATCH_OVER",
    "PHASES",
    "PLAY",
    "ROUND_OVER",
    "STACK",
    "Seat",
    "State",
    "copy_state",
]
