"""The parts of a turn every Uno game shares: cards leave the hand for the discard pile, the
round ends when the hand is empty (else the word UNO counts and the turn passes), a drawn card
binds the rest of the turn, and a pass after a draw ends it; the voluntary draw of one card; a
timeout."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import NamedTuple

from .. import errors as E
from ..errors import EngineError
from ..interface import RNG, Event
from .actions import Action
from .calls import close_catch_windows, say_uno
from .hands import hand_changed
from .piles import draw
from .scoring import end_round
from .stacking import take_stack
from .state import DRAWN, PLAY, STACK, State, copy_state
from .turns import advance, require_player, seat_of, turn_seat


def put_on_table(state: State, seat: int, cards: tuple[str, ...], ev: list[Event]) -> State:
    """A copy of ``state`` with ``cards`` moved from ``seat``'s hand to the discard pile (the last
    on top), every catch window closed (a turn action) and the turn's draw forgotten.

    Only the player's hand and the discard pile change, as new lists: the other hands and the
    draw pile are shared with ``state`` (see ``copy_state``)."""
    s = copy_state(state, False, False)
    me = s.seats[seat]
    hand = me.hand.copy()
    for card in cards:
        hand.remove(card)
    me.hand = hand
    s.discard_pile = [*reversed(cards), *s.discard_pile]
    s.drawn_card = None
    s.phase = PLAY
    hand_changed(s, seat)
    return s


def finish_play(s: State, seat: int, uno: bool, points: Mapping[str, int], ev: list[Event]) -> None:
    """After the effect: out of cards wins the round (scored with ``points``); else the word UNO
    counts if one card is left, and the turn passes (unless the card left the next player an
    answer to give: a stack, a Wild Draw Four's response)."""
    if not s.seats[seat].hand:
        end_round(s, seat, points, ev)
        return
    if uno:
        say_uno(s, seat, ev)
    if s.phase == PLAY:
        advance(s, ev)


def refuse_after_draw(state: State) -> None:
    if state.phase == DRAWN:
        raise EngineError(
            E.MUST_PLAY_DRAWN_CARD_OR_PASS, "you drew: play the drawn card (play_drawn) or pass"
        )


def drawn_card_to_play(state: State, a: Action) -> str:
    """The card a ``play_drawn`` plays: the card drawn this turn (``a.card``, if given, must be
    it)."""
    drawn = state.drawn_card
    if state.phase != DRAWN or drawn is None:
        raise EngineError(E.NOTHING_DRAWN, "you have not drawn a card this turn")
    if a.card is not None and a.card != drawn:
        raise EngineError(E.MUST_PLAY_DRAWN_CARD_OR_PASS, "only the drawn card may be played")
    return drawn


class DrawRules(NamedTuple):
    """A game's voluntary draw of one card: ``refusal`` says why it is refused now (None: it is
    allowed), ``owed`` what a seat that owes a stack is told, and ``keeps`` whether the drawn card
    waits to be played or kept (phase ``drawn``) or the turn passes at once."""

    refusal: Callable[[State, int], tuple[str, str] | None]
    owed: Callable[[State], str]
    keeps: Callable[[State, str], bool]


def draw_one(state: State, seat: int, rules: DrawRules, rng: RNG, ev: list[Event]) -> State:
    """``seat`` (whose turn it is) draws one card, if ``rules`` allow it now; the new state."""
    if state.phase == DRAWN:
        raise EngineError(E.MUST_PLAY_DRAWN_CARD_OR_PASS, "you already drew: play it or pass")
    if state.phase == STACK:
        raise EngineError(E.STACK_PENDING, rules.owed(state))
    refusal = rules.refusal(state, seat)
    if refusal:
        raise EngineError(*refusal)
    s = copy_state(state, False, False)  # piles.draw assigns new lists: share the old ones
    drawn = draw(s, seat, 1, rng, ev, "voluntary")
    if drawn and rules.keeps(s, drawn[0]):
        s.phase = DRAWN
        s.drawn_card = drawn[0]
    else:  # a card that cannot be played (or none at all) ends the turn at once
        advance(s, ev)
    return s


def timed_out_seat(s: State, a: Action, ev: list[Event]) -> int:
    """The seat whose turn clock ran out (it must be the current one)."""
    seat = seat_of(s, a)
    require_player(s, seat)
    if seat != s.current:
        raise EngineError(E.NOT_YOUR_TURN, f"it is seat {s.current}'s turn, not {seat}'s")
    ev.append({"type": "timeout", "seat": seat})
    return seat


def start_timeout(s: State, a: Action, ev: list[Event]) -> int:
    """The seat whose turn clock ran out (it must be the current one); a timeout is a turn
    action: every catch window closes."""
    seat = timed_out_seat(s, a, ev)
    close_catch_windows(s)
    return seat


# (state, seat, rng, events) -> True when it settled the timeout
Settle = Callable[[State, int, RNG, list[Event]], bool]


def timeout_handler(
    settle: Settle, answer: Settle | None = None
) -> Callable[[State, Action, RNG, list[Event]], None]:
    """The ``timeout`` change (for ``on_copy``) of a game that times out the family's way. An
    answer owed that is no turn action is given at the deadline (``answer``: a Wild Draw Four's
    response accepted; True when there was one), which closes no catch window. Otherwise the
    timeout is a turn action, every catch window closes, and a stack owed is taken in full; else
    what the seat owes first is settled (``settle``: a choice made at random; True when that ended
    the turn), then the seat draws 1 (not after a draw of its own this turn) and the turn passes.
    """

    def do_timeout(s: State, a: Action, rng: RNG, ev: list[Event]) -> None:
        seat = timed_out_seat(s, a, ev)
        if answer is not None and answer(s, seat, rng, ev):
            return
        close_catch_windows(s)
        if s.phase == STACK:
            take_stack(s, seat, rng, ev)
            return
        if settle(s, seat, rng, ev):
            return
        if s.phase == PLAY:
            draw(s, seat, 1, rng, ev, "timeout")
        advance(s, ev)

    return do_timeout


def do_pass(state: State, a: Action, rng: RNG, ev: list[Event]) -> State:
    seat = turn_seat(state, a)
    if state.phase != DRAWN:
        raise EngineError(E.PASS_NOT_ALLOWED, "you may pass only after drawing a card")
    s = copy_state(state, True, False)  # passing changes no hand and no pile: share them
    ev.append({"type": "pass", "seat": seat})
    advance(s, ev)
    return s


__all__ = [
    "DrawRules",
    "do_pass",
    "draw_one",
    "drawn_card_to_play",
    "finish_play",
    "put_on_table",
    "refuse_after_draw",
    "Settle",
    "start_timeout",
    "timed_out_seat",
    "timeout_handler",
]
