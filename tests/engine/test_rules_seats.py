"""The rulings of RULES.md on timeouts, leaving and what each seat sees: one or more hand-written
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

from games.engine import EngineError
from games.engine.uno.actions import Action
from games.engine.uno.allwild.legal import legal_actions
from games.engine.uno.allwild.rules import new_game
from games.engine.uno.allwild.view import moderator_view, view
from games.engine.uno.state import State
from games.engine.uno.view import visible_events

from .allwild_positions import (
    ALICE,
    BOB,
    CAROL,
    DAVE,
    act,
    chooser_on_one_card,
    hand,
    position,
    refusal,
    round_over_position,
    three_players,
    types,
)

# ---------------------------------------------------------------------------------------------
# Timeouts


def test_a_timeout_draws_one_card_and_passes_the_turn() -> None:
    state = three_players(["wild-1", "wild-2"], draw=["skip-1"])
    after, events = act(state, "timeout", ALICE)
    assert Counter(hand(after, ALICE)) == Counter(["skip-1", "wild-1", "wild-2"])
    assert after.current == BOB and after.phase == "play"
    assert "timeout" in types(events)


def test_a_timeout_draws_even_where_mattel_2021_forbids_a_voluntary_draw() -> None:
    state = position("mattel_2021", [["skip-1", "wild-1"], ["wild-2", "wild-3"]])
    assert refusal(state, "draw", ALICE) == "draw_not_allowed"
    after, _ = act(state, "timeout", ALICE)
    assert len(hand(after, ALICE)) == 3 and after.current == BOB


def test_a_timeout_after_drawing_just_passes_the_turn() -> None:
    state = three_players(["wild-1", "wild-2"], draw=["skip-1", "skip-2"])
    state, _ = act(state, "draw", ALICE)
    after, _ = act(state, "timeout", ALICE)
    assert Counter(hand(after, ALICE)) == Counter(["skip-1", "wild-1", "wild-2"])
    assert after.current == BOB and after.drawn_card is None


def test_a_timeout_is_refused_for_a_seat_whose_turn_it_is_not() -> None:
    state = three_players(["wild-1", "wild-2"])
    assert refusal(state, "timeout", BOB) == "not_your_turn"


# ---------------------------------------------------------------------------------------------
# Leaving


def four_players(**kw: Any) -> State:
    hands = [
        ["wild-1", "wild-2", "reverse-1"],
        ["wild-3", "wild-4"],
        ["skip-1", "skip-2", "skip-3"],
        ["wild-5", "wild-6"],
    ]
    return position(hands=hands, **kw)


def test_a_leaving_players_hand_goes_under_the_draw_pile() -> None:
    state = four_players()
    after, events = act(state, "leave", CAROL)
    assert after.draw_pile[-3:] == ["skip-1", "skip-2", "skip-3"]
    assert after.draw_pile[:-3] == state.draw_pile
    assert hand(after, CAROL) == [] and not after.seats[CAROL].active
    assert after.current == ALICE
    # The cards are nobody's business: no seat learns them from the event.
    for seat in range(4):
        assert "cards" not in visible_events(events, seat)[0]


def test_a_seat_that_left_is_skipped_for_turns_and_targets_and_cannot_act() -> None:
    state = four_players()
    state, _ = act(state, "leave", BOB)
    after, _ = act(state, "play", ALICE, "wild-1")
    assert after.current == CAROL
    assert legal_actions(state, BOB) == []
    assert refusal(state, "uno", BOB) == "not_in_round"
    assert refusal(state, "leave", BOB) == "not_in_round"
    assert refusal(state, "catch", BOB, target=ALICE) == "not_in_round"
    state.seats[ALICE].hand.insert(0, "targeted_draw2-1")
    state.draw_pile.remove("targeted_draw2-1")
    assert refusal(state, "play", ALICE, "targeted_draw2-1", BOB) == "invalid_target"


def test_when_the_player_to_move_leaves_the_turn_passes_on() -> None:
    state = four_players()
    after, _ = act(state, "leave", ALICE)
    assert after.current == BOB and after.phase == "play"


def test_a_player_who_leaves_after_drawing_takes_the_drawn_card_under_the_pile() -> None:
    state = four_players(draw=["draw4-1"])
    state, _ = act(state, "draw", ALICE)
    after, _ = act(state, "leave", ALICE)
    assert after.current == BOB and after.phase == "play" and after.drawn_card is None
    assert "draw4-1" in after.draw_pile[-4:]


def test_a_chooser_who_leaves_drops_the_choice_and_the_turn_passes() -> None:
    state = chooser_on_one_card()
    after, _ = act(state, "leave", ALICE)
    assert after.pending is None and after.phase == "play" and after.current == BOB


def test_with_two_players_left_the_two_player_rules_apply() -> None:
    state = four_players()
    state, _ = act(state, "leave", BOB)
    state, _ = act(state, "leave", DAVE)
    after, _ = act(state, "play", ALICE, "reverse-1")
    assert after.current == ALICE, "a Reverse with two players acts as a Skip"


def test_shuffle_hands_skips_seats_that_left() -> None:
    hands = [["shuffle_hands-1", "wild-1"], ["wild-2"], ["wild-3"], ["wild-4"]]
    state = position(hands=hands)
    state, _ = act(state, "leave", CAROL)
    after, _ = act(state, "play", ALICE, "shuffle_hands-1")
    assert [hand(after, s) for s in range(4)] == [["wild-4"], ["wild-1"], [], ["wild-2"]]


def test_the_last_player_left_wins_the_match_and_the_round_scores_nothing() -> None:
    state = position(hands=[["wild-1", "wild-2"], ["draw4-1", "draw4-2"], ["skip-1"]])
    state.seats[BOB].score = 80
    state, _ = act(state, "leave", CAROL)
    after, events = act(state, "leave", ALICE)
    assert after.phase == "match_over" and after.winner == BOB
    assert [s.score for s in after.seats] == [0, 80, 0]
    assert after.round_results == []
    assert events[-1] == {"type": "match_over", "winner": BOB, "reason": "last_player_left"}
    assert refusal(after, "play", BOB, "draw4-1") == "game_over"


def test_leaving_between_rounds_ends_the_match_when_one_player_is_left() -> None:
    state = round_over_position(2, ALICE)
    after, _ = act(state, "leave", BOB)
    assert after.phase == "match_over" and after.winner == ALICE


# ---------------------------------------------------------------------------------------------
# Views


def test_a_seat_sees_its_own_hand_and_only_the_sizes_of_the_others() -> None:
    state = four_players()
    seen = view(state, BOB)
    assert [c["id"] for c in seen["hand"]] == hand(state, BOB)
    assert [s["hand_size"] for s in seen["seats"]] == [3, 2, 3, 2]
    text = repr(seen)
    for seat in (ALICE, CAROL, DAVE):
        assert not any(f"'{c}'" in text for c in hand(state, seat))
    assert not any(f"'{c}'" in text for c in state.draw_pile)
    assert seen["draw_size"] == len(state.draw_pile)
    assert seen["legal_actions"] == []  # not bob's turn, nothing to catch
    assert view(state, ALICE)["legal_actions"] == [a.to_dict() for a in legal_actions(state, 0)]


def test_only_the_drawer_sees_the_drawn_card() -> None:
    state = four_players(draw=["draw4-1"])
    after, events = act(state, "draw", ALICE)
    assert view(after, ALICE)["drawn_card"] == {"id": "draw4-1", "type": "draw4"}
    assert view(after, BOB)["drawn_card"] is None
    (mine,) = [e for e in visible_events(events, ALICE) if e["type"] == "draw"]
    (theirs,) = [e for e in visible_events(events, BOB) if e["type"] == "draw"]
    assert mine["cards"] == ["draw4-1"]
    assert "cards" not in theirs and theirs["count"] == 1
    assert "draw4-1" in str(moderator_view(after))


def test_no_seat_sees_chance_events() -> None:
    _, events = new_game(players=3, rng=random.Random(3))
    assert any(e["type"] == "chance" for e in events)
    for seat in range(3):
        assert all(e["type"] != "chance" for e in visible_events(events, seat))
    assert any(e["type"] == "chance" for e in visible_events(events, None))


def test_actions_round_trip_through_their_json_form() -> None:
    for action in (
        Action("play", ALICE, "wild-1", BOB, uno=True),
        Action("draw", BOB),
        Action("next_round"),
        Action("catch", CAROL, target=DAVE),
    ):
        assert Action.from_dict(action.to_dict()) == action
    for bad in ({"type": "fly"}, {"type": "play", "seat": True}, [], {"type": "uno", "x": 1}):
        with pytest.raises(EngineError) as info:
            Action.from_dict(bad)
        assert info.value.code == "invalid_action"


# ---------------------------------------------------------------------------------------------
# What leaves the engine shares nothing with the state


def round_just_won() -> State:
    state = position(hands=[["wild-1"], ["wild-2", "wild-3"]])
    after, _ = act(state, "play", ALICE, "wild-1")
    return after


def test_changing_a_view_leaves_the_state_untouched() -> None:
    state = round_just_won()
    before = state.to_dict()
    seen = view(state, BOB)
    seen["round_results"][0]["hands"]["1"].clear()
    seen["round_results"][0]["scores"][ALICE] = 0
    assert state.to_dict() == before


def test_changing_the_events_leaves_the_new_state_untouched() -> None:
    state = position(hands=[["wild-1"], ["wild-2", "wild-3"]])
    after, events = act(state, "play", ALICE, "wild-1")
    before = after.to_dict()
    (over,) = [e for e in visible_events(events, BOB) if e["type"] == "round_over"]
    over["hands"]["1"].clear()
    over["scores"][ALICE] = 0
    assert after.to_dict() == before


def test_the_view_of_a_seat_that_does_not_exist_shows_no_hand() -> None:
    state = position(hands=[["wild-1"], ["wild-2", "wild-3"]])
    for seat in (-1, 2):
        try:
            seen = view(state, seat)
        except (EngineError, IndexError):
            continue
        assert seen["hand"] == [], f"view({seat}) shows {seen['hand']}"
