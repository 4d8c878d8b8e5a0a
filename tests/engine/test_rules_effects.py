"""The rulings of RULES.md on each card's effect: one or more hand-written tests for each.

Positions are built directly with ``position(...)`` (tests/engine/allwild_positions.py): the
cards named in hands, draw and discard piles are placed as given and the rest of the 112 go to the
bottom of the draw pile (or wherever ``rest`` says), so cards are conserved in every position.
Seats: alice 0, bob 1, carol 2, dave 3.
"""

from __future__ import annotations

from collections import Counter

import pytest

from games.engine.uno.actions import Action
from games.engine.uno.allwild.legal import legal_actions

from .allwild_positions import (
    ALICE,
    BOB,
    CAROL,
    DAVE,
    act,
    hand,
    position,
    refusal,
    types,
    wilds,
)

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


def test_skip_two_with_three_players_gives_the_player_another_turn() -> None:
    state = position("mattel_2021", mattel_hands(players=3))
    after, _ = act(state, "play", ALICE, "skip_two-1")
    assert after.current == ALICE
    after, _ = act(after, "play", ALICE, "wild-1")
    assert after.current == BOB


def test_skip_two_with_two_players_gives_three_plays_in_a_row() -> None:
    state = position("mattel_2021", mattel_hands(players=2))
    state, _ = act(state, "play", ALICE, "skip_two-1")
    assert state.current == ALICE
    state, _ = act(state, "play", ALICE, "wild-1")
    assert state.current == ALICE
    state, _ = act(state, "play", ALICE, "wild-2")
    assert state.current == BOB


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
