"""Hidden information, for search that must not peek: what one seat cannot tell apart."""

from __future__ import annotations

from ..interface import RNG
from .state import DRAWN, State


def redeal_hidden(state: State, seat: int, rng: RNG, own_hand_hidden: bool = False) -> State:
    """A state ``seat`` cannot tell from ``state``: every card it cannot see dealt again at random.

    Hidden from a seat: the other hands and the draw pile, and its own hand too when
    ``own_hand_hidden`` (a face-down hand). Every hand keeps its size; everything public (the
    discard pile, counts, UNO and catch flags, scores, the phase) is kept. A card drawn this turn
    is the top of its drawer's hand, so it follows that hand.
    """
    s = state.copy()
    hidden = [i for i in range(len(s.seats)) if i != seat or own_hand_hidden]
    unseen = list(s.draw_pile)
    for i in hidden:
        unseen.extend(s.seats[i].hand)
    rng.shuffle(unseen)
    at = 0
    for i in hidden:
        size = len(s.seats[i].hand)
        s.seats[i].hand = unseen[at : at + size]
        at += size
    s.draw_pile = unseen[at:]
    if s.phase == DRAWN and s.drawn_card is not None and s.current in hidden:
        s.drawn_card = s.seats[s.current].hand[0]
    return s
