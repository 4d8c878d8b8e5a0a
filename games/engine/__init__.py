"""The pure rules engine: no Django, no I/O. Public interface of every game module:

``new_game`` -> (state, events); ``legal_actions(state, seat)``; ``apply(state, action, rng)`` ->
(state, events); ``view(state, seat)``; ``moderator_view(state)``; ``replay``.
"""

from .actions import Action
from .allwild import apply, legal_actions, new_game, validate_options
from .errors import EngineError
from .replay import ReplayError, ReplayRNG, replay
from .state import Seat, State
from .view import moderator_view, view, visible_event, visible_events

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
