"""Uno Show 'Em No Mercy's rules, as ruled by ``shared/rules/uno_no_mercy.md``: creating a match,
dealing a round with its opening card, the colour choices (a Roulette's victim, an opening wild),
timeouts, leaving, and applying an action.

Pure: state in, new state and events out; ``apply`` never changes the state it is given. All
randomness goes through the ``rng`` passed in and is logged (``uno.chance``).
"""

from __future__ import annotations

from typing import Any, Final

from ... import errors as E
from ...errors import EngineError
from ...interface import RNG, Event
from .. import actions as A
from ..actions import Action
from ..calls import close_catch_windows, do_catch, do_uno
from ..colours import COLOUR_NAMING, chosen_colour, colour_named, random_colour
from ..deal import Setup, deal, match_starter, open_reverse, open_skip
from ..dispatch import Handler, applier, next_round, on_copy
from ..play import start_timeout
from ..scoring import end_round
from ..seats import last_player_wins, retire
from ..state import CHOOSE, COUNTERCLOCKWISE, DRAWN, MATCH_OVER, PLAY, STACK, State
from ..turns import advance, await_choice, chooser, direction_name, seat_of
from .cards import (
    COLOUR_OF,
    DRAW2,
    DRAW4,
    DRAW_VALUE,
    HAND_SIZE,
    PRESETS,
    RANK_OF,
    REVERSE,
    ROULETTE,
    SKIP,
    SKIP_ALL,
    WD6,
    WD10,
    WRD4,
)
from .knockout import draw_cards, round_goes_on, seated
from .play import do_draw, do_play, do_play_drawn, do_take_stack, take_stack

GAME: Final = "uno_no_mercy"
MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 6


def validate_options(options: Any) -> dict[str, bool]:
    """No Mercy has no house rules: only an empty object is accepted."""
    if not isinstance(options, dict):
        raise EngineError(E.INVALID_SETUP, "options are an object of house rules")
    if options:
        raise EngineError(
            E.INVALID_SETUP,
            f"Uno Show 'Em No Mercy has no house rules: {', '.join(sorted(map(str, options)))}",
        )
    return {}


def deal_round(s: State, rng: RNG, ev: list[Event]) -> None:
    """Deal the next round (every seated player, knocked-out ones included) and apply the
    opening card."""
    for seat in s.knocked_out:
        s.seats[seat].active = True
    s.knocked_out = []
    s.set_aside = []
    s.stacker = None
    s.colour = None
    deal(s, list(PRESETS[s.preset].card_ids), HAND_SIZE, rng, ev)
    opening(s, s.current, s.discard_pile[0], rng, ev)


# A new match with round 1 dealt: the dealer is a random seat.
SETUP = Setup(GAME, PRESETS, (MIN_PLAYERS, MAX_PLAYERS), "standard", 1000)
new_game = match_starter(SETUP, validate_options, deal_round)


def opening(s: State, first: int, top: str, rng: RNG, ev: list[Event]) -> None:
    """The opening card's effect, as if nobody had played it (rulings: "Opening card")."""
    rank = RANK_OF[top]
    if rank not in (SKIP, REVERSE, SKIP_ALL, DRAW2, DRAW4, WD6, WD10, WRD4, ROULETTE):
        return  # a number (0 and 7 too) or Discard All: the first player takes their turn
    ev.append({"type": "opening_effect", "card": top, "seat": first})
    if rank == SKIP:
        open_skip(s, first, ev)
    elif rank == REVERSE:
        open_reverse(s, ev)
    elif rank == SKIP_ALL:
        s.current = s.dealer
    elif rank in (DRAW2, DRAW4):
        _, knocked = draw_cards(s, first, DRAW_VALUE[rank], rng, ev, "opening")
        if not knocked:
            open_skip(s, first, ev)
    else:  # a wild: its chooser names the colour first (the dealer for a Wild Reverse Draw 4)
        if rank == WRD4:
            s.direction = COUNTERCLOCKWISE
            ev.append({"type": "direction", "direction": direction_name(s.direction)})
            first = s.current = s.dealer
        await_choice(s, first, top, "colour", "opening")


def do_choose_colour(s: State, a: Action, rng: RNG, ev: list[Event]) -> None:
    seat = chooser(s, a, "colour")
    colour = chosen_colour(a)
    close_catch_windows(s)  # naming the colour is the chooser's turn action
    name_colour(s, seat, colour, rng, ev)


