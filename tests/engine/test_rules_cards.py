"""The rulings of RULES.md on the presets, the setup, the opening card and each card's effect: one
or more hand-written tests for each (positions: tests/engine/allwild_positions.py; seats alice
0, bob 1, carol 2, dave 3)."""

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
    position,
    refusal,
    types,
    wilds,
)
from .test_rules_rounds import RULEBOOK_POINTS

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
    assert preset.points == RULEBOOK_POINTS["standard"]
    assert preset.opening_effects and not preset.draw_restricted


def test_mattel_2021_deck_and_points_match_the_printed_sheet_table() -> None:
    preset = PRESETS["mattel_2021"]
    # The sheet's row, card type = how many.
    assert preset.deck == dict(
        wild=54, draw2=10, draw4=6, reverse=14, skip=14, skip_two=6, targeted_draw2=4, force_swap=4
    )
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


# ---------------------------------------------------------------------------------------------
# Effects


def test_wild_does_nothing_and_the_turn_passes() -> None:
    state = position(hands=[["wild-1", "wild-2"], ["wild-3", "wild-4"], ["wild-5", "wild-6"]])
    assert refusal(state, "play", ALICE, "wild-1", target=BOB) == "target_not_allowed"
    after, _ = act(state, "play", ALICE, "wild-1")
    assert after.current == BOB and after.direction == 1
    assert after.discard_pile[0] == "wild-1"
    assert [len(s.hand) for s in after.seats] == [1, 2, 2]


@pytest.mark.parametrize(("card", "amount"), [("draw2-1", 2), ("draw4-1", 4)])
def test_draw_cards_make_the_next_player_draw_and_lose_their_turn(card: str, amount: int) -> None:
    draw = ["skip-1", "skip-2", "skip-3", "skip-4"]
    state = position(
        hands=[[card, "wild-1"], ["wild-2", "wild-3"], ["wild-4", "wild-5"]], draw=draw
    )
    after, events = act(state, "play", ALICE, card)
    assert Counter(hand(after, BOB)) == Counter(["wild-2", "wild-3", *draw[:amount]])
    assert after.current == CAROL
    assert {"type": "skipped", "seat": BOB} in events


@pytest.mark.parametrize("card", ["draw2-1", "draw4-1"])
def test_draw_cards_with_two_players_let_the_player_play_again(card: str) -> None:
    state = position(hands=[[card, "wild-1"], ["wild-2", "wild-3"]])
    after, _ = act(state, "play", ALICE, card)
    assert after.current == ALICE
    assert len(hand(after, BOB)) == 2 + (2 if card.startswith("draw2") else 4)


def test_reverse_flips_the_direction_of_play() -> None:
    state = position(
        hands=[
            ["reverse-1", "wild-1"],
            ["wild-2", "wild-3"],
            ["wild-4", "wild-5"],
            ["wild-6", "wild-7"],
        ]
    )
    after, events = act(state, "play", ALICE, "reverse-1")
    assert after.direction == -1 and after.current == DAVE
    assert {"type": "direction", "direction": "counterclockwise"} in events
    after, _ = act(after, "play", DAVE, "wild-6")
    assert after.current == CAROL
    after, _ = act(after, "play", CAROL, "wild-4")
    assert after.current == BOB


def test_reverse_with_two_players_acts_as_a_skip() -> None:
    state = position(hands=[["reverse-1", "wild-1"], ["wild-2", "wild-3"]])
    after, _ = act(state, "play", ALICE, "reverse-1")
    assert after.current == ALICE


def test_the_two_player_reverse_loop_of_the_rulebook_gives_four_plays_in_a_row() -> None:
    alice = ["reverse-1", "reverse-2", "skip-1", "wild-1", "wild-2"]
    state = position(hands=[alice, ["wild-3", "wild-4"]])
    for card in alice[:3]:
        state, _ = act(state, "play", ALICE, card)
        assert state.current == ALICE
    state, _ = act(state, "play", ALICE, "wild-1")
    assert state.current == BOB


def test_skip_skips_the_next_player() -> None:
    state = position(hands=[["skip-1", "wild-1"], ["wild-2", "wild-3"], ["wild-4", "wild-5"]])
    after, _ = act(state, "play", ALICE, "skip-1")
    assert after.current == CAROL
    assert len(hand(after, BOB)) == 2


def test_skip_counts_seats_in_the_current_direction() -> None:
    hands = [["skip-1", "wild-1"], ["wild-2", "wild-3"], ["wild-4", "wild-5"], ["wild-6", "wild-7"]]
    state = position(hands=hands, direction=-1)
    after, _ = act(state, "play", ALICE, "skip-1")
    assert after.current == CAROL  # dave, counterclockwise from alice, is skipped


