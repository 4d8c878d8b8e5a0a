"""Stacking, one mechanism for every Uno game that has it: a Draw card played on a player starts
or extends a pending total (phase ``stack``); that player's whole turn is the answer: stack a Draw
card the game's rule table allows on the last one stacked, or take the total.

A game brings its rule table (``StackRules``): which kinds of card may go on the kind of the last
card stacked (the card on top of the discard pile while a stack is owed). All Wild's stacking
house rule and No Mercy's official stacking are this module with two tables.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import NamedTuple

from ..interface import Event
from .state import STACK, State


class StackRules(NamedTuple):
    """A game's stacking table: ``kind`` names a card's kind as the table reads it (a card type,
    a rank), ``on`` maps the kind of the last card stacked to the kinds that may go on it, in the
    order they are shown; a kind absent from ``on`` takes nothing."""

    kind: Callable[[str], str]
    on: Mapping[str, tuple[str, ...]]

    def stackable(self, s: State) -> tuple[str, ...]:
        """The kinds that may answer the stack owed now (the last card stacked is on top)."""
        return self.on.get(self.kind(s.discard_pile[0]), ())

    def may_stack(self, s: State, card: str) -> bool:
        return self.kind(card) in self.stackable(s)


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
