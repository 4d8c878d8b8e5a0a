"""Re-exports All Wild's cards (``uno.allwild.cards``) under their old name, for the service until
it reaches games through the registry."""

from .uno.allwild.cards import *  # noqa: F403
from .uno.allwild.cards import __all__ as __all__
