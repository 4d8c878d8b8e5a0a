"""Uno Splash's rules, as ruled by ``shared/rules/uno_splash.md``: creating a match, dealing a
round with its opening card, the house rules offered, and applying an action.

Pure: state in, new state and events out; ``apply`` never changes the state it is given. All
randomness goes through the ``rng`` passed in and is logged (``uno.chance``).
"""

from __future__ import annotations

from typing import Final

from ...interface import RNG, Event
from .. import actions as A
from ..calls import do_catch, do_uno
from ..chance import shuffle
from ..colours import COLOUR_NAMING
from ..deal import Setup, deal, match_starter, open_draw, open_reverse, open_skip
from ..dispatch import Handler, applier, next_round, on_copy
from ..mercy import do_mercy
from ..options import HouseRules
from ..play import do_pass
from ..state import State
from ..turns import await_choice
from .cards import DRAW2, DRAW_AMOUNT, HAND_SIZE, PRESETS, RANK_OF, REVERSE, SKIP, WD4, WILD
from .challenge import do_accept, do_challenge
from .house_rules.double_down import do_play_pair
from .stacking import do_take_stack
from .turn import (
    do_choose_colour,
    do_draw,
    do_leave,
    do_play,
    do_play_drawn,
    do_timeout,
)

GAME: Final = "uno_splash"
MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 10
# The house rules the rulings allow, in the order of the page, and what each does, written for
# players (clients show these as they are). Speed mode is the service's turn clock and Mercy the
# family's (``uno.mercy``). A rule allowed but not built would be listed here and left out of
# SUPPORTED_HOUSE_RULES: creation refuses it, never ignores it.
HOUSE_RULE_TEXTS = {
    "stacking": "Stacking: hit by a Draw Two or a Wild Draw Four, you may pass it on instead of "
    "drawing: any Draw Two or a Wild Draw Four on a Draw Two, only a Wild Draw Four on a Wild "
    "Draw Four. The amounts add up; the first player who does not stack takes the total and loses "
    "the turn. Every Wild Draw Four may still be challenged by the player it passes to, before "
    "answering: if it succeeds its player draws 4 and the total drops by 4; if it fails you draw "
    "the total + 2 and lose the turn. A Draw Two pair (double down) adds 4.",
    "speed_mode": "Speed mode: every turn has a short time limit (`speed_seconds`, 5 s unless "
    "chosen). When it runs out you draw a card and the turn passes; a Wild Draw Four you owe an "
    "answer to is accepted. Running out of time here never hands your seat to a bot.",
    "double_down": "Double down: you may play two identical cards (same colour and same number "
    "or symbol) at once; both take effect: two Draw Twos make the next player draw 4, two Skips "
    "skip two players, two Reverses leave the direction as it was (with 2 players: two skips). "
    "Wilds are never paired.",
    "mercy": "Mercy: holding 15 cards or more, you may once discard 5 cards of your choice, at "
    "any moment and without using your turn; they go under the top card, so the colour in force "
    "stays. Not while you owe a choice (the opening colour, an answer to a Wild Draw Four). You "
    "get the right back once your hand has dropped below 15.",
}
HOUSE_RULES = tuple(HOUSE_RULE_TEXTS)
SUPPORTED_HOUSE_RULES = frozenset({"stacking", "speed_mode", "double_down", "mercy"})
# Refused for good (rulings: "House rules"), with the reason a player reads.
REFUSED_HOUSE_RULES = {
    "blind_play": "a face-down card cannot be checked against the colour in force, and no source"
    " says what becomes of an unplayable one",
    "force_swap_protection": "Uno Splash has no Force Swap card",
}
HOUSE = HouseRules(HOUSE_RULE_TEXTS, SUPPORTED_HOUSE_RULES, REFUSED_HOUSE_RULES)


validate_options = HOUSE.validate


def deal_round(s: State, rng: RNG, ev: list[Event]) -> None:
    """Deal the next round and apply the opening card."""
    s.colour = None
    deal(s, list(PRESETS[s.preset].card_ids), HAND_SIZE, rng, ev)
    while RANK_OF[s.discard_pile[0]] == WD4:
        # An opening Wild Draw Four goes back into the draw pile, which is shuffled; flip again.
        returned = s.discard_pile[0]
        pile = [*s.draw_pile, returned]
        shuffle(rng, pile, ev)
        s.discard_pile = [pile[0]]
        s.draw_pile = pile[1:]
        ev.append({"type": "opening_returned", "card": returned, "next": pile[0]})
    opening(s, s.current, s.discard_pile[0], rng, ev)


# A new match with round 1 dealt: the dealer is a random seat.
SETUP = Setup(GAME, PRESETS, (MIN_PLAYERS, MAX_PLAYERS), "classic", 500)
new_game = match_starter(SETUP, validate_options, deal_round)


def opening(s: State, first: int, top: str, rng: RNG, ev: list[Event]) -> None:
    """The opening card's effect on the first player (rulings: "Opening card")."""
    rank = RANK_OF[top]
    if rank not in (SKIP, REVERSE, DRAW2, WILD):
        return  # a number: the first player takes their turn
    ev.append({"type": "opening_effect", "card": top, "seat": first})
    if rank == DRAW2:
        open_draw(s, first, DRAW_AMOUNT[DRAW2], rng, ev)
    elif rank == SKIP:
        open_skip(s, first, ev)
    elif rank == REVERSE:
        open_reverse(s, ev)
    else:  # a Wild: the first player names the colour, then takes their turn
        await_choice(s, first, top, "colour", "opening", uno=False)


# Applying an action: one handler per action type (``uno.dispatch``).
HANDLERS: dict[str, Handler] = {
    A.PLAY: do_play,
    A.PLAY_DRAWN: do_play_drawn,
    A.DRAW: do_draw,
    A.PASS: do_pass,
    A.CHOOSE_COLOUR: on_copy(do_choose_colour),
    A.ACCEPT: on_copy(do_accept),
    A.CHALLENGE: on_copy(do_challenge),
    A.UNO: on_copy(do_uno),
    A.CATCH: on_copy(do_catch),
    A.MERCY: on_copy(do_mercy),
    A.PLAY_PAIR: do_play_pair,
    A.TAKE_STACK: do_take_stack,
    A.TIMEOUT: on_copy(do_timeout),
    A.LEAVE: on_copy(do_leave),
    A.NEXT_ROUND: next_round(deal_round),
}
PLAYER_ACTIONS = (
    A.PLAY,
    A.DRAW,
    A.PLAY_DRAWN,
    A.PASS,
    A.CHOOSE_COLOUR,
    A.ACCEPT,
    A.CHALLENGE,
    A.UNO,
    A.CATCH,
    A.MERCY,
    A.PLAY_PAIR,
    A.TAKE_STACK,
)
ACTION_TYPES = PLAYER_ACTIONS + A.SYSTEM_ACTIONS
ACTION_FIELDS = A.FIELDS | {"colour"}


# Applying an action to a copy of the state: the new state and its events; EngineError (state
# untouched) when the rules refuse it, a colour named by an action that names none first.
apply = applier(HANDLERS, COLOUR_NAMING)
