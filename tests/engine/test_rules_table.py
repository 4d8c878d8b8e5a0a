"""The rulings of RULES.md on saying UNO and catching, timeouts, leaving and what each seat sees:
one or more hand-written tests for each (positions: tests/engine/allwild_positions.py; seats
alice 0, bob 1, carol 2, dave 3)."""

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
    wilds,
)

# ---------------------------------------------------------------------------------------------
# Saying UNO and catching


def test_saying_uno_with_the_play_protects_from_a_catch() -> None:
    state = three_players(["wild-1", "wild-2"])
    after, events = act(state, "play", ALICE, "wild-1", uno=True)
    assert after.seats[ALICE].uno and not after.seats[ALICE].exposed
    assert {"type": "uno", "seat": ALICE} in events
    assert refusal(after, "catch", BOB, target=ALICE) == "nothing_to_catch"
    assert refusal(after, "uno", ALICE) == "uno_not_allowed"


def test_uno_said_with_a_play_that_leaves_more_cards_does_nothing() -> None:
    state = three_players(["wild-1", "wild-2", "wild-3"])
    after, events = act(state, "play", ALICE, "wild-1", uno=True)
    assert not after.seats[ALICE].uno
    assert "uno" not in types(events)


def test_a_player_who_forgets_uno_is_caught_and_draws_two() -> None:
    state = three_players(["wild-1", "wild-2"], draw=["skip-1", "skip-2"])
    after, _ = act(state, "play", ALICE, "wild-1")
    assert after.seats[ALICE].exposed
    assert Action("catch", BOB, target=ALICE) in legal_actions(after, BOB)
    assert Action("catch", CAROL, target=ALICE) in legal_actions(after, CAROL)
    assert refusal(after, "catch", ALICE, target=ALICE) == "invalid_target"
    after, events = act(after, "catch", CAROL, target=ALICE)
    assert Counter(hand(after, ALICE)) == Counter(["wild-2", "skip-1", "skip-2"])
    assert {"type": "caught", "seat": CAROL, "target": ALICE} in events
    assert after.current == BOB, "a catch is no turn action"
    assert refusal(after, "catch", BOB, target=ALICE) == "nothing_to_catch"


def test_uno_may_be_said_late_until_someone_catches_first() -> None:
    state = three_players(["wild-1", "wild-2"])
    state, _ = act(state, "play", ALICE, "wild-1")
    after, _ = act(state, "uno", ALICE)
    assert after.seats[ALICE].uno
    assert refusal(after, "catch", BOB, target=ALICE) == "nothing_to_catch"
    caught, _ = act(state, "catch", BOB, target=ALICE)
    assert refusal(caught, "uno", ALICE) == "uno_not_allowed"


@pytest.mark.parametrize(
    ("target", "code"),
    [
        (None, "target_required"),
        (BOB, "invalid_target"),
        (-1, "invalid_target"),
        (3, "invalid_target"),
        (CAROL, "nothing_to_catch"),
        (ALICE, "nothing_to_catch"),
    ],
)
def test_a_wrong_catch_is_refused_without_penalty(target: int | None, code: str) -> None:
    # Alice said UNO; carol holds two cards.
    state = three_players(["wild-1"], current=BOB)
    state.seats[ALICE].uno = True
    assert refusal(state, "catch", BOB, target=target) == code


def test_uno_is_refused_without_exactly_one_card() -> None:
    state = three_players(["wild-1", "wild-2"])
    assert refusal(state, "uno", ALICE) == "uno_not_allowed"
    assert refusal(state, "uno", BOB) == "uno_not_allowed"


def test_uno_said_with_a_force_swap_counts_when_one_card_comes_back() -> None:
    # Scenario 1 of the rulebook: alice swaps her 7 remaining cards for bob's single card.
    alice = ["force_swap-1", *wilds(1, 7)]
    hands = [alice, ["skip-1"], wilds(8, 6), wilds(14, 5)]
    state = position(hands=hands)
    state.seats[BOB].uno = True
    after, _ = act(state, "play", ALICE, "force_swap-1", BOB, uno=True)
    assert hand(after, ALICE) == ["skip-1"] and after.seats[ALICE].uno
    assert hand(after, BOB) == wilds(1, 7) and not after.seats[BOB].uno
    assert refusal(after, "catch", CAROL, target=ALICE) == "nothing_to_catch"


