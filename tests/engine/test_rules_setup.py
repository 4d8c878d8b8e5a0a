"""The rulings of RULES.md on the presets, the setup and the opening card: one or more hand-written
tests for each.

Positions are built directly with ``position(...)`` (tests/engine/allwild_positions.py): the
cards named in hands, draw and discard piles are placed as given and the rest of the 112 go to the
bottom of the draw pile (or wherever ``rest`` says), so cards are conserved in every position.
Seats: alice 0, bob 1, carol 2, dave 3.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from games.engine import EngineError, ReplayRNG
from games.engine.uno.actions import Action
from games.engine.uno.allwild.cards import PRESETS, card_type
from games.engine.uno.allwild.legal import legal_actions
from games.engine.uno.allwild.rules import new_game

from .allwild_positions import (
    ALICE,
    BOB,
    CAROL,
    DAVE,
    HAND,
    act,
    dealt,
    dealt_hand,
    hand,
    refusal,
    types,
)

# Presets are data that match the rulings' table


def test_standard_deck_and_points_match_the_rulebook_table() -> None:
    preset = PRESETS["standard"]
    assert preset.deck == {
        "wild": 28,
        "draw2": 16,
        "draw4": 8,
        "reverse": 12,
        "skip": 12,
        "targeted_draw2": 16,
        "force_swap": 12,
        "shuffle_hands": 8,
    }
    assert preset.points == {
        "wild": 40,
        "draw2": 50,
        "draw4": 60,
        "reverse": 20,
        "skip": 30,
        "targeted_draw2": 50,
        "force_swap": 40,
        "shuffle_hands": 40,
    }
    assert preset.opening_effects and not preset.draw_restricted


def test_mattel_2021_deck_and_points_match_the_printed_sheet_table() -> None:
    preset = PRESETS["mattel_2021"]
    assert preset.deck == {
        "wild": 54,
        "draw2": 10,
        "draw4": 6,
        "reverse": 14,
        "skip": 14,
        "skip_two": 6,
        "targeted_draw2": 4,
        "force_swap": 4,
    }
    assert preset.points == {"wild": 20} | {k: 50 for k in preset.deck if k != "wild"}
    assert not preset.opening_effects and preset.draw_restricted


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_preset_has_112_distinct_card_ids(preset: str) -> None:
    ids = PRESETS[preset].card_ids
    assert len(ids) == len(set(ids)) == 112
    assert Counter(card_type(c) for c in ids) == Counter(PRESETS[preset].deck)


# ---------------------------------------------------------------------------------------------
# Setup


@pytest.mark.parametrize(
    ("setup", "why"),
    [
        ({"players": 1}, "too few players"),
        ({"players": 11}, "too many players"),
        ({"players": 4, "preset": "classic"}, "unknown preset"),
        ({"players": 4, "target_score": -1}, "negative target"),
        ({"players": 4, "options": {"no_such_rule": True}}, "unknown house rule"),
        ({"players": 4, "options": {"stacking": "yes"}}, "house rule not a boolean"),
        ({"players": 4, "options": {"force_swap_protection": "yes"}}, "not a boolean"),
        ({"players": 4, "options": 5}, "options not an object"),
        ({"players": 4, "options": ["stacking"]}, "options a list"),
    ],
)
def test_a_bad_setup_is_refused_with_invalid_setup(setup: dict[str, Any], why: str) -> None:
    with pytest.raises(EngineError) as info:
        new_game(rng=random.Random(0), **setup)
    assert info.value.code == "invalid_setup", why


@pytest.mark.parametrize("players", [2, 3, 10])
@pytest.mark.parametrize("dealer", [0, 1])
def test_the_deal_gives_seven_cards_one_at_a_time_from_the_dealers_left(
    players: int, dealer: int
) -> None:
    state, events, order = dealt("standard", players, dealer, "wild")
    assert state.dealer == dealer and state.round == 1
    for seat in range(players):
        assert hand(state, seat) == dealt_hand(order, players, dealer, seat)
    assert state.discard_pile == [order[HAND * players]]
    assert state.draw_pile == order[HAND * players + 1 :]
    assert state.current == (dealer + 1) % players
    assert state.direction == 1 and state.phase == "play"
    assert [e for e in events if e["type"] == "round_started"] == [
        {
            "type": "round_started",
            "round": 1,
            "dealer": dealer,
            "hand_sizes": [HAND] * players,
            "card": order[HAND * players],
        }
    ]


def test_the_first_dealer_is_chosen_at_random_among_all_seats() -> None:
    _, events = new_game(players=5, rng=random.Random(11))
    (choice,) = [e for e in events if e["type"] == "chance" and e["kind"] == "choice"]
    assert choice["options"] == [0, 1, 2, 3, 4]
    dealers = {new_game(players=5, rng=random.Random(seed))[0].dealer for seed in range(60)}
    assert dealers == {0, 1, 2, 3, 4}


# ---------------------------------------------------------------------------------------------
# Opening card


def test_an_opening_wild_does_nothing() -> None:
    state, events, _ = dealt("standard", 4, DAVE, "wild")
    assert state.current == ALICE and state.phase == "play" and state.direction == 1
    assert "opening_effect" not in types(events)


@pytest.mark.parametrize(("kind", "amount"), [("draw2", 2), ("draw4", 4)])
def test_an_opening_draw_card_makes_the_first_player_draw_and_skips_them(
    kind: str, amount: int
) -> None:
    state, events, order = dealt("standard", 4, DAVE, kind)
    drawn = order[HAND * 4 + 1 : HAND * 4 + 1 + amount]
    assert Counter(hand(state, ALICE)) == Counter(dealt_hand(order, 4, DAVE, ALICE) + drawn)
    assert state.current == BOB and state.phase == "play"
    assert state.seats[ALICE].skips == 0


def test_an_opening_skip_skips_the_first_player() -> None:
    state, _, order = dealt("standard", 4, DAVE, "skip")
    assert state.current == BOB
    assert hand(state, ALICE) == dealt_hand(order, 4, DAVE, ALICE)


def test_an_opening_reverse_lets_the_dealer_play_first_counterclockwise() -> None:
    state, _, _ = dealt("standard", 4, CAROL, "reverse")
    assert state.current == CAROL and state.direction == -1
    state, _ = act(state, "play", CAROL, hand(state, CAROL)[0])
    assert state.current == BOB


def test_an_opening_reverse_with_two_players_skips_the_first_player() -> None:
    state, _, _ = dealt("standard", 2, ALICE, "reverse")
    assert state.current == ALICE  # the dealer: bob, the first player, is skipped


def test_an_opening_targeted_draw_two_lets_the_first_player_choose_who_draws() -> None:
    state, _, order = dealt("standard", 3, CAROL, "targeted_draw2")
    assert state.phase == "choose" and state.current == ALICE
    assert state.pending is not None and state.pending["seat"] == ALICE
    assert legal_actions(state, ALICE) == [
        Action("choose_target", ALICE, target=BOB),
        Action("choose_target", ALICE, target=CAROL),
    ]
    assert refusal(state, "choose_target", ALICE, target=ALICE) == "invalid_target"
    assert refusal(state, "choose_target", ALICE) == "target_required"
    assert refusal(state, "choose_target", BOB, target=CAROL) == "not_your_turn"
    assert refusal(state, "play", ALICE, hand(state, ALICE)[0]) == "choice_pending"
    assert refusal(state, "draw", ALICE) == "choice_pending"
    assert refusal(state, "play", BOB, hand(state, BOB)[0]) == "not_your_turn"
    state, _ = act(state, "choose_target", ALICE, target=CAROL)
    drawn = order[HAND * 3 + 1 : HAND * 3 + 3]
    assert Counter(hand(state, CAROL)) == Counter(dealt_hand(order, 3, CAROL, CAROL) + drawn)
    # The target loses no turn and the first player still takes theirs.
    assert state.phase == "play" and state.current == ALICE and state.pending is None
    assert refusal(state, "choose_target", ALICE, target=BOB) == "no_choice_pending"


def test_an_opening_force_swap_lets_the_first_player_swap_then_play() -> None:
    state, _, order = dealt("standard", 3, CAROL, "force_swap")
    assert state.phase == "choose" and state.current == ALICE
    assert refusal(state, "choose_target", ALICE) == "target_required"
    state, _ = act(state, "choose_target", ALICE, target=BOB)
    assert hand(state, ALICE) == dealt_hand(order, 3, CAROL, BOB)
    assert hand(state, BOB) == dealt_hand(order, 3, CAROL, ALICE)
    assert state.phase == "play" and state.current == ALICE


def test_an_opening_shuffle_hands_passes_every_hand_one_seat_clockwise() -> None:
    state, _, order = dealt("standard", 4, DAVE, "shuffle_hands")
    for seat in range(4):
        assert hand(state, seat) == dealt_hand(order, 4, DAVE, (seat - 1) % 4)
    assert state.current == ALICE and state.direction == 1 and state.phase == "play"


@pytest.mark.parametrize("kind", sorted(PRESETS["mattel_2021"].deck))
def test_mattel_2021_ignores_the_opening_cards_effect(kind: str) -> None:
    state, events, order = dealt("mattel_2021", 4, DAVE, kind)
    assert state.current == ALICE and state.direction == 1 and state.phase == "play"
    assert state.pending is None
    for seat in range(4):
        assert hand(state, seat) == dealt_hand(order, 4, DAVE, seat)
    assert "opening_effect" not in types(events)


def test_a_timeout_with_the_opening_choice_open_chooses_at_random_then_draws_and_passes() -> None:
    state, _, order = dealt("standard", 3, CAROL, "targeted_draw2")
    rng = ReplayRNG([{"type": "chance", "kind": "choice", "value": CAROL}])
    after, events = act(state, "timeout", ALICE, rng=rng)
    assert rng.remaining == 0
    chance = [e for e in events if e["type"] == "chance"]
    assert chance[0]["options"] == [BOB, CAROL]  # never the chooser themselves
    assert len(hand(after, CAROL)) == HAND + 2
    assert len(hand(after, ALICE)) == HAND + 1
    assert after.current == BOB and after.phase == "play" and after.pending is None
    assert types(events).index("target_chosen") < types(events).index("draw")
