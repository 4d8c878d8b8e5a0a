"""Stacking in Uno Splash (rulings: "House rules", and RULES.md's Stacking): on a pending Draw Two,
any Draw Two (a symbol match, any colour) or a Wild Draw Four; on a pending Wild Draw Four, only a
Wild Draw Four. The amounts add up and pass on; the first player who does not stack draws the
total and loses their turn. A Draw Two pair (double down) adds 4. Answering (a stacked card, or
taking the total in place of "accept") is the turn action; a timeout while a stack is owed takes
the total. A last card stacked ends the round: the next player draws the total, unanswered.

Every Wild Draw Four, stacked or first, obeys the colour rule: the player it passes to may
challenge it before answering (``challenge``), and the challenge judges that card only.

The mechanism is the family's (``uno.stacking``); this is Splash's rule table.
"""

from __future__ import annotations

from ... import errors as E
from ...errors import EngineError
from ...interface import RNG, Event
from .. import effects as family
from ..stacking import StackRules, pass_on, take_stack_handler, take_total
from ..stacking import take_stack as take_stack
from ..state import STACK, State
from .cards import DRAW2, RANK_OF, WD4

RULES = StackRules(
    RANK_OF.__getitem__,
    {DRAW2: (DRAW2, WD4), WD4: (WD4,)},
    {DRAW2: "Draw Two", WD4: "Wild Draw Four"},
)
not_stackable_message = RULES.owed_message
do_take_stack = take_stack_handler()


def stacking_on(s: State) -> bool:
    return bool(s.house and s.options.get("stacking"))


def add_draw(
    s: State, victim: int, amount: int, kind: str, going_out: bool, rng: RNG, ev: list[Event]
) -> bool:
    """Under stacking, ``amount`` joins the total owed by ``victim``, who answers next (True);
    a last card ends the round, so ``victim`` draws the total at once (True). Without stacking,
    nothing (False): the card's own effect applies."""
    if not stacking_on(s):
        return False
    total = take_total(s) + amount
    if going_out:
        family.draw_and_lose_turn(s, victim, total, rng, ev, kind if total == amount else "stack")
    else:
        pass_on(s, victim, total, ev)
    return True


def check_stack_play(s: State, card: str) -> None:
    """While a stack is owed only a card the table allows answers it."""
    if s.phase == STACK and not RULES.may_stack(s, card):
        raise EngineError(E.NOT_STACKABLE, not_stackable_message(s))