def test_skip_with_two_players_lets_the_player_play_again() -> None:
    state = position(hands=[["skip-1", "wild-1"], ["wild-2", "wild-3"]])
    after, _ = act(state, "play", ALICE, "skip-1")
    assert after.current == ALICE


def mattel_hands(players: int) -> list[list[str]]:
    hands = [["skip_two-1", "wild-1", "wild-2", "wild-3", "wild-4"]]
    for seat in range(1, players):
        hands.append([f"wild-{10 + 2 * seat}", f"wild-{11 + 2 * seat}"])
    return hands


def test_skip_two_skips_the_next_two_players() -> None:
    state = position("mattel_2021", mattel_hands(players=5))
    after, events = act(state, "play", ALICE, "skip_two-1")
    assert after.current == DAVE
    assert [e["seat"] for e in events if e["type"] == "skipped"] == [BOB, CAROL]


def test_skip_two_counterclockwise_skips_the_two_players_on_that_side() -> None:
    state = position("mattel_2021", mattel_hands(players=5), direction=-1)
    after, _ = act(state, "play", ALICE, "skip_two-1")
    assert after.current == CAROL  # seats 4 and 3 are skipped


@pytest.mark.parametrize(
    ("players", "plays"),
    [
        # Three players: the two skipped are everyone else, so alice plays again.
        pytest.param(3, [("skip_two-1", ALICE), ("wild-1", BOB)], id="three-another-turn"),
        # Two players: bob is skipped twice, so alice plays three times in a row.
        pytest.param(
            2,
            [("skip_two-1", ALICE), ("wild-1", ALICE), ("wild-2", BOB)],
            id="two-three-plays-in-a-row",
        ),
    ],
)
def test_skip_two_with_fewer_than_four_players_comes_back_to_the_player(
    players: int, plays: list[tuple[str, int]]
) -> None:
    state = position("mattel_2021", mattel_hands(players=players))
    for card, then in plays:
        state, _ = act(state, "play", ALICE, card)
        assert state.current == then


def test_lost_turns_add_up_when_a_skip_follows_skip_two_with_two_players() -> None:
    alice = ["skip_two-1", "skip-1", "wild-1", "wild-2", "wild-3"]
    state = position("mattel_2021", [alice, ["wild-4", "wild-5"]])
    plays = 0
    for card in alice:
        state, _ = act(state, "play", ALICE, card)
        plays += 1
        if state.current != ALICE:
            break
    # Skip Two costs bob two turns, the Skip one more: alice plays four cards in a row.
    assert plays == 4 and state.current == BOB
    assert state.seats[BOB].skips == 0


def test_lost_turns_add_up_when_a_reverse_follows_skip_two_with_two_players() -> None:
    alice = ["skip_two-1", "reverse-1", "wild-1", "wild-2", "wild-3"]
    state = position("mattel_2021", [alice, ["wild-4", "wild-5"]])
    for card in alice[:3]:
        state, _ = act(state, "play", ALICE, card)
        assert state.current == ALICE
    state, _ = act(state, "play", ALICE, "wild-2")
    assert state.current == BOB


@pytest.mark.parametrize("target", [BOB, CAROL, DAVE])
def test_targeted_draw_two_makes_the_chosen_player_draw_without_losing_a_turn(target: int) -> None:
    hands = [
        ["targeted_draw2-1", "wild-1"],
        ["wild-2", "wild-3"],
        ["wild-4", "wild-5"],
        ["wild-6", "wild-7"],
    ]
    state = position(hands=hands, draw=["skip-1", "skip-2"])
    after, events = act(state, "play", ALICE, "targeted_draw2-1", target)
    assert Counter(hand(after, target)) == Counter([*hands[target], "skip-1", "skip-2"])
    assert after.current == BOB, "play passes to the next player as usual, the target included"
    assert "skipped" not in types(events) and "loses_turn" not in types(events)


def test_targeted_draw_two_with_two_players_does_not_skip_the_opponent() -> None:
    state = position(hands=[["targeted_draw2-1", "wild-1"], ["wild-2", "wild-3"]])
    assert legal_actions(state, ALICE)[:1] == [Action("play", ALICE, "targeted_draw2-1", BOB)]
    after, _ = act(state, "play", ALICE, "targeted_draw2-1", BOB)
    assert len(hand(after, BOB)) == 4
    assert after.current == BOB


@pytest.mark.parametrize(
    ("target", "code"),
    [
        (None, "target_required"),
        (ALICE, "invalid_target"),
        (-1, "invalid_target"),
        (3, "invalid_target"),
    ],
)
def test_targeted_draw_two_needs_another_player_as_target(target: int | None, code: str) -> None:
    state = position(hands=[["targeted_draw2-1", "wild-1"], ["wild-2"], ["wild-3"]])
    assert refusal(state, "play", ALICE, "targeted_draw2-1", target) == code


