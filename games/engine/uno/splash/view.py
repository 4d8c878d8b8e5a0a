"""What one seat of Uno Splash may see: its own hand, counts for the others, the colour in
force, public facts and its legal actions.

This is the only place that decides visibility. Other seats' card ids, the draw pile's order and
a Wild Draw Four's recorded hand and legality never appear in a seat's view; the challenged hand
reaches the challenger alone, through the challenge event's secret (``uno.view``).
"""

from __future__ import annotations

from typing import Any

from ...errors import NOT_IN_ROUND, EngineError
from .. import view as family_view
from ..cards import card_type
from ..state import STACK, State
from .cards import COLOUR_OF, PRESETS, RANK_OF
from .legal import legal_actions
from .matching import colour_in_force
from .stacking import RULES as STACKING


def card(card_id: str) -> dict[str, Any]:
    return {
        "id": card_id,
        "type": card_type(card_id),
        "colour": COLOUR_OF[card_id],
        "rank": RANK_OF[card_id],
    }


def view(state: State, seat: int) -> dict[str, Any]:
    """The position as ``seat`` sees it (a JSON-ready dict)."""
    s = state
    if not 0 <= seat < len(s.seats):
        # Python would happily read seats[-1]: someone else's hand. Refuse instead.
        raise EngineError(NOT_IN_ROUND, f"there is no seat {seat} in this game")
    pending = None
    if s.pending:
        # Never the recorded hand or the legality of a Wild Draw Four: the challenge tells.
        pending = {
            "seat": s.pending["seat"],
            "owner": s.pending.get("owner", s.pending["seat"]),
            "card": card(s.pending["card"]),
            "effect": s.pending["effect"],
            "reason": s.pending["reason"],
        }
    return {
        **_public(s),
        "you": seat,
        "hand": [card(c) for c in s.seats[seat].hand],
        "drawn_card": card(s.drawn_card) if s.drawn_card and s.current == seat else None,
        "pending_choice": pending,
        "legal_actions": [a.to_dict() for a in legal_actions(s, seat)],
    }


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
