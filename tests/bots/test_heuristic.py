"""The heuristic's rules, one position each (games/bots/heuristic.py)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.bots import decide
from games.engine.uno.actions import Action
from games.engine.uno.allwild.cards import card_type
from games.engine.uno.allwild.rules import apply
from games.engine.uno.allwild.view import view

from .positions import position

pytestmark = pytest.mark.pure


def heuristic(state: Any, seat: int, level: str = "heuristic") -> dict[str, Any] | None:
    return decide(view(state, seat), [], level=level, rng=random.Random(0))


def played(action: dict[str, Any] | None, state: Any, seat: int) -> str | None:
    """The type of the card ``action`` plays (None for other actions)."""
    assert action is not None
    if action["type"] == "play":
        return card_type(action["card"])
    if action["type"] == "play_drawn":
        return card_type(state.drawn_card)
    return None


def test_it_plays_a_plain_wild_before_other_action_cards() -> None:
    state = position([["skip", "reverse", "wild", "force_swap"], ["wild"] * 7])
    assert played(heuristic(state, 0), state, 0) == "wild"
    # Without the rule the wild is just one card among the others.
    rates = {
        played(
            decide(view(state, 0), [], level="heuristic-dump_wilds", rng=random.Random(s)), state, 0
        )
        for s in range(20)
    }
    assert rates - {"wild"}


def test_it_attacks_with_draw_cards_first_and_holds_them_without_the_rule() -> None:
    state = position([["wild", "targeted_draw2", "draw2", "skip"], ["wild"] * 7])
    assert played(heuristic(state, 0), state, 0) == "draw2"
    # The rulebook's way: hold them while no opponent is close to going out...
    assert played(heuristic(state, 0, "heuristic-attack_early"), state, 0) == "wild"
    # ... and use them once one is.
    close = position([["wild", "targeted_draw2", "skip"], ["wild"] * 2])
    action = heuristic(close, 0, "heuristic-attack_early")
    assert played(action, close, 0) == "targeted_draw2" and action["target"] == 1


def test_heads_up_it_stops_attacking_a_swollen_hand() -> None:
    # Against 16 cards a draw card only swells a round that never ends: held, as at 3+ seats.
    swollen = position([["wild", "targeted_draw2", "draw2", "skip"], ["wild"] * 16])
    assert played(heuristic(swollen, 0), swollen, 0) == "wild"
    below = position([["wild", "targeted_draw2", "draw2", "skip"], ["wild"] * 15])
    assert played(heuristic(below, 0), below, 0) == "draw2"


def test_it_stops_the_next_player_about_to_go_out() -> None:
    # Four players, the next one (seat 1) holds one card: Draw 4 on them.
    state = position([["wild", "draw4", "wild"], ["wild"], ["wild"] * 5, ["wild"] * 5], uno=(1,))
    assert played(heuristic(state, 0), state, 0) == "draw4"
    # No draw card, but a Force Swap: steal their one card.
    state = position([["wild", "force_swap", "wild"], ["wild"], ["wild"] * 5], uno=(1,))
    action = heuristic(state, 0)
    assert played(action, state, 0) == "force_swap" and action["target"] == 1


def test_it_targets_whoever_is_about_to_go_out_with_a_targeted_draw_two() -> None:
    state = position(
        [["wild", "targeted_draw2", "wild"], ["wild"] * 5, ["wild"], ["wild"] * 5], uno=(2,)
    )
    action = heuristic(state, 0)
    assert played(action, state, 0) == "targeted_draw2" and action["target"] == 2


def test_it_swaps_with_the_shortest_hand_when_behind() -> None:
    state = position([["wild"] * 7 + ["force_swap"], ["wild"] * 6, ["wild"] * 3])
    action = heuristic(state, 0)
    assert played(action, state, 0) == "force_swap" and action["target"] == 2
    # Not when the swap gains too little: keep the card.
    even = position([["wild"] * 4 + ["force_swap"], ["wild"] * 4, ["wild"] * 4])
    assert played(heuristic(even, 0), even, 0) == "wild"


def test_it_shuffles_hands_when_holding_many_cards() -> None:
    # Clockwise, seat 0 receives the hand of seat 2 (the seat before it).
    state = position([["wild"] * 8 + ["shuffle_hands"], ["wild"] * 6, ["wild"] * 3])
    assert played(heuristic(state, 0), state, 0) == "shuffle_hands"
    assert played(heuristic(state, 0, "heuristic-shuffle_when_many"), state, 0) == "wild"


def test_it_says_uno_with_the_play_that_leaves_one_card() -> None:
    state = position([["wild", "skip"], ["wild"] * 5, ["wild"] * 5])
    action = heuristic(state, 0)
    assert action is not None and action.get("uno") is True
    assert heuristic(state, 0, "heuristic-say_uno").get("uno") is None  # type: ignore[union-attr]


def test_it_says_uno_at_once_when_a_swap_leaves_it_one_card() -> None:
    state = position([["wild"] * 3, ["wild"] * 4, ["wild"]], current=0)
    assert heuristic(state, 2) == {"type": "uno"}


def test_it_catches_a_missed_uno() -> None:
    state = position([["wild"] * 3, ["wild"], ["wild"] * 4], current=2, exposed=(1,))
    assert heuristic(state, 0) == {"type": "catch", "target": 1}
    assert heuristic(state, 0, "heuristic-catch") is None


def test_it_draws_on_purpose_when_nothing_in_hand_stops_the_next_player() -> None:
    # The rulebook's scenario 7: Alice holds three Wilds, Bob (next) one card and said UNO.
    state = position([["wild"] * 3, ["wild"], ["wild"] * 5], uno=(1,))
    assert heuristic(state, 0) == {"type": "draw"}
    # The drawn card is a Targeted Draw 2 (put on top of the pile): play it on Bob.
    tdraw = next(c for c in state.draw_pile if card_type(c) == "targeted_draw2")
    state.draw_pile.remove(tdraw)
    state.draw_pile.insert(0, tdraw)
    after, _ = apply(state, Action("draw", 0), random.Random(1))
    assert heuristic(after, 0) == {"type": "play_drawn", "target": 1}
    assert played(heuristic(state, 0, "heuristic-strategic_draw"), state, 0) == "wild"


def test_under_the_2021_rules_it_draws_only_when_allowed() -> None:
    state = position([["wild"] * 3, ["wild"], ["wild"] * 5], preset="mattel_2021", uno=(1,))
    assert heuristic(state, 0) == {"type": "draw"}  # allowed: every card a plain Wild
    mixed = position(
        [["wild", "wild", "skip_two"], ["wild"], ["wild"] * 5], preset="mattel_2021", uno=(1,)
    )
    assert played(heuristic(mixed, 0), mixed, 0) == "skip_two"  # a Skip Two holds them off


def test_with_two_players_it_chains_extra_turns_to_go_out() -> None:
    state = position([["wild", "skip", "reverse"], ["wild"] * 5])
    assert played(heuristic(state, 0), state, 0) in ("skip", "reverse")
    assert played(heuristic(state, 0, "heuristic-chain"), state, 0) == "wild"


def test_it_plays_its_last_card() -> None:
    state = position([["force_swap"], ["wild"] * 5, ["wild"] * 5], uno=(0,))
    assert heuristic(state, 0) == {"type": "play", "card": state.seats[0].hand[0]}


def test_an_opening_force_swap_goes_to_the_shortest_hand() -> None:
    state = position([["wild"] * 7, ["wild"] * 9, ["wild"] * 4])
    state.phase = "choose"
    state.pending = {
        "seat": 0,
        "card": state.discard_pile[0],
        "effect": "force_swap",
        "reason": "opening",
        "uno": False,
    }
    assert heuristic(state, 0) == {"type": "choose_target", "target": 2}
