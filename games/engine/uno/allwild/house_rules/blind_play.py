"""Blind play: a player cannot see their own hand, only its size. On their turn they play the top
card of the face-down hand, or draw (always available under blind play, in both presets: a player
who cannot see their hand cannot test the 2021 condition on it). A drawn card goes on top of the
face-down hand; a hand received by swap or shuffle keeps its order. A target the card needs is
chosen once it is revealed. Answering a stack, a revealed card that cannot stack is shown, goes
back on top, and the stack is taken.
"""

from __future__ import annotations

from .... import errors as E
from ....errors import EngineError
from ....interface import RNG, Event
from ...actions import Action
from ...cards import card_type
from ...play import refuse_after_draw
from ...state import STACK, State, copy_state
from ...turns import require_house_rule, turn_seat
from ..turn import play_unseen
from .stacking import stackable_types, take_stack


def do_play_top(state: State, a: Action, rng: RNG, ev: list[Event]) -> State:
    """The top card of the face-down hand, revealed as it is played."""
    require_house_rule(state, "blind_play")
    seat = turn_seat(state, a)
    refuse_after_draw(state)
    if a.card is not None or a.target is not None:
        raise EngineError(
            E.INVALID_ACTION, "play_top takes no card and no target: the top card is played"
        )
    card = state.seats[seat].hand[0]
    kind = card_type(card)
    if state.phase == STACK and kind not in stackable_types(state):
        s = copy_state(state, False)
        ev.append({"type": "not_stackable", "seat": seat, "card": card, "card_type": kind})
        take_stack(s, seat, rng, ev)
        return s
    return play_unseen(state, seat, card, a.uno, rng, ev)
