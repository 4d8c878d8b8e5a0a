"""Re-exports the All Wild game object (``uno.allwild.game``) under its first name."""

from .uno.allwild.game import ALL_WILD, HOUSE_RULE_TEXTS, AllWild

__all__ = ["ALL_WILD", "HOUSE_RULE_TEXTS", "AllWild"]