def name_colour(s: State, seat: int, colour: str, rng: RNG, ev: list[Event]) -> None:
    """The open colour choice is made and its effect runs: a Roulette reveals until the colour
    comes (its player paid for a knockout), an opening Draw wild draws its value; the chooser
    then loses the turn."""
    pending = s.pending
    assert pending is not None
    colour_named(s, seat, colour, ev)
    rank = RANK_OF[pending["card"]]
    if rank == ROULETTE:
        # The reveal is face up: the whole table sees the cards turned (``face_up``).
        _, knocked = draw_cards(
            s,
            seat,
            None,
            rng,
            ev,
            "roulette",
            causer=pending.get("owner"),
            until=lambda card: COLOUR_OF[card] == colour,
            face_up=True,
        )
    else:
        _, knocked = draw_cards(s, seat, DRAW_VALUE[rank], rng, ev, "opening")
    if not knocked and round_goes_on(s):
        advance(s, ev)


def do_timeout(s: State, a: Action, rng: RNG, ev: list[Event]) -> None:
    """The turn clock ran out (rulings: "Leaving and timeouts"): a stack owed is taken (its
    stacker paid for a knockout); a colour owed is named at random and its effect runs; after
    drawing until playable the turn passes (the card kept); otherwise draw 1 and pass."""
    seat = start_timeout(s, a, ev)
    if s.phase == STACK:
        take_stack(s, seat, rng, ev)
    elif s.phase == CHOOSE:
        name_colour(s, seat, random_colour(rng, ev), rng, ev)
    elif s.phase == DRAWN:
        advance(s, ev)
    else:
        _, knocked = draw_cards(s, seat, 1, rng, ev, "timeout")
        if not knocked:
            advance(s, ev)


def do_leave(s: State, a: Action, rng: RNG, ev: list[Event]) -> None:
    """A player leaves the match: the hand goes under the draw pile, a stack owed by them is
    cancelled, a colour owed by them is named at random with no effect, nobody is paid. One
    player left in the round wins it; one seated player left wins the match."""
    seat = seat_of(s, a)
    if s.phase == MATCH_OVER:
        raise EngineError(E.GAME_OVER, "the match is over")
    if not seated(s, seat):
        raise EngineError(E.NOT_IN_ROUND, "that seat has already left")
    me = s.seats[seat]
    in_play = round_goes_on(s)
    had_turn = in_play and me.active and s.current == seat
    if had_turn and s.phase == CHOOSE:
        colour = random_colour(rng, ev)
        s.colour = colour
        ev.append({"type": "colour_chosen", "seat": seat, "colour": colour})
    if had_turn and s.phase == STACK:
        ev.append({"type": "stack_cancelled", "seat": seat, "total": s.stack})
        s.stack = 0
        s.stacker = None
    if s.stacker == seat:
        s.stacker = None  # nobody is paid for a card of a player who left
    retire(s, seat, ev)
    s.knocked_out = [i for i in s.knocked_out if i != seat]
    if had_turn:
        s.pending = None
        s.drawn_card = None
        s.phase = PLAY
    _after_leave(s, seat, had_turn, ev)


def _after_leave(s: State, seat: int, had_turn: bool, ev: list[Event]) -> None:
    remaining = [i for i in range(len(s.seats)) if seated(s, i)]
    if len(remaining) == 1:
        last_player_wins(s, remaining[0], ev)
        s.stacker = None
        return
    if not round_goes_on(s):
        return
    in_round = s.active_seats()
    if len(in_round) == 1:
        end_round(s, in_round[0], PRESETS[s.preset].points, ev)
    elif had_turn:
        advance(s, ev)


HANDLERS: dict[str, Handler] = {
    A.PLAY: do_play,
    A.PLAY_DRAWN: do_play_drawn,
    A.DRAW: do_draw,
    A.TAKE_STACK: do_take_stack,
    A.CHOOSE_COLOUR: on_copy(do_choose_colour),
    A.UNO: on_copy(do_uno),
    A.CATCH: on_copy(do_catch),
    A.TIMEOUT: on_copy(do_timeout),
    A.LEAVE: on_copy(do_leave),
    A.NEXT_ROUND: next_round(deal_round),
}
PLAYER_ACTIONS = (A.PLAY, A.DRAW, A.PLAY_DRAWN, A.TAKE_STACK, A.CHOOSE_COLOUR, A.UNO, A.CATCH)
ACTION_TYPES = PLAYER_ACTIONS + A.SYSTEM_ACTIONS
ACTION_FIELDS = A.FIELDS | {"colour"}


# Applying an action to a copy of the state: the new state and its events; EngineError (state
# untouched) when the rules refuse it, a colour named by an action that names none first.
apply = applier(HANDLERS, COLOUR_NAMING)
