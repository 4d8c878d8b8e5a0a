"""Hidden information, for search that must not peek: what one seat cannot tell apart."""

from __future__ import annotations

from ...interface import RNG
from ..hidden import redeal_hidden
from ..state import State


def sample_hidden(state: State, seat: int, rng: RNG) -> State:
    """A state ``seat`` cannot tell from ``state`` (``uno.hidden.redeal_hidden``); under blind
    play its own face-down hand is dealt again too."""
    return redeal_hidden(state, seat, rng, own_hand_hidden=state.option("blind_play"))
