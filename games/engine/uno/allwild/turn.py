"""A turn of All Wild: play one card (any card: all are wild) and resolve its effect, or draw one
card (where the preset allows it) and then play that card or pass. A card that needs a target
chosen once it is on the table (an opening card, a blind-played card) waits in phase ``choose``.
A turn action closes every catch window.
"""

from __future__ import annotations

from ... import errors as E
from ...errors import EngineError
from ...interface import RNG, Event
from .. import play
from ..actions import Action
from ..cards import card_type
from ..chance import choice
from ..piles import can_draw
from ..play import (
    DrawRules,
    draw_one,
    drawn_card_to_play,
    put_on_table,
    refuse_after_draw,
    timeout_handler,
)
from ..state import CHOOSE, DRAWN, PLAY, STACK, State
from ..turns import await_choice, chooser, next_active, turn_seat
from .cards import PRESETS, TARGETED, WILD
from .effects import EFFECTS
from .house_rules import stacking
from .targets import check_target, targets


def play_card(
    state: State, seat: int, card: str, target: int | None, uno: bool, rng: RNG, ev: list[Event]
) -> State:
    """``seat`` plays ``card`` (checked to be in its hand) at ``target``; the new state."""
    kind = card_type(card)
    going_out = len(state.seats[seat].hand) == 1
    if target is not None or kind in TARGETED:  # a card that takes none needs none
        check_target(state, seat, kind, target, going_out)
    s = put_on_table(state, seat, (card,), ev)
    event: Event = {"type": "play", "seat": seat, "card": card, "card_type": kind}
    if target is not None:
        event["target"] = target
    ev.append(event)
    EFFECTS[kind](s, seat, target, going_out, rng, ev)
    finish_play(s, seat, uno, ev)
    return s


def finish_play(s: State, seat: int, uno: bool, ev: list[Event]) -> None:
    """After the effect: the family's end of a play, scored with this preset's points."""
    play.finish_play(s, seat, uno, PRESETS[s.preset].points, ev)


def play_unseen(state: State, seat: int, card: str, uno: bool, rng: RNG, ev: list[Event]) -> State:
    """Blind play: ``card`` is played unseen; a target it needs is chosen once it is revealed
    (it waits on the table in phase ``choose``)."""
    kind = card_type(card)
    if targets(state, seat, kind, len(state.seats[seat].hand) == 1) == [None]:
        return play_card(state, seat, card, None, uno, rng, ev)
    s = put_on_table(state, seat, (card,), ev)
    ev.append({"type": "play", "seat": seat, "card": card, "card_type": kind})
    await_choice(s, seat, card, kind, "blind", uno=uno)
    return s


def do_play(state: State, a: Action, rng: RNG, ev: list[Event]) -> State:
    seat = turn_seat(state, a)
    if state.phase == DRAWN:
        refuse_after_draw(state)
    card = a.card
    if state.house:
        if state.options.get("blind_play"):
            raise EngineError(
                E.HAND_FACE_DOWN, "your hand is face down: play its top card (play_top)"
            )
        if (
            state.phase == STACK
            and card is not None
            and card in state.seats[seat].hand
            and card_type(card) not in stacking.stackable_types(state)
        ):
            raise EngineError(E.NOT_STACKABLE, stacking.not_stackable_message(state))
    if card is None or card not in state.seats[seat].hand:
        raise EngineError(E.CARD_NOT_IN_HAND, f"{card!r} is not in your hand")
    return play_card(state, seat, card, a.target, a.uno, rng, ev)


def do_play_drawn(state: State, a: Action, rng: RNG, ev: list[Event]) -> State:
    seat = turn_seat(state, a)
    drawn = drawn_card_to_play(state, a)
    if state.house and state.options.get("blind_play"):
        if a.target is not None:
            raise EngineError(
                E.TARGET_NOT_ALLOWED,
                "under blind play a target is chosen after the card is revealed",
            )
        return play_unseen(state, seat, drawn, a.uno, rng, ev)
    return play_card(state, seat, drawn, a.target, a.uno, rng, ev)


def draw_refusal(s: State, seat: int) -> tuple[str, str] | None:
    """Why a voluntary draw is refused now, or None when it is allowed."""
    if not can_draw(s):
        return E.NOTHING_TO_DRAW, "there is nothing to draw: play a card"
    # Under blind play the 2021 restriction (only plain Wilds in hand) would need a look at the
    # hand the player may not see: the voluntary draw stays available (RULES.md).
    if PRESETS[s.preset].draw_restricted and not (s.house and s.options.get("blind_play")):
        nxt = next_active(s, seat, s.direction)
        only_wilds = all(card_type(c) == WILD for c in s.seats[seat].hand)
        if len(s.seats[nxt].hand) != 1 or not only_wilds:
            return (
                E.DRAW_NOT_ALLOWED,
                "under the 2021 rules you may draw only when the next player holds one card"
                " and every card in your hand is a plain Wild",
            )
    return None


def do_draw(state: State, a: Action, rng: RNG, ev: list[Event]) -> State:
    return draw_one(state, turn_seat(state, a), DRAW, rng, ev)


DRAW = DrawRules(draw_refusal, stacking.not_stackable_message, lambda s, card: True)


def do_choose(s: State, a: Action, rng: RNG, ev: list[Event]) -> None:
    seat = chooser(s, a, "target")
    assert s.pending is not None  # chooser checked it
    check_target(s, seat, s.pending["effect"], a.target, False)
    resolve_choice(s, a.target, rng, ev)


def resolve_choice(s: State, target: int | None, rng: RNG, ev: list[Event]) -> None:
    """The card waiting on the table takes effect at ``target``."""
    pending = s.pending
    assert pending is not None
    seat = pending["seat"]
    s.pending = None
    s.phase = PLAY
    ev.append({"type": "target_chosen", "seat": seat, "target": target})
    # A blind-played last card: a Targeted Draw 2 still hits, a Force Swap fizzles.
    going_out = pending["reason"] == "blind" and not s.seats[seat].hand
    EFFECTS[pending["effect"]](s, seat, target, going_out, rng, ev)
    if pending["reason"] != "opening":
        finish_play(s, seat, pending["uno"], ev)


def settle_timeout(s: State, seat: int, rng: RNG, ev: list[Event]) -> bool:
    """The turn clock ran out with a choice open: it is made at random. True when that ended the
    turn (a blind-played card); the seat then draws 1 (not after a voluntary draw) and the turn
    passes (``uno.play.timeout_handler``)."""
    if s.phase != CHOOSE or not s.pending:
        return False
    options = targets(s, seat, s.pending["effect"], False)
    target = choice(rng, options, ev) if options != [None] else None
    resolve_choice(s, target, rng, ev)
    return s.phase != PLAY or s.current != seat


do_timeout = timeout_handler(settle_timeout)