def test_a_one_for_one_swap_cancels_an_earlier_uno() -> None:
    state = position(hands=[["force_swap-1", "wild-1"], ["wild-10"], ["wild-11", "wild-12"]])
    state.seats[BOB].uno = True
    after, _ = act(state, "play", ALICE, "force_swap-1", BOB)
    assert hand(after, ALICE) == ["wild-10"] and hand(after, BOB) == ["wild-1"]
    assert not after.seats[BOB].uno, "bob holds one card again after a change: say it again"
    assert Action("catch", CAROL, target=BOB) in legal_actions(after, CAROL)
    assert Action("catch", CAROL, target=ALICE) in legal_actions(after, CAROL)
    after, _ = act(after, "uno", BOB)
    assert after.seats[BOB].uno


def test_uno_said_with_shuffle_hands_counts_when_one_card_comes_back() -> None:
    hands = [["shuffle_hands-1", "wild-1", "wild-2"], ["wild-3", "wild-4"], ["wild-5"]]
    state = position(hands=hands)
    after, _ = act(state, "play", ALICE, "shuffle_hands-1", uno=True)
    assert hand(after, ALICE) == ["wild-5"] and after.seats[ALICE].uno
    assert hand(after, CAROL) == ["wild-3", "wild-4"]


def test_uno_said_with_the_drawn_card_counts() -> None:
    state = position(hands=[["wild-1"], ["wild-2", "wild-3"]], draw=["skip-1"])
    state, _ = act(state, "draw", ALICE)
    after, _ = act(state, "play_drawn", ALICE, uno=True)
    assert hand(after, ALICE) == ["wild-1"] and after.seats[ALICE].uno


def test_any_draw_cancels_an_earlier_uno() -> None:
    state = position(hands=[["wild-1"], ["wild-2", "wild-3"]], draw=["skip-1"])
    state.seats[ALICE].uno = True
    after, _ = act(state, "draw", ALICE)
    assert not after.seats[ALICE].uno
    after, _ = act(after, "play_drawn", ALICE)
    assert hand(after, ALICE) == ["wild-1"] and not after.seats[ALICE].uno
    assert after.seats[ALICE].exposed


def test_the_catch_window_closes_when_the_next_player_plays() -> None:
    state = three_players(["wild-1", "wild-2"])
    state, _ = act(state, "play", ALICE, "wild-1")
    after, _ = act(state, "play", BOB, "wild-10")
    assert hand(after, ALICE) == ["wild-2"] and not after.seats[ALICE].uno
    assert refusal(after, "catch", CAROL, target=ALICE) == "nothing_to_catch"
    assert not view(after, CAROL)["seats"][ALICE]["catchable"]
    # The late word is still allowed.
    after, _ = act(after, "uno", ALICE)
    assert after.seats[ALICE].uno


def test_the_catch_window_closes_when_the_next_player_draws() -> None:
    state = three_players(["wild-1", "wild-2"])
    state, _ = act(state, "play", ALICE, "wild-1")
    after, _ = act(state, "draw", BOB)
    assert refusal(after, "catch", CAROL, target=ALICE) == "nothing_to_catch"


def test_the_catch_window_closes_with_a_timeout() -> None:
    state = three_players(["wild-1", "wild-2"])
    state, _ = act(state, "play", ALICE, "wild-1")
    after, _ = act(state, "timeout", BOB)
    assert refusal(after, "catch", CAROL, target=ALICE) == "nothing_to_catch"


def test_a_timeout_closes_the_window_even_when_nothing_is_drawn() -> None:
    # Alice is on one card and it is her turn again; nothing is left to draw.
    state = position(hands=[["wild-1"], ["wild-2"]], rest=BOB)
    state.seats[ALICE].exposed = True
    assert Action("catch", BOB, target=ALICE) in legal_actions(state, BOB)
    after, _ = act(state, "timeout", ALICE)
    assert hand(after, ALICE) == ["wild-1"] and after.current == BOB
    assert refusal(after, "catch", BOB, target=ALICE) == "nothing_to_catch"


