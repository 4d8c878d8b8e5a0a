"""What one seat of Uno Splash may see: its own hand, counts for the others, the colour in
force, the stack owed (stacking: the seat that must stack on it, challenge or take it), public
facts and its legal actions (the family's ``uno.colours.TableViews``).

This is the only place that decides visibility. Other seats' card ids, the draw pile's order and
a Wild Draw Four's recorded hand and legality never appear in a seat's view; the challenged hand
reaches the challenger alone, through the challenge event's secret (``uno.view``).
"""

from __future__ import annotations

from ..colours import TableViews
from .cards import COLOUR_OF, PRESETS, RANK_OF
from .legal import legal_actions
from .matching import colour_in_force
from .stacking import RULES as STACKING

VIEWS = TableViews(
    COLOUR_OF, RANK_OF, PRESETS, colour_in_force, STACKING.view, lambda s: {}, legal_actions
)
card = VIEWS.card
view = VIEWS.view
moderator_view = VIEWS.moderator_view
