"""Stacking: a player hit by a Draw 2 or Draw 4 may answer, instead of drawing, with a draw card of
equal or higher value (Draw 2 or Draw 4 on a Draw 2; only a Draw 4 on a Draw 4). The amounts add
up and pass on; the first player who does not stack draws the total and loses their turn.
Answering is that player's turn action; a timeout while a stack is owed draws the total. Targeted
Draw 2 neither stacks nor can be stacked on; an opening Draw card cannot be stacked on.

The mechanism is the family's (``uno.stacking``); this is All Wild's rule table.
"""

from __future__ import annotations

from .... import errors as E
from ....errors import EngineError
from ....interface import RNG, Event
from ...actions import Action
from ...cards import card_type
from ...piles import draw
from ...stacking import StackRules, take_total
from ...stacking import pass_on as pass_on
from ...state import STACK, State, copy_state
from ...turns import advance, turn_seat
from ..cards import DRAW2, DRAW4

RULES = StackRules(card_type, {DRAW2: (DRAW2, DRAW4), DRAW4: (DRAW4,)})


def stackable_types(s: State) -> tuple[str, ...]:
    """Draw cards that may answer the stack: equal or higher than the card on top of it."""
    return RULES.stackable(s)


def not_stackable_message(s: State) -> str:
    allowed = " or a ".join(stackable_types(s)).replace("draw", "Draw ")
    return f"{s.stack} cards are owed: stack a {allowed} on them, or take them (take_stack)"


def take_stack(s: State, seat: int, rng: RNG, ev: list[Event]) -> None:
    """The seat that does not stack draws the total and loses this turn."""
    draw(s, seat, take_total(s), rng, ev, "stack")
    ev.append({"type": "skipped", "seat": seat})
    advance(s, ev)


def do_take_stack(state: State, a: Action, rng: RNG, ev: list[Event]) -> State:
    seat = turn_seat(state, a)
    if state.phase != STACK:
        raise EngineError(E.NO_STACK, "no stack is owed: there are no cards to take")
    s = copy_state(state, False)  # a stack answer is a turn action: it closes catch windows
    take_stack(s, seat, rng, ev)
    return s
