"""Stacking, one mechanism for every Uno game that has it: a Draw card played on a player starts
or extends a pending total (phase ``stack``); that player's whole turn is the answer: stack a Draw
card the game's rule table allows on the last one stacked, or take the total.

A game brings its rule table (``StackRules``): which kinds of card may go on the kind of the last
card stacked (the card on top of the discard pile while a stack is owed). All Wild's stacking
house rule, Splash's and No Mercy's official stacking are this module with three tables. Taking
the total is the family's too (``take_stack``), but for No Mercy's, which draws one card at a time
under its Mercy rule (``take_stack_handler`` is given it).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from .. import errors as E
from ..errors import EngineError
from ..interface import RNG, Event
from .actions import Action
from .dispatch import Handler
from .piles import draw
from .state import STACK, State, copy_state
from .turns import advance, turn_seat


class StackRules(NamedTuple):
    """A game's stacking table: ``kind`` names a card's kind as the table reads it (a card type,
    a rank), ``on`` maps the kind of the last card stacked to the kinds that may go on it, in the
    order they are shown; a kind absent from ``on`` takes nothing."""

    kind: Callable[[str], str]
    on: Mapping[str, tuple[str, ...]]
    # A kind's name in the message to a seat that owes the stack (the kind itself if absent).
    names: Mapping[str, str] = {}

    def stackable(self, s: State) -> tuple[str, ...]:
        """The kinds that may answer the stack owed now (the last card stacked is on top)."""
        return self.on.get(self.kind(s.discard_pile[0]), ())

    def may_stack(self, s: State, card: str) -> bool:
        return self.kind(card) in self.stackable(s)

    def view(
        self, s: State, extra: Callable[[State], dict[str, Any]] | None = None
    ) -> dict[str, Any] | None:
        """The stack as every seat sees it (None when none is owed): the total, the seat that
        must stack on it or take it, the game's ``extra`` facts and what may be stacked."""
        if s.phase != STACK:
            return None
        return {
            "total": s.stack,
            "seat": s.current,
            **(extra(s) if extra else {}),
            "stackable": list(self.stackable(s)),
        }

    def owed_message(self, s: State) -> str:
        """What a seat that owes the stack is told when it tries anything else."""
        allowed = " or a ".join(self.names.get(kind, kind) for kind in self.stackable(s))
        return f"{s.stack} cards are owed: stack a {allowed} on them, or take them (take_stack)"


def pass_on(s: State, victim: int, total: int, ev: list[Event]) -> None:
    """``victim`` owes ``total`` cards and answers next: stack on them or take them."""
    s.stack = total
    s.phase = STACK
    s.current = victim
    ev.append({"type": "stacked", "seat": victim, "total": total})


def take_total(s: State) -> int:
    """The total owed, cleared: the caller draws it."""
    total = s.stack
    s.stack = 0
    return total


def take_stack(s: State, seat: int, rng: RNG, ev: list[Event]) -> None:
    """The seat that does not stack draws the total and loses this turn (a Wild Draw Four's
    challenge that was still open goes with it)."""
    s.pending = None
    draw(s, seat, take_total(s), rng, ev, "stack")
    ev.append({"type": "skipped", "seat": seat})
    advance(s, ev)


def take_stack_handler(
    take: Callable[[State, int, RNG, list[Event]], None] = take_stack,
) -> Handler:
    """The ``take_stack`` action's handler, taking the total with ``take``."""

    def do_take_stack(state: State, a: Action, rng: RNG, ev: list[Event]) -> State:
        seat = turn_seat(state, a)
        if state.phase != STACK:
            raise EngineError(E.NO_STACK, "no stack is owed: there are no cards to take")
        s = copy_state(state, False)  # a stack answer is a turn action: it closes catch windows
        take(s, seat, rng, ev)
        return s

    return do_take_stack
