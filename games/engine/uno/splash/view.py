"""What one seat of Uno Splash may see: its own hand, counts for the others, the colour in
force, public facts and its legal actions.

This is the only place that decides visibility. Other seats' card ids, the draw pile's order and
a Wild Draw Four's recorded hand and legality never appear in a seat's view; the challenged hand
reaches the challenger alone, through the challenge event's secret (``uno.view``).
"""

from __future__ import annotations

from typing import Any

from .. import colours
from .. import view as family_view
from ..state import STACK, State
from .cards import COLOUR_OF, PRESETS, RANK_OF
from .legal import legal_actions
from .matching import colour_in_force
from .stacking import RULES as STACKING


def card(card_id: str) -> dict[str, Any]:
    return colours.card_view(card_id, COLOUR_OF, RANK_OF)


def view(state: State, seat: int) -> dict[str, Any]:
    """The position as ``seat`` sees it (a JSON-ready dict)."""
    return colours.seat_view(state, seat, card, _public(state), legal_actions)


def moderator_view(state: State) -> dict[str, Any]:
    """Everything, hands and draw pile order included: for moderators only."""
    return family_view.moderator_view(state, _public(state), legal_actions)


def _public(s: State) -> dict[str, Any]:
    colour = colour_in_force(s) if s.discard_pile else None
    # Stacking: the total owed and the seat that must stack on it (or challenge) or take it.
    stack = (
        {"total": s.stack, "seat": s.current, "stackable": list(STACKING.stackable(s))}
        if s.phase == STACK
        else None
    )
    return family_view.public_view(
        s, card, PRESETS[s.preset].points, {"colour": colour, "stack": stack}
    )
