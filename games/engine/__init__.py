"""The pure rules engine: no Django, no I/O.

A game implements ``interface.Game`` and is found by its kind in ``registry``; the Uno family
shares ``uno/`` and Uno All Wild is ``uno/allwild/``. The names below are All Wild's functions,
the engine's API before the registry: ``new_game`` -> (state, events); ``legal_actions(state,
seat)``; ``apply(state, action, rng)`` -> (state, events); ``view(state, seat)``;
``moderator_view(state)``; ``replay``.
"""

from .errors import EngineError
from .replay import ReplayError, ReplayRNG, replay
from .uno.actions import Action
from .uno.allwild.legal import legal_actions
from .uno.allwild.rules import apply, new_game, validate_options
from .uno.allwild.view import moderator_view, view
from .uno.state import Seat, State
from .uno.view import visible_event, visible_events

__all__ = [
    "Action",
    "EngineError",
    "ReplayError",
    "ReplayRNG",
    "Seat",
    "State",
    "apply",
    "legal_actions",
    "moderator_view",
    "new_game",
    "replay",
    "validate_options",
    "view",
    "visible_event",
    "visible_events",
]
