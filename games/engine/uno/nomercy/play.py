"""A turn of No Mercy (rulings: "A turn", "Stacking"): play one playable card with its choices
(a wild's colour, a 7's target), or, holding nothing playable, draw until a playable card comes
and play it (phase ``drawn``: the only action). Facing a stack: stack a Draw card the table allows
or take the total (``take_stack``).
"""

from __future__ import annotations

from collections.abc import Callable

from ... import errors as E
from ...errors import EngineError
from ...interface import RNG, Event
from ..actions import COLOURS, Action
from ..cards import card_type
from ..play import drawn_card_to_play, finish_play, put_on_table
from ..stacking import take_stack_handler, take_total
from ..state import DRAWN, STACK, State, copy_state
from ..turns import advance, turn_seat
from .cards import COLOUR_OF, DRAW_VALUE, PRESETS, RANK_OF, ROULETTE
from .effects import EFFECTS, draw_card
from .knockout import draw_cards, round_goes_on
from .matching import STACKING, colour_in_play, playable, playable_cards


def stack_message(s: State) -> str:
    allowed = ", ".join(STACKING.stackable(s)) or "nothing (a Wild Draw 10 takes no stack)"
    return f"{s.stack} cards are owed: stack one of {allowed} on them, or take them (take_stack)"


def check_play(state: State, seat: int, a: Action, card: str) -> None:
    """Refuse a play of ``card`` (in hand) that does not fit the table or names its choices
    wrongly."""
    if a.cards is not None or a.targets is not None:
        raise EngineError(E.INVALID_ACTION, "a No Mercy play is one card")
    if state.phase == STACK:
        if not STACKING.may_stack(state, card):
            raise EngineError(E.NOT_STACKABLE, stack_message(state))
    elif not playable(state, card):
        raise EngineError(
            E.CARD_NOT_PLAYABLE,
            f"{card} matches neither the colour in play ({colour_in_play(state)}) nor the top"
            f" card ({state.discard_pile[0]})",
        )
    rank = RANK_OF[card]
    names_colour = COLOUR_OF[card] is None and rank != ROULETTE
    if names_colour and a.colour is None:
        raise EngineError(E.COLOUR_REQUIRED, f"name the colour with a wild: {', '.join(COLOURS)}")
    if not names_colour and a.colour is not None:
        raise EngineError(E.COLOUR_NOT_ALLOWED, f"{card} names no colour")
    if rank != "7":
        if a.target is not None:
            raise EngineError(E.TARGET_NOT_ALLOWED, "only a 7 names a player")
        return
    if a.target is None:
        raise EngineError(E.TARGET_REQUIRED, "name the player you swap hands with")
    if a.target == seat or not 0 <= a.target < len(state.seats):
        raise EngineError(E.INVALID_TARGET, "swap with another player")
    if not state.seats[a.target].active:
        raise EngineError(E.INVALID_TARGET, f"seat {a.target} is not in the round")


def play_card(state: State, seat: int, card: str, a: Action, rng: RNG, ev: list[Event]) -> State:
    """``seat`` plays ``card`` (checked) and its effect resolves; the new state."""
    s = put_on_table(state, seat, (card,), ev)
    s.colour = a.colour
    event: Event = {"type": "play", "seat": seat, "card": card, "card_type": card_type(card)}
    if a.colour is not None:
        event["colour"] = a.colour
    if a.target is not None:
        event["target"] = a.target
    ev.append(event)
    rank = RANK_OF[card]
    going_out = not s.seats[seat].hand
    if rank in DRAW_VALUE:
        draw_card(s, seat, card, going_out, rng, ev)
    elif not going_out and rank in EFFECTS:
        EFFECTS[rank](s, seat, card, a.target, ev)
    # A stack or a Roulette waiting for another player's answer keeps the turn where it is.
    finish_play(s, seat, a.uno, PRESETS[s.preset].points, ev)
    return s


def turn_player(state: State, a: Action) -> int:
    seat = turn_seat(state, a)
    if state.phase == DRAWN and a.type != "play_drawn":
        raise EngineError(
            E.MUST_PLAY_DRAWN_CARD_OR_PASS, "you drew a playable card: play it (play_drawn)"
        )
    return seat


def do_play(state: State, a: Action, rng: RNG, ev: list[Event]) -> State:
    seat = turn_player(state, a)
    card = a.card
    if card is None or card not in state.seats[seat].hand:
        raise EngineError(E.CARD_NOT_IN_HAND, f"{card!r} is not in your hand")
    check_play(state, seat, a, card)
    return play_card(state, seat, card, a, rng, ev)


def do_play_drawn(state: State, a: Action, rng: RNG, ev: list[Event]) -> State:
    seat = turn_player(state, a)
    drawn = drawn_card_to_play(state, a)
    check_play(state, seat, a, drawn)
    return play_card(state, seat, drawn, a, rng, ev)


def draw_refusal(s: State, seat: int) -> tuple[str, str] | None:
    if not playable_cards(s).isdisjoint(s.seats[seat].hand):
        return E.DRAW_NOT_ALLOWED, "you hold a playable card: play it"
    return None


def do_draw(state: State, a: Action, rng: RNG, ev: list[Event]) -> State:
    seat = turn_player(state, a)
    if state.phase == STACK:
        raise EngineError(E.STACK_PENDING, stack_message(state))
    refusal = draw_refusal(state, seat)
    if refusal:
        raise EngineError(*refusal)
    s = copy_state(state, False)
    draw_until_playable(s, seat, rng, ev)
    return s


def draw_until_playable(s: State, seat: int, rng: RNG, ev: list[Event]) -> None:
    """Draw until a playable card comes: it must be played (phase ``drawn``). A knockout ends the
    turn (no bonus); so does a pile with nothing left to draw."""
    drawn, knocked = draw_cards(s, seat, None, rng, ev, "until_playable", until=_playable_on(s))
    if knocked:
        return
    if drawn and playable(s, drawn[-1]):
        s.phase = DRAWN
        s.drawn_card = drawn[-1]
    else:
        advance(s, ev)


def _playable_on(s: State) -> Callable[[str], bool]:
    return playable_cards(s).__contains__


def take_stack(s: State, seat: int, rng: RNG, ev: list[Event]) -> None:
    """Draw the total one card at a time (Mercy checked; the last stacker is paid for a
    knockout); the turn then passes."""
    causer = s.stacker
    s.stacker = None
    _, knocked = draw_cards(s, seat, take_total(s), rng, ev, "stack", causer=causer)
    if not knocked and round_goes_on(s):
        advance(s, ev)


do_take_stack = take_stack_handler(take_stack)
