"""The pure rules engine: no Django, no I/O.

A game implements ``interface.Game`` and is found by its kind in ``registry``; the Uno family
shares ``uno/`` and Uno All Wild is ``uno/allwild/`` (docs/architecture.md). Outside the engine,
code reaches a game through ``registry.get_game(kind)``; only a game's own bots and its schema
import its modules.
"""

from .errors import EngineError
from .replay import ReplayError, ReplayRNG, replay

__all__ = ["EngineError", "ReplayError", "ReplayRNG", "replay"]
