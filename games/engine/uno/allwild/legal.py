"""Listing what a seat may do now (changes nothing).

The usual listing reads prebuilt actions: actions are immutable tuples, so the (always new) lists
returned share them, built once per table size (``SeatActions``) instead of every call.
"""

from __future__ import annotations

from itertools import chain
from operator import attrgetter

from ..actions import (
    CATCH,
    CHOOSE_TARGET,
    DRAW,
    PASS,
    PLAY,
    PLAY_DRAWN,
    PLAY_TOP,
    TAKE_STACK,
    UNO,
    Action,
)
from ..cards import TYPE_OF, card_type
from ..listing import lister
from ..state import DRAWN, STACK, Seat, State
from ..state import PLAY as PLAY_PHASE
from .cards import PRESETS
from .house_rules.double_down import pair_actions
from .house_rules.stacking import stackable_types
from .targets import protection_applies, targets
from .turn import draw_refusal

_ACTIVE = attrgetter("active")


class SeatActions:
    """The actions one seat may be offered at a table of ``n`` seats, built once and shared.

    ``plays`` maps every card id of every preset to its play actions in the usual position: every
    seat active, the player not going out, no Force Swap target protected. At 2 seats every card
    then has exactly one play, and ``single`` maps card -> that play (None at more seats).
    """

    __slots__ = ("plays", "single", "draw", "play_drawn", "pass_", "uno", "catch", "take", "top")

    def __init__(self, n: int, seat: int) -> None:
        usual = State("standard", [Seat(["", ""]) for _ in range(n)], [], [])
        by_type = {kind: targets(usual, seat, kind, False) for kind in set(TYPE_OF.values())}
        self.plays: dict[str, tuple[Action, ...]] = {
            card: tuple(Action(PLAY, seat, card, t) for t in by_type[card_type(card)])
            for preset in PRESETS.values()
            for card in preset.card_ids
        }
        self.single: dict[str, Action] | None = None
        if all(len(plays) == 1 for plays in self.plays.values()):
            self.single = {card: plays[0] for card, plays in self.plays.items()}
        self.draw = Action(DRAW, seat)
        self.play_drawn = {t: Action(PLAY_DRAWN, seat, target=t) for t in [None, *range(n)]}
        self.pass_ = Action(PASS, seat)
        self.uno = Action(UNO, seat)
        self.catch = [Action(CATCH, seat, target=other) for other in range(n)]
        self.take = Action(TAKE_STACK, seat)
        self.top = Action(PLAY_TOP, seat)


def _turn_actions(s: State, seat: int, hand: list[str], table: SeatActions) -> list[Action]:
    phase = s.phase
    blind = s.house and bool(s.options.get("blind_play"))
    pairs = s.house and bool(s.options.get("double_down")) and not blind
    out: list[Action]
    if phase == PLAY_PHASE:
        out = [table.top] if blind else _plays(s, seat, hand, table)
        if pairs:
            out += pair_actions(s, seat, hand, None)
        if draw_refusal(s, seat) is None:
            out.append(table.draw)
    elif phase == STACK:
        kinds = stackable_types(s)
        if blind:
            out = [table.top]  # stacks if the revealed card can
        else:
            out = [Action(PLAY, seat, c) for c in hand if card_type(c) in kinds]
            if pairs:
                out += pair_actions(s, seat, hand, kinds)
        out.append(table.take)
    elif phase == DRAWN:
        drawn = s.drawn_card
        assert drawn is not None
        if blind:  # a target is chosen after the reveal
            out = [table.play_drawn[None]]
        else:
            out = [table.play_drawn[t] for t in targets(s, seat, card_type(drawn), len(hand) == 1)]
        out.append(table.pass_)
    else:  # phase choose
        pending = s.pending
        if not pending or pending["seat"] != seat:
            return []
        out = [
            Action(CHOOSE_TARGET, seat, target=t)
            for t in targets(s, seat, pending["effect"], False)
        ]
    return out


def _plays(s: State, seat: int, hand: list[str], table: SeatActions) -> list[Action]:
    """The play actions of ``hand``: prebuilt in the usual position, else card by card."""
    if (
        len(hand) > 1
        and all(map(_ACTIVE, s.seats))
        and not (s.options.get("force_swap_protection") and protection_applies(s, seat))
    ):
        try:
            if table.single is not None:
                return list(map(table.single.__getitem__, hand))
            return list(chain(*map(table.plays.__getitem__, hand)))
        except KeyError:  # a card id no preset has (a hand-made position)
            pass
    going_out = len(hand) == 1
    out: list[Action] = []
    targets_of: dict[str, list[int | None]] = {}  # cards of one type take the same targets
    for card in hand:
        kind = card_type(card)
        found = targets_of.get(kind)
        if found is None:
            found = targets_of[kind] = targets(s, seat, kind, going_out)
        out += [Action(PLAY, seat, card, t) for t in found]
    return out


# Every action a seat may take now (``uno.listing``).
legal_actions = lister(SeatActions, _turn_actions)
