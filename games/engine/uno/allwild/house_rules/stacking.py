"""Stacking: a player hit by a Draw 2 or Draw 4 may answer, instead of drawing, with a draw card of
equal or higher value (Draw 2 or Draw 4 on a Draw 2; only a Draw 4 on a Draw 4). The amounts add
up and pass on; the first player who does not stack draws the total and loses their turn.
Answering is that player's turn action; a timeout while a stack is owed draws the total. Targeted
Draw 2 neither stacks nor can be stacked on; an opening Draw card cannot be stacked on.

The mechanism is the family's (``uno.stacking``); this is All Wild's rule table.
"""

from __future__ import annotations

from ...cards import card_type
from ...stacking import StackRules, take_stack_handler
from ...stacking import pass_on as pass_on
from ...stacking import take_stack as take_stack
from ...state import State
from ..cards import DRAW2, DRAW4

RULES = StackRules(
    card_type, {DRAW2: (DRAW2, DRAW4), DRAW4: (DRAW4,)}, {DRAW2: "Draw 2", DRAW4: "Draw 4"}
)
not_stackable_message = RULES.owed_message
do_take_stack = take_stack_handler()


def stackable_types(s: State) -> tuple[str, ...]:
    """Draw cards that may answer the stack: equal or higher than the card on top of it."""
    return RULES.stackable(s)
