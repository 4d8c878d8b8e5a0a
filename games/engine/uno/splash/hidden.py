"""Hidden information, for search that must not peek: what one seat cannot tell apart."""

from __future__ import annotations

from collections import Counter

from ...interface import RNG
from ..hidden import redeal_hidden
from ..state import State
from .matching import wd4_is_legal


def sample_hidden(state: State, seat: int, rng: RNG) -> State:
    """A state ``seat`` cannot tell from ``state``: the other hands and the draw pile dealt again
    (``uno.hidden``). A Wild Draw Four waiting for its answer recorded its player's hand: unless
    ``seat`` is that player, the record follows the hand dealt again (plus the cards that left it
    since, face up under the top discard: Mercy; if the player left, cards it cannot see), and
    its legality is judged on that record."""
    s = redeal_hidden(state, seat, rng)
    pending = s.pending
    if pending is None or "hand" not in pending or pending["owner"] == seat:
        return s
    owner = pending["owner"]
    if not s.seats[owner].active:
        # Its player left: the hand went under the draw pile. Any cards the seat cannot see now
        # may have been it.
        pool = [*s.draw_pile, *(c for i, o in enumerate(s.seats) if i != seat for c in o.hand)]
        rng.shuffle(pool)
        recorded = pool[: len(pending["hand"])]
    else:
        gone = Counter(pending["hand"]) - Counter(state.seats[owner].hand)
        recorded = [*s.seats[owner].hand, *gone.elements()]
    pending["hand"] = recorded
    pending["legal"] = wd4_is_legal(recorded, pending["against"])
    return s