def test_targeted_draw_two_hits_a_player_who_said_uno() -> None:
    # Scenario 3 of the rulebook: saying UNO never protects from action cards.
    state = position(
        hands=[["targeted_draw2-1", "wild-1", "wild-2"], ["wild-3", "wild-4"], ["wild-5"]]
    )
    state.seats[CAROL].uno = True
    after, _ = act(state, "play", ALICE, "targeted_draw2-1", CAROL)
    assert len(hand(after, CAROL)) == 3
    assert not after.seats[CAROL].uno


def test_force_swap_swaps_entire_hands_with_the_chosen_player() -> None:
    alice = ["force_swap-1", "wild-1", "wild-2"]
    carol = ["skip-1"]
    state = position(hands=[alice, ["wild-3", "wild-4"], carol])
    after, events = act(state, "play", ALICE, "force_swap-1", CAROL)
    assert hand(after, ALICE) == carol
    assert hand(after, CAROL) == ["wild-1", "wild-2"]  # the played card left the hand first
    assert after.current == BOB
    assert {"type": "swap", "seat": ALICE, "target": CAROL} in events


@pytest.mark.parametrize(
    ("target", "code"),
    [(None, "target_required"), (ALICE, "invalid_target"), (5, "invalid_target")],
)
def test_force_swap_is_mandatory_and_needs_another_player(target: int | None, code: str) -> None:
    state = position(hands=[["force_swap-1", "wild-1"], ["wild-2"], ["wild-3"]])
    assert refusal(state, "play", ALICE, "force_swap-1", target) == code


def test_shuffle_hands_passes_every_hand_to_the_next_player_clockwise() -> None:
    # Scenario 2 of the rulebook: bob plays Shuffle Hands from ten cards.
    alice = ["wild-1", "wild-2"]
    bob = ["shuffle_hands-1", *wilds(3, 9)]
    carol = ["skip-1", "skip-2", "skip-3", "skip-4"]
    dave = [f"reverse-{i}" for i in range(1, 8)]
    state = position(hands=[alice, bob, carol, dave], current=BOB)
    assert refusal(state, "play", BOB, "shuffle_hands-1", CAROL) == "target_not_allowed"
    after, events = act(state, "play", BOB, "shuffle_hands-1", uno=True)
    assert hand(after, ALICE) == dave
    assert hand(after, BOB) == alice
    assert hand(after, CAROL) == bob[1:]
    assert hand(after, DAVE) == carol
    assert after.current == CAROL
    assert {"type": "hands_passed", "direction": "clockwise"} in events


def test_shuffle_hands_counterclockwise_passes_hands_the_other_way() -> None:
    alice, bob = ["wild-1", "wild-2"], ["shuffle_hands-1", "wild-3", "wild-4", "wild-5"]
    carol, dave = ["skip-1"], ["reverse-1", "reverse-2", "reverse-3"]
    state = position(hands=[alice, bob, carol, dave], current=BOB, direction=-1)
    after, _ = act(state, "play", BOB, "shuffle_hands-1")
    assert hand(after, ALICE) == bob[1:]
    assert hand(after, DAVE) == alice
    assert hand(after, CAROL) == dave
    assert hand(after, BOB) == carol
    assert after.current == ALICE


def test_shuffle_hands_with_one_card_each_passes_that_one_card() -> None:
    state = position(hands=[["shuffle_hands-1", "wild-1"], ["wild-2"], ["wild-3"]])
    for seat in (BOB, CAROL):
        state.seats[seat].uno = True
    after, _ = act(state, "play", ALICE, "shuffle_hands-1")
    assert [hand(after, s) for s in (ALICE, BOB, CAROL)] == [["wild-3"], ["wild-1"], ["wild-2"]]
    # Every hand changed: everyone holds one card again and must say UNO again.
    assert not any(s.uno for s in after.seats)
    assert all(s.exposed for s in after.seats)
    assert Action("catch", BOB, target=CAROL) in legal_actions(after, BOB)


def test_shuffle_hands_with_two_players_swaps_the_hands() -> None:
    state = position(hands=[["shuffle_hands-1", "wild-1"], ["wild-2", "wild-3", "wild-4"]])
    after, _ = act(state, "play", ALICE, "shuffle_hands-1")
    assert hand(after, ALICE) == ["wild-2", "wild-3", "wild-4"]
    assert hand(after, BOB) == ["wild-1"]
    assert after.current == BOB
