"""Uno All Wild's rules, as ruled by RULES.md: creating a match, dealing a round (with the opening
card's effect), and applying an action.

Pure: state in, new state and events out. ``apply`` never changes the state it is given, so a
refused action leaves it untouched. All randomness goes through the ``rng`` passed in and is
logged (``uno.chance``).
"""

from __future__ import annotations

from typing import Final

from ...interface import RNG, Event
from .. import actions as A
from ..calls import do_catch, do_uno
from ..cards import card_type
from ..deal import Setup, deal, match_starter, open_draw, open_reverse, open_skip
from ..dispatch import Handler, applier, next_round, on_copy
from ..hands import pass_hands
from ..mercy import do_mercy
from ..options import HouseRules
from ..play import do_pass
from ..seats import do_leave
from ..state import CLOCKWISE, State
from ..turns import await_choice
from .cards import DRAW_AMOUNT, HAND_SIZE, PRESETS, REVERSE, SHUFFLE_HANDS, SKIP, TARGETED, WILD
from .house_rules import HOUSE_RULE_TEXTS, HOUSE_RULES
from .house_rules.blind_play import do_play_top
from .house_rules.double_down import do_play_pair
from .house_rules.stacking import do_take_stack
from .turn import do_choose, do_draw, do_play, do_play_drawn, do_timeout

GAME: Final = "uno_all_wild"
MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 10
# House rules this engine enforces (speed mode is the service's turn clock: nothing to enforce
# here). A rule not in this set would be refused at creation, never ignored.
SUPPORTED_HOUSE_RULES = frozenset(HOUSE_RULES)
HOUSE = HouseRules(HOUSE_RULE_TEXTS, SUPPORTED_HOUSE_RULES)
validate_options = HOUSE.validate


def deal_round(s: State, rng: RNG, ev: list[Event]) -> None:
    """Deal the next round; the card flipped may take effect (``standard``)."""
    deal(s, list(PRESETS[s.preset].card_ids), HAND_SIZE, rng, ev)
    opening(s, s.current, s.discard_pile[0], rng, ev)


# A new match with round 1 dealt: the dealer is a random seat.
SETUP = Setup(GAME, PRESETS, (MIN_PLAYERS, MAX_PLAYERS), "standard", 500)
new_game = match_starter(SETUP, validate_options, deal_round)


def opening(s: State, first: int, top: str, rng: RNG, ev: list[Event]) -> None:
    """The first card's effect on the first player (``standard``; ``mattel_2021`` ignores it)."""
    kind = card_type(top)
    if not PRESETS[s.preset].opening_effects or kind == WILD:
        return
    ev.append({"type": "opening_effect", "card": top, "seat": first})
    if kind in DRAW_AMOUNT:
        open_draw(s, first, DRAW_AMOUNT[kind], rng, ev)
    elif kind == SKIP:
        open_skip(s, first, ev)
    elif kind == REVERSE:
        open_reverse(s, ev)
    elif kind in TARGETED:  # the first player chooses the target, then takes their turn
        await_choice(s, first, top, kind, "opening", uno=False)
    elif kind == SHUFFLE_HANDS:
        pass_hands(s, CLOCKWISE, ev, first)


# Applying an action: one handler per action type (``uno.dispatch``).
HANDLERS: dict[str, Handler] = {
    A.PLAY: do_play,
    A.PLAY_DRAWN: do_play_drawn,
    A.DRAW: do_draw,
    A.PASS: do_pass,
    A.CHOOSE_TARGET: on_copy(do_choose),
    A.UNO: on_copy(do_uno),
    A.CATCH: on_copy(do_catch),
    A.TIMEOUT: on_copy(do_timeout),
    A.LEAVE: on_copy(do_leave),
    A.NEXT_ROUND: next_round(deal_round),
    A.TAKE_STACK: do_take_stack,
    A.PLAY_PAIR: do_play_pair,
    A.PLAY_TOP: do_play_top,
    A.MERCY: on_copy(do_mercy),
}


apply = applier(HANDLERS)
PLAYER_ACTIONS = A.PLAYER_ACTIONS
ACTION_FIELDS = A.FIELDS
