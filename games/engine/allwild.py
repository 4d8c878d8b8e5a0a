"""Re-exports All Wild's rules (``uno.allwild.rules``) under their old name, for the service until
it reaches games through the registry."""

from .uno.allwild.legal import legal_actions
from .uno.allwild.rules import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    SUPPORTED_HOUSE_RULES,
    apply,
    new_game,
    validate_options,
)

__all__ = [
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "SUPPORTED_HOUSE_RULES",
    "apply",
    "legal_actions",
    "new_game",
    "validate_options",
]
