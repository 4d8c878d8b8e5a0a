"""Hidden information, for search that must not peek: what one seat cannot tell apart."""

from __future__ import annotations

from ...interface import RNG
from ..hidden import redeal_hidden
from ..state import State


def sample_hidden(state: State, seat: int, rng: RNG) -> State:
    """A state ``seat`` cannot tell from ``state``: the other hands, the draw pile and the
    set-aside hands (face down) dealt again (``uno.hidden``)."""
    s = redeal_hidden(state, seat, rng)
    if s.set_aside:
        pool = [*s.draw_pile, *s.set_aside]
        rng.shuffle(pool)
        s.set_aside = pool[: len(s.set_aside)]
        s.draw_pile = pool[len(s.set_aside) :]
    return s
