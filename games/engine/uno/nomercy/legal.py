"""Listing what a seat of No Mercy may do now (changes nothing).

Actions are immutable tuples built once per table size (``SeatActions``) and shared by the lists
returned: a coloured card is one play, a colour-naming wild four (one per colour), a 7 one per
other seat (filtered to the players in the round when listed).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..actions import CATCH, CHOOSE_COLOUR, COLOURS, DRAW, PLAY, PLAY_DRAWN, TAKE_STACK, UNO, Action
from ..listing import lister
from ..state import CHOOSE, DRAWN, STACK, State
from ..state import PLAY as PLAY_PHASE
from .cards import COLOUR_OF, PRESETS, RANK_OF, ROULETTE
from .matching import STACKING, playable_cards
from .play import draw_refusal


def _plays(action_type: str, seat: int, n: int, card: str, with_card: bool) -> tuple[Action, ...]:
    c = card if with_card else None
    if RANK_OF[card] == "7":
        return tuple(Action(action_type, seat, c, target=t) for t in range(n) if t != seat)
    if COLOUR_OF[card] is None and RANK_OF[card] != ROULETTE:
        return tuple(Action(action_type, seat, c, colour=colour) for colour in COLOURS)
    return (Action(action_type, seat, c),)


class SeatActions:
    """The actions one seat may be offered at a table of ``n`` seats, built once and shared."""

    __slots__ = ("plays", "play_drawn", "draw", "take", "uno", "catch", "colours")

    def __init__(self, n: int, seat: int) -> None:
        cards = [card for preset in PRESETS.values() for card in preset.card_ids]
        self.plays = {card: _plays(PLAY, seat, n, card, True) for card in cards}
        self.play_drawn = {card: _plays(PLAY_DRAWN, seat, n, card, False) for card in cards}
        self.draw = Action(DRAW, seat)
        self.take = Action(TAKE_STACK, seat)
        self.uno = Action(UNO, seat)
        self.catch = [Action(CATCH, seat, target=other) for other in range(n)]
        self.colours = [Action(CHOOSE_COLOUR, seat, colour=c) for c in COLOURS]


def _in_round(s: State, actions: Sequence[Action]) -> list[Action]:
    # A 7 targets a player in the round only; other plays carry no target.
    return [a for a in actions if a.target is None or s.seats[a.target].active]


def _turn_actions(s: State, seat: int, hand: list[str], table: SeatActions) -> list[Action]:
    phase = s.phase
    if phase == PLAY_PHASE:
        matches = playable_cards(s)
        plays = table.plays
        listed: list[Action] = []
        for card in hand:  # a loop, not a comprehension: no call of its own (CPython 3.11)
            if card in matches:
                listed += plays[card]
        out = _in_round(s, listed)  # once for the whole list, not once a card
        if draw_refusal(s, seat) is None:
            out.append(table.draw)
        return out
    if phase == STACK:
        kinds = STACKING.stackable(s)
        out = [a for card in hand if RANK_OF[card] in kinds for a in table.plays[card]]
        out.append(table.take)
        return out
    if phase == DRAWN:
        drawn = s.drawn_card
        assert drawn is not None
        return _in_round(s, table.play_drawn[drawn])
    if phase == CHOOSE and s.pending and s.pending["seat"] == seat:
        return list(table.colours)
    return []


# Every action a seat may take now (``uno.listing``).
legal_actions = lister(SeatActions, _turn_actions)
