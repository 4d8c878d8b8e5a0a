"""Hands changing owner: swaps and passes, and what any change to a hand means for UNO.

Any change to a hand cancels an earlier UNO; a hand of one card opens its catch window; a hand
below ``MERCY_MIN`` gives the Mercy right back (checked at every change, so also between the two
swaps of a Double down pair).
"""

from __future__ import annotations

from typing import Final

from ..interface import Event
from .state import State
from .turns import direction_name, seats_from

# Mercy (a house rule): a hand of MERCY_MIN or more cards may discard MERCY_COUNT of them, once
# until the hand has dropped below MERCY_MIN.
MERCY_MIN: Final = 15
MERCY_COUNT: Final = 5


def hand_changed(s: State, seat: int) -> None:
    """Any change to a hand cancels an earlier UNO; one card left opens the catch window."""
    me = s.seats[seat]
    me.uno = False
    me.exposed = len(me.hand) == 1
    if me.mercy_used and len(me.hand) < MERCY_MIN:
        me.mercy_used = False  # the mercy right returns once the hand is below 15


def swap(s: State, seat: int, target: int, ev: list[Event]) -> None:
    """Two seats exchange entire hands."""
    a, b = s.seats[seat], s.seats[target]
    a.hand, b.hand = b.hand, a.hand
    ev.append({"type": "swap", "seat": seat, "target": target})
    hand_changed(s, seat)
    hand_changed(s, target)


def pass_hands(s: State, direction: int, ev: list[Event], seat: int) -> None:
    """Every active seat passes its whole hand to the next active seat in ``direction``."""
    order = seats_from(s, seat, direction)
    hands = [s.seats[i].hand for i in order]
    for k, i in enumerate(order):
        s.seats[i].hand = hands[k - 1]  # seat i receives from the seat before it
    ev.append({"type": "hands_passed", "direction": direction_name(direction)})
    for i in order:
        hand_changed(s, i)
