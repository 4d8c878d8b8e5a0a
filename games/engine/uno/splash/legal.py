"""Listing what a seat of Uno Splash may do now (changes nothing).

Actions are immutable tuples built once per table size (``SeatActions``) and shared by the
lists returned: a playable coloured card is one play, a wild four (one per colour named). For
each way the table can match (``matching.match_key``) a seat keeps the plays of the cards that
match it, so listing a hand is one dictionary lookup per card.
"""

from __future__ import annotations

from ..actions import (
    ACCEPT,
    CATCH,
    CHALLENGE,
    CHOOSE_COLOUR,
    COLOURS,
    DRAW,
    PASS,
    PLAY,
    PLAY_DRAWN,
    TAKE_STACK,
    UNO,
    Action,
)
from ..listing import lister
from ..state import CHOOSE, DRAWN, RESPOND, STACK, State
from ..state import PLAY as PLAY_PHASE
from .cards import COLOUR_OF, PRESETS
from .house_rules.double_down import pair_actions
from .matching import PLAYABLE, match_key
from .stacking import RULES as STACKING
from .turn import draw_refusal

Plays = dict[str, tuple[Action, ...]]


class PlaysOn(dict[tuple[str | None, str | None], Plays]):
    """Match key -> card -> its plays, for the cards playable on that key; built on first use
    (most of the 85 keys never come up at a given table)."""

    __slots__ = ("plays",)

    def __init__(self, plays: Plays) -> None:
        super().__init__()
        self.plays = plays

    def __missing__(self, key: tuple[str | None, str | None]) -> Plays:
        matches = PLAYABLE[key]
        found = self[key] = {card: p for card, p in self.plays.items() if card in matches}
        return found


class SeatActions:
    """The actions one seat may be offered at a table of ``n`` seats, built once and shared."""

    __slots__ = (
        "plays",
        "plays_on",
        "draw",
        "play_drawn",
        "pass_",
        "uno",
        "catch",
        "colours",
        "answers",
        "take",
    )

    def __init__(self, n: int, seat: int) -> None:
        self.plays: dict[str, tuple[Action, ...]] = {
            card: (
                (Action(PLAY, seat, card),)
                if COLOUR_OF[card]
                else tuple(Action(PLAY, seat, card, colour=c) for c in COLOURS)
            )
            for preset in PRESETS.values()
            for card in preset.card_ids
        }
        self.plays_on = PlaysOn(self.plays)
        self.play_drawn = {
            True: (Action(PLAY_DRAWN, seat),),
            False: tuple(Action(PLAY_DRAWN, seat, colour=c) for c in COLOURS),
        }
        self.draw = Action(DRAW, seat)
        self.pass_ = Action(PASS, seat)
        self.uno = Action(UNO, seat)
        self.catch = [Action(CATCH, seat, target=other) for other in range(n)]
        self.colours = [Action(CHOOSE_COLOUR, seat, colour=c) for c in COLOURS]
        self.answers = [Action(ACCEPT, seat), Action(CHALLENGE, seat)]
        self.take = Action(TAKE_STACK, seat)


def _turn_actions(s: State, seat: int, hand: list[str], table: SeatActions) -> list[Action]:
    phase = s.phase
    if phase == PLAY_PHASE:
        plays = table.plays_on[match_key(s)]
        out: list[Action] = []
        for card in hand:  # a loop, not a comprehension: no call of its own (CPython 3.11)
            if card in plays:
                out += plays[card]
        if s.house and s.options.get("double_down"):
            out += pair_actions(s, seat, hand)
        if draw_refusal(s, seat) is None:
            out.append(table.draw)
        return out
    if phase == DRAWN:
        drawn = s.drawn_card
        assert drawn is not None
        return [*table.play_drawn[COLOUR_OF[drawn] is not None], table.pass_]
    if phase == STACK:
        return _stack_answers(s, seat, hand, table)
    if phase == RESPOND:
        return list(table.answers)
    if phase == CHOOSE and s.pending and s.pending["seat"] == seat:
        return list(table.colours)
    return []


def _stack_answers(s: State, seat: int, hand: list[str], table: SeatActions) -> list[Action]:
    """A stack owed: the challenge of a Wild Draw Four on top (first), the cards the table allows
    stacked (a Draw Two pair too under double down), or the total taken."""
    out = [table.answers[1]] if s.pending else []
    kinds = STACKING.stackable(s)
    plays = table.plays
    out += [a for card in hand if STACKING.kind(card) in kinds for a in plays[card]]
    if s.options.get("double_down"):
        out += pair_actions(s, seat, hand)
    out.append(table.take)
    return out


# Every action a seat may take now (``uno.listing``).
legal_actions = lister(SeatActions, _turn_actions)