def test_the_catch_window_closes_when_the_same_player_acts_again_after_a_skip() -> None:
    state = position(hands=[["skip-1", "wild-1"], ["wild-2", "wild-3"]], draw=["wild-4"])
    state, _ = act(state, "play", ALICE, "skip-1")
    assert state.current == ALICE and state.seats[ALICE].exposed
    assert Action("catch", BOB, target=ALICE) in legal_actions(state, BOB)
    after, _ = act(state, "draw", ALICE)  # her next turn action, though the same player
    assert not after.seats[ALICE].exposed
    assert refusal(after, "catch", BOB, target=ALICE) == "nothing_to_catch"
    after, _ = act(after, "pass", ALICE)
    assert refusal(after, "catch", BOB, target=ALICE) == "nothing_to_catch"


def test_forced_draws_uno_words_and_catches_leave_the_catch_window_open() -> None:
    hands = [["wild-1"], ["wild-2", "wild-3"], ["wild-4"], ["wild-5"]]
    state = position(hands=hands, current=BOB)
    state.seats[ALICE].exposed = True
    state.seats[DAVE].exposed = True
    state, _ = act(state, "uno", CAROL)  # a late word from carol
    state, _ = act(state, "catch", BOB, target=DAVE)  # a catch and its forced draw
    assert len(hand(state, DAVE)) == 3
    assert Action("catch", BOB, target=ALICE) in legal_actions(state, BOB)
    state, _ = act(state, "catch", DAVE, target=ALICE)
    assert len(hand(state, ALICE)) == 3


def test_a_player_whose_card_waits_for_a_target_cannot_be_caught_until_it_resolves() -> None:
    state = chooser_on_one_card()
    assert refusal(state, "catch", BOB, target=ALICE) == "nothing_to_catch"
    after, _ = act(state, "choose_target", ALICE, target=CAROL)
    assert len(hand(after, CAROL)) == 4
    assert Action("catch", BOB, target=ALICE) in legal_actions(after, BOB)


def test_the_view_does_not_show_a_pending_chooser_as_catchable() -> None:
    state = chooser_on_one_card()
    assert view(state, BOB)["seats"][ALICE]["catchable"] is False
    after, _ = act(state, "choose_target", ALICE, target=CAROL)
    assert view(after, BOB)["seats"][ALICE]["catchable"] is True


def test_force_swap_protection_refuses_a_target_holding_one_card() -> None:
    hands = [["force_swap-1", "wild-1"], ["wild-2"], ["wild-3", "wild-4"]]
    state = position(hands=hands, options={"force_swap_protection": True})
    assert refusal(state, "play", ALICE, "force_swap-1", BOB) == "target_protected"
    assert [a.target for a in legal_actions(state, ALICE) if a.card == "force_swap-1"] == [CAROL]
    unprotected = position(hands=hands)
    after, _ = act(unprotected, "play", ALICE, "force_swap-1", BOB)
    assert hand(after, ALICE) == ["wild-2"]


def test_force_swap_protection_with_every_other_player_on_one_card_swaps_nothing() -> None:
    hands = [["force_swap-1", "wild-1"], ["wild-2"], ["wild-3"]]
    state = position(hands=hands, options={"force_swap_protection": True})
    assert [a for a in legal_actions(state, ALICE) if a.card == "force_swap-1"] == [
        Action("play", ALICE, "force_swap-1")
    ]
    assert refusal(state, "play", ALICE, "force_swap-1", BOB) == "target_protected"
    assert refusal(state, "play", ALICE, "force_swap-1", ALICE) in (
        "target_not_allowed",
        "invalid_target",
    )
    after, events = act(state, "play", ALICE, "force_swap-1")
    assert hand(after, ALICE) == ["wild-1"] and hand(after, BOB) == ["wild-2"]
    assert {"type": "no_effect", "seat": ALICE, "card_type": "force_swap"} in events
    assert after.current == BOB


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
