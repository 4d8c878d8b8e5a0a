"""What one seat of No Mercy may see: its own hand, counts for the others, the colour in play,
the stack owed and who must answer it, who is knocked out, public facts and its legal actions
(the family's ``uno.colours.TableViews``).

This is the only place that decides visibility. Other seats' card ids, the draw pile's order and
the set-aside hands never appear in a seat's view.
"""

from __future__ import annotations

from typing import Any

from ..colours import TableViews
from ..state import State
from .cards import COLOUR_OF, DRAW_VALUE, PRESETS, RANK_OF
from .legal import legal_actions
from .matching import STACKING, colour_in_play


def _stack(s: State) -> dict[str, Any] | None:
    """The stack owed, with who stacked last and the value of the last card stacked."""
    return STACKING.view(
        s, lambda s: {"by": s.stacker, "last": DRAW_VALUE[RANK_OF[s.discard_pile[0]]]}
    )


def _own(s: State) -> dict[str, Any]:
    return {"knocked_out": list(s.knocked_out), "set_aside_size": len(s.set_aside)}


VIEWS = TableViews(COLOUR_OF, RANK_OF, PRESETS, colour_in_play, _stack, _own, legal_actions)
card = VIEWS.card
view = VIEWS.view
moderator_view = VIEWS.moderator_view
