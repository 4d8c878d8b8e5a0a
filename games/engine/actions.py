"""Re-exports ``uno.actions`` under its old name, for the service until it reaches games through
the registry."""

from .uno.actions import *  # noqa: F403
from .uno.actions import __all__ as __all__
