"""The rulings of RULES.md on going out, scoring and the match, drawing and the draw pile: one or
more hand-written tests for each (positions: tests/engine/allwild_positions.py; seats alice 0,
bob 1, carol 2, dave 3)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games.engine.uno.actions import Action
from games.engine.uno.allwild.cards import PRESETS, card_type
from games.engine.uno.allwild.legal import legal_actions
from games.engine.uno.allwild.rules import apply

from .allwild_positions import (
    ALICE,
    BOB,
    CAROL,
    DAVE,
    HAND,
    NoChance,
    act,
    dealt_hand,
    deck_order,
    hand,
    position,
    refusal,
    round_over_position,
    scripted,
    types,
)

# ---------------------------------------------------------------------------------------------
# Going out


# Each card type's points as the rulebook (standard) and the printed sheet (mattel_2021) list
# them: written out here, not read from the presets, so that the tests compare against them.
RULEBOOK_POINTS = {
    "standard": {
        "wild": 40,
        "draw2": 50,
        "draw4": 60,
        "reverse": 20,
        "skip": 30,
        "targeted_draw2": 50,
        "force_swap": 40,
        "shuffle_hands": 40,
    },
    "mattel_2021": {"wild": 20, "other": 50},
}


def rules_points(preset: str, cards: list[str]) -> int:
    table = RULEBOOK_POINTS[preset]
    return sum(table.get(card_type(c), table.get("other", 0)) for c in cards)


def test_going_out_on_draw_four_counts_the_drawn_cards_in_the_score() -> None:
    # Scenario 4 of the rulebook: 5 cards in bob's hand + 4 drawn = 9 cards scored.
    bob = ["wild-1", "skip-1", "reverse-1", "draw2-1", "force_swap-1"]
    draw = ["draw4-2", "targeted_draw2-1", "shuffle_hands-1", "wild-2"]
    state = position(hands=[["draw4-1"], bob], draw=draw)
    state.seats[ALICE].uno = True
    after, events = act(state, "play", ALICE, "draw4-1")
    assert after.phase == "round_over"
    assert len(hand(after, BOB)) == 9
    assert after.seats[ALICE].score == rules_points("standard", bob + draw) == 370
    result = after.round_results[-1]
    assert result["winner"] == ALICE and result["points"] == 370
    assert result["hands"] == {"0": [], "1": hand(after, BOB)}
    assert types(events)[-1] == "round_over"


def test_going_out_on_draw_two_counts_the_drawn_cards_in_the_score() -> None:
    state = position(
        hands=[["draw2-1"], ["wild-1"], ["wild-2"]], draw=["skip-1", "skip-2"], target_score=0
    )
    after, _ = act(state, "play", ALICE, "draw2-1")
    assert after.phase == "match_over" and after.winner == ALICE
    assert after.seats[ALICE].score == 40 + 30 + 30 + 40


def test_going_out_on_targeted_draw_two_counts_the_drawn_cards_in_the_score() -> None:
    state = position(
        hands=[["targeted_draw2-1"], ["wild-1"], ["wild-2"]], draw=["skip-1", "skip-2"]
    )
    after, _ = act(state, "play", ALICE, "targeted_draw2-1", CAROL)
    assert after.phase == "round_over"
    assert len(hand(after, CAROL)) == 3
    assert after.seats[ALICE].score == 40 + 40 + 30 + 30


@pytest.mark.parametrize("card", ["force_swap-1", "shuffle_hands-1"])
def test_force_swap_or_shuffle_hands_as_the_last_card_fizzles(card: str) -> None:
    bob = ["wild-1", "wild-2"]
    state = position(hands=[[card], bob, ["skip-1"]])
    assert [a for a in legal_actions(state, ALICE) if a.type == "play"] == [
        Action("play", ALICE, card)
    ]
    assert refusal(state, "play", ALICE, card, BOB) == "target_not_allowed"
    after, events = act(state, "play", ALICE, card)
    assert after.phase == "round_over" and after.round_results[-1]["winner"] == ALICE
    assert hand(after, ALICE) == [] and hand(after, BOB) == bob
    assert {"type": "fizzled", "seat": ALICE, "card_type": card_type(card)} in events
    assert "swap" not in types(events) and "hands_passed" not in types(events)


@pytest.mark.parametrize("card", ["skip-1", "reverse-1", "wild-1"])
def test_playing_the_last_card_wins_the_round_at_once(card: str) -> None:
    state = position(hands=[[card], ["wild-2", "wild-3"]])
    after, _ = act(state, "play", ALICE, card)
    assert after.phase == "round_over"
    assert after.round_results[-1]["winner"] == ALICE
    assert legal_actions(after, ALICE) == legal_actions(after, BOB) == []


def test_skip_two_as_the_last_card_wins_the_round() -> None:
    state = position("mattel_2021", [["skip_two-1"], ["wild-2", "draw2-1"]])
    after, _ = act(state, "play", ALICE, "skip_two-1")
    assert after.phase == "round_over"
    assert after.seats[ALICE].score == 20 + 50


# ---------------------------------------------------------------------------------------------
# Scoring and the match


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_winner_scores_every_card_left_in_the_other_hands(preset: str) -> None:
    kinds = sorted(PRESETS[preset].deck)
    bob = [f"{k}-1" for k in kinds]
    carol = [f"{k}-2" for k in kinds]
    state = position(preset, [["wild-9"], bob, carol])
    after, _ = act(state, "play", ALICE, "wild-9")
    expected = rules_points(preset, bob + carol)
    assert after.seats[ALICE].score == expected
    assert [s.score for s in after.seats] == [expected, 0, 0]
    assert after.round_results[-1]["scores"] == [expected, 0, 0]


def test_the_round_result_tells_what_each_losing_hand_counted() -> None:
    bob = ["wild-1", "draw2-1"]
    carol = ["wild-3"]
    state = position("standard", [["wild-9"], bob, carol])
    after, events = act(state, "play", ALICE, "wild-9")
    result = after.round_results[-1]
    each = {"1": rules_points("standard", bob), "2": rules_points("standard", carol)}
    assert result["hand_points"] == each
    assert result["points"] == sum(each.values())
    assert next(e for e in events if e["type"] == "round_over")["hand_points"] == each


def test_a_match_ends_when_the_rounds_winner_reaches_the_target() -> None:
    state = position(hands=[["wild-1"], ["draw4-1"], ["reverse-1"]], target_score=500)
    state.seats[ALICE].score = 430
    state.seats[BOB].score = 490
    after, events = act(state, "play", ALICE, "wild-1")
    assert after.phase == "match_over" and after.winner == ALICE
    assert after.seats[ALICE].score == 510
    assert events[-1] == {"type": "match_over", "winner": ALICE, "reason": "target_reached"}


def test_a_match_goes_on_while_nobody_reaches_the_target() -> None:
    state = position(hands=[["wild-1"], ["draw4-1"], ["reverse-1"]], target_score=500, round=3)
    state.seats[ALICE].score = 410
    after, _ = act(state, "play", ALICE, "wild-1")
    assert after.phase == "round_over" and after.winner is None
    assert after.seats[ALICE].score == 490
    assert refusal(after, "uno", BOB) == "round_over"


def test_target_zero_plays_a_single_round() -> None:
    state = position(hands=[["wild-1"], ["reverse-1"]], target_score=0)
    after, _ = act(state, "play", ALICE, "wild-1")
    assert after.phase == "match_over" and after.winner == ALICE
    assert after.seats[ALICE].score == 20
    assert refusal(after, "next_round") == "game_over"


@pytest.mark.parametrize(("dealer", "next_dealer"), [(0, 1), (2, 3), (3, 0)])
def test_the_deal_passes_one_seat_clockwise_each_round(dealer: int, next_dealer: int) -> None:
    state = round_over_position(4, dealer)
    state.seats[CAROL].score = 120
    order = deck_order("standard", 4, "wild")
    after, _ = act(state, "next_round", rng=scripted(None, order))
    assert after.round == 2 and after.dealer == next_dealer
    assert after.current == (next_dealer + 1) % 4
    assert after.direction == 1, "every round starts clockwise"
    assert after.phase == "play"
    for seat in range(4):
        assert hand(after, seat) == dealt_hand(order, 4, next_dealer, seat)
    assert after.seats[CAROL].score == 120, "scores carry over to the next round"


def test_the_deal_skips_a_seat_that_left() -> None:
    state = round_over_position(4, ALICE)
    state.seats[BOB].active = False
    order = deck_order("standard", 3, "wild")
    after, _ = act(state, "next_round", rng=scripted(None, order))
    assert after.dealer == CAROL and after.current == DAVE
    assert hand(after, BOB) == []
    assert [len(hand(after, s)) for s in (ALICE, CAROL, DAVE)] == [HAND] * 3


def test_next_round_resets_uno_catch_and_lost_turns() -> None:
    state = round_over_position(2, ALICE)
    state.seats[ALICE].uno = True
    state.seats[BOB].skips = 1
    after, _ = act(state, "next_round", rng=scripted(None, deck_order("standard", 2, "wild")))
    assert all(not s.uno and not s.exposed and s.skips == 0 for s in after.seats)


def test_next_round_is_refused_while_the_round_is_being_played() -> None:
    state = position(hands=[["wild-1", "wild-2"], ["wild-3"]])
    assert refusal(state, "next_round") == "round_in_progress"


@pytest.mark.parametrize(
    "action",
    [
        Action("play", ALICE, "wild-1"),
        Action("draw", BOB),
        Action("play_drawn", ALICE),
        Action("pass", ALICE),
        Action("uno", BOB),
        Action("catch", ALICE, target=BOB),
        Action("choose_target", ALICE, target=BOB),
        Action("timeout", ALICE),
        Action("leave", BOB),
        Action("next_round"),
    ],
)
def test_every_action_after_the_match_is_over_is_refused_with_game_over(action: Action) -> None:
    state = position(hands=[["wild-1"], ["wild-2"]], target_score=0)
    state, _ = act(state, "play", ALICE, "wild-1")
    assert state.phase == "match_over"
    assert refusal(state, action.type, action.seat, action.card, action.target) == "game_over"


def test_no_turn_or_catch_is_possible_once_the_round_has_ended() -> None:
    state = position(hands=[["wild-1"], ["wild-2"], ["wild-3", "wild-4"]])
    state.seats[BOB].exposed = True
    after, _ = act(state, "play", ALICE, "wild-1")
    assert after.phase == "round_over"
    assert refusal(after, "catch", CAROL, target=BOB) == "round_over"
    assert refusal(after, "uno", BOB) == "round_over"
    assert refusal(after, "draw", BOB) == "round_over"
    assert refusal(after, "timeout", BOB) == "round_over"


# ---------------------------------------------------------------------------------------------
# Drawing


def test_after_drawing_the_player_may_play_the_drawn_card() -> None:
    state = position(hands=[["wild-1", "wild-2"], ["wild-3"]], draw=["skip-1"])
    state, _ = act(state, "draw", ALICE)
    assert state.phase == "drawn" and state.drawn_card == "skip-1"
    assert "skip-1" in hand(state, ALICE)
    assert legal_actions(state, ALICE) == [
        Action("play_drawn", ALICE),
        Action("pass", ALICE),
    ]
    assert state.current == ALICE
    after, _ = act(state, "play_drawn", ALICE)
    assert after.discard_pile[0] == "skip-1"
    assert after.current == ALICE  # a Skip with two players: alice again
    assert hand(after, ALICE) == ["wild-1", "wild-2"]


def test_the_drawn_card_may_also_be_named_when_played() -> None:
    state = position(hands=[["wild-1", "wild-2"], ["wild-3"]], draw=["skip-1"])
    state, _ = act(state, "draw", ALICE)
    after, _ = apply(state, Action("play_drawn", ALICE, "skip-1"), NoChance())
    assert after.discard_pile[0] == "skip-1"
    assert refusal(state, "play_drawn", ALICE, "wild-1") == "must_play_drawn_card_or_pass"


def test_a_drawn_card_that_needs_a_target_takes_one() -> None:
    state = position(hands=[["wild-1"], ["wild-2"], ["wild-3"]], draw=["targeted_draw2-1"])
    state, _ = act(state, "draw", ALICE)
    assert refusal(state, "play_drawn", ALICE) == "target_required"
    after, _ = act(state, "play_drawn", ALICE, target=CAROL)
    assert len(hand(after, CAROL)) == 3 and after.current == BOB


def test_after_drawing_the_player_may_pass() -> None:
    state = position(hands=[["wild-1", "wild-2"], ["wild-3"], ["wild-4"]], draw=["skip-1"])
    state, _ = act(state, "draw", ALICE)
    after, events = act(state, "pass", ALICE)
    assert after.current == BOB and after.phase == "play" and after.drawn_card is None
    assert Counter(hand(after, ALICE)) == Counter(["skip-1", "wild-1", "wild-2"])


def test_playing_another_card_after_drawing_is_refused() -> None:
    state = position(hands=[["wild-1", "wild-2"], ["wild-3"]], draw=["skip-1"])
    state, _ = act(state, "draw", ALICE)
    assert refusal(state, "play", ALICE, "wild-1") == "must_play_drawn_card_or_pass"
    assert refusal(state, "play", ALICE, "skip-1") == "must_play_drawn_card_or_pass"
    assert refusal(state, "draw", ALICE) == "must_play_drawn_card_or_pass"


def test_pass_or_play_drawn_without_drawing_is_refused() -> None:
    state = position(hands=[["wild-1", "wild-2"], ["wild-3"]])
    assert refusal(state, "pass", ALICE) == "pass_not_allowed"
    assert refusal(state, "play_drawn", ALICE) == "nothing_drawn"


def test_playing_out_of_turn_or_a_card_not_held_is_refused() -> None:
    state = position(hands=[["wild-1", "wild-2"], ["wild-3", "wild-4"]])
    assert refusal(state, "play", BOB, "wild-3") == "not_your_turn"
    assert refusal(state, "draw", BOB) == "not_your_turn"
    assert refusal(state, "play", ALICE, "wild-3") == "card_not_in_hand"
    assert refusal(state, "play", ALICE, None) == "card_not_in_hand"
    assert refusal(state, "play", None, "wild-1") == "invalid_action"
    assert refusal(state, "play", 7, "wild-1") == "invalid_action"


def test_the_standard_preset_always_allows_a_voluntary_draw() -> None:
    state = position(hands=[["skip-1", "wild-1"], ["wild-2", "wild-3"]])
    assert Action("draw", ALICE) in legal_actions(state, ALICE)


@pytest.mark.parametrize(
    ("alice", "bob", "carol", "direction", "allowed"),
    [
        (["wild-1", "wild-2"], ["wild-3"], ["wild-4", "wild-5"], 1, True),
        (["wild-1"], ["wild-3"], ["wild-4", "wild-5"], 1, True),
        (["wild-1", "wild-2"], ["wild-3", "wild-6"], ["wild-4"], 1, False),
        (["wild-1", "skip-1"], ["wild-3"], ["wild-4", "wild-5"], 1, False),
        (["force_swap-1"], ["wild-3"], ["wild-4", "wild-5"], 1, False),
        (["wild-1", "wild-2"], ["wild-3"], ["wild-4", "wild-5"], -1, False),
        (["wild-1", "wild-2"], ["wild-3", "wild-6"], ["wild-4"], -1, True),
    ],
)
def test_mattel_2021_allows_a_draw_only_when_nothing_could_stop_a_next_player_on_one_card(
    alice: list[str], bob: list[str], carol: list[str], direction: int, allowed: bool
) -> None:
    state = position("mattel_2021", [alice, bob, carol], direction=direction)
    if allowed:
        after, _ = act(state, "draw", ALICE)
        assert after.phase == "drawn"
    else:
        assert refusal(state, "draw", ALICE) == "draw_not_allowed"


# ---------------------------------------------------------------------------------------------
# The draw pile


def test_an_empty_draw_pile_is_refilled_from_the_discards_except_the_top_card() -> None:
    old_discards = ["wild-28", "skip-1", "skip-2", "skip-3"]
    state = position(
        hands=[["draw2-1", "wild-1"], ["wild-2", "wild-3"], ["wild-4", "wild-5"]],
        draw=["reverse-1"],
        discard=old_discards,
        rest=CAROL,
    )
    after, events = act(state, "play", ALICE, "draw2-1", rng=random.Random(5))
    assert after.discard_pile == ["draw2-1"]
    bob_drew = set(hand(after, BOB)) - {"wild-2", "wild-3"}
    assert len(bob_drew) == 2 and "reverse-1" in bob_drew
    assert (bob_drew - {"reverse-1"}) < set(old_discards)
    assert Counter(after.draw_pile) + Counter(bob_drew - {"reverse-1"}) == Counter(old_discards)
    assert {"type": "reshuffled", "count": 4} in events
    assert after.current == CAROL


def test_when_even_the_discards_run_out_the_player_draws_what_exists() -> None:
    state = position(
        hands=[["draw4-1", "wild-1"], ["wild-2", "wild-3"], ["wild-4"]],
        draw=["reverse-1"],
        rest=CAROL,
    )
    top = state.discard_pile[0]
    after, events = act(state, "play", ALICE, "draw4-1", rng=random.Random(0))
    assert Counter(hand(after, BOB)) == Counter(["wild-2", "wild-3", "reverse-1", top])
    assert after.draw_pile == [] and after.discard_pile == ["draw4-1"]
    (drew,) = [e for e in events if e["type"] == "draw"]
    assert drew["count"] == 2 and drew["wanted"] == 4
    assert after.current == CAROL, "bob still loses his turn"


def test_a_voluntary_draw_is_refused_when_there_is_nothing_to_draw() -> None:
    for preset in sorted(PRESETS):
        state = position(preset, [["wild-1", "wild-2"], ["wild-3"]], rest=BOB)
        assert state.draw_pile == [] and len(state.discard_pile) == 1
        assert refusal(state, "draw", ALICE) == "nothing_to_draw"
        assert [a.type for a in legal_actions(state, ALICE)] == ["play", "play"]


def test_a_voluntary_draw_reshuffles_the_discards_when_only_the_draw_pile_is_empty() -> None:
    state = position(hands=[["wild-1", "wild-2"], ["wild-3"]], discard=["wild-4", "skip-1"], rest=1)
    after, events = act(state, "draw", ALICE, rng=random.Random(1))
    assert after.drawn_card == "skip-1" and after.discard_pile == ["wild-4"]
    assert "reshuffled" in types(events)


def test_a_catch_with_nothing_left_to_draw_still_settles_the_stint() -> None:
    state = position(hands=[["wild-1"], ["wild-2", "wild-3"], ["wild-4"]], current=BOB, rest=CAROL)
    state.seats[ALICE].exposed = True
    after, _ = act(state, "catch", BOB, target=ALICE)
    assert hand(after, ALICE) == ["wild-1"]
    assert refusal(after, "catch", CAROL, target=ALICE) == "nothing_to_catch"
    # Still on one card: the word may still be said, it just no longer matters.
    after, _ = act(after, "uno", ALICE)
    assert after.seats[ALICE].uno
