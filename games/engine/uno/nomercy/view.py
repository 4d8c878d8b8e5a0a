"""What one seat of No Mercy may see: its own hand, counts for the others, the colour in play,
the stack owed and who must answer it, who is knocked out, public facts and its legal actions.

This is the only place that decides visibility. Other seats' card ids, the draw pile's order and
the set-aside hands never appear in a seat's view.
"""

from __future__ import annotations

from typing import Any

from .. import colours
from .. import view as family_view
from ..state import STACK, State
from .cards import COLOUR_OF, DRAW_VALUE, PRESETS, RANK_OF
from .legal import legal_actions
from .matching import STACKING, colour_in_play


def card(card_id: str) -> dict[str, Any]:
    return colours.card_view(card_id, COLOUR_OF, RANK_OF)


def view(state: State, seat: int) -> dict[str, Any]:
    """The position as ``seat`` sees it (a JSON-ready dict)."""
    return colours.seat_view(state, seat, card, _public(state), legal_actions)


def moderator_view(state: State) -> dict[str, Any]:
    """Everything, hands and draw pile order included: for moderators only."""
    return family_view.moderator_view(state, _public(state), legal_actions)


def _public(s: State) -> dict[str, Any]:
    colour = colour_in_play(s) if s.discard_pile else None
    stack = None
    if s.phase == STACK:
        stack = {
            "total": s.stack,
            "seat": s.current,
            "by": s.stacker,
            "last": DRAW_VALUE[RANK_OF[s.discard_pile[0]]],
            "stackable": list(STACKING.stackable(s)),
        }
    own = {
        "colour": colour,
        "stack": stack,
        "knocked_out": list(s.knocked_out),
        "set_aside_size": len(s.set_aside),
    }
    return family_view.public_view(s, card, PRESETS[s.preset].points, own)
