"""Double down in Uno Splash (rulings: "House rules"): two identical cards, same colour and same
number or symbol (the two red 7s, the two blue Skips; one 0 per colour, so no 0 pair), played at
once. Wilds and Wild Draw Fours are never paired. The first card must be playable (so both are:
they are alike). Each takes effect as it would alone: two Draw Twos make the next player draw 4
and lose one turn; two Skips skip the next two turns of other players (2 players: the opponent
sits out twice); two Reverses leave the direction as it was with 3+ players and skip twice with
2; two numbers do nothing more. Played as the last two cards, the draw still applies. With
stacking a Draw Two pair adds 4 to the total (``stacking``).
"""

from __future__ import annotations

from .... import errors as E
from ....errors import EngineError
from ....interface import RNG, Event
from ... import effects as family
from ...actions import PLAY_PAIR, Action, Pick
from ...cards import card_type
from ...pairs import pair_of
from ...play import finish_play, put_on_table, refuse_after_draw
from ...state import STACK, State
from ...turns import next_active, require_house_rule
from .. import stacking
from ..cards import COLOUR_OF, DRAW2, DRAW_AMOUNT, PRESETS, RANK_OF
from ..effects import EFFECTS
from ..matching import playable_cards
from ..turn import turn_player


def pair_actions(s: State, seat: int, hand: list[str]) -> list[Action]:
    """One template per playable coloured type held twice (its two cards, in any order)."""
    matches = playable_cards(s)
    by_type: dict[str, list[str]] = {}
    for card in hand:
        if COLOUR_OF[card] is not None and card in matches:
            by_type.setdefault(card_type(card), []).append(card)
    return [
        Action(PLAY_PAIR, seat, choose=Pick(2, tuple(cards)))
        for cards in by_type.values()
        if len(cards) == 2 and (s.phase != STACK or stacking.RULES.may_stack(s, cards[0]))
    ]


def do_play_pair(state: State, a: Action, rng: RNG, ev: list[Event]) -> State:
    require_house_rule(state, "double_down")
    seat = turn_player(state, a)
    refuse_after_draw(state)
    if a.card is not None or a.target is not None or a.targets is not None or a.colour:
        raise EngineError(E.INVALID_ACTION, "play_pair takes two cards (a list) only")
    cards = pair_of(
        state, seat, a.cards, _alike, "double down plays two cards of one colour and rank"
    )
    first = cards[0]
    if first not in playable_cards(state):
        raise EngineError(E.CARD_NOT_PLAYABLE, f"{first} does not match the card on top")
    stacking.check_stack_play(state, first)
    s = put_on_table(state, seat, cards, ev)
    s.colour = None
    ev.append(
        {"type": "play_pair", "seat": seat, "cards": list(cards), "card_type": card_type(cards[0])}
    )
    rank = RANK_OF[cards[0]]
    if rank == DRAW2:
        victim = next_active(s, seat, s.direction)
        amount = 2 * DRAW_AMOUNT[DRAW2]  # with stacking the pair adds 4 to the total
        if not stacking.add_draw(s, victim, amount, DRAW2, not s.seats[seat].hand, rng, ev):
            family.draw_and_lose_turn(s, victim, amount, rng, ev, DRAW2)
    elif rank in EFFECTS:
        for _ in cards:
            EFFECTS[rank](s, seat, rng, ev)
    finish_play(s, seat, a.uno, PRESETS[s.preset].points, ev)
    return s


def _alike(first: str, second: str) -> bool:
    """Two cards of one colour and rank (one type): never wilds."""
    return card_type(first) == card_type(second) and COLOUR_OF[first] is not None
