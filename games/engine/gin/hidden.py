"""Bots' view of the unknown: the opponent's hand and the stock dealt again at random."""

from __future__ import annotations

from ..interface import RNG
from .state import State


def sample_hidden(s: State, seat: int, rng: RNG) -> State:
    """A state ``seat`` cannot tell from ``s``: its own hand and the piles' public faces kept, the
    opponent keeping the cards it is known to hold (taken from the discard pile and not thrown
    back), every other unseen card dealt again at random."""
    out = s.copy()
    other = 1 - seat
    theirs = out.hands[other]
    known = {t["card"] for t in s.takes if t["seat"] == other} & set(theirs)
    unseen = [c for c in theirs if c not in known] + out.stock
    rng.shuffle(unseen)
    n = len(theirs) - len(known)
    out.hands[other] = [c for c in theirs if c in known] + unseen[:n]
    out.stock = unseen[n:]
    return out
