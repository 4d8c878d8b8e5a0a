"""The rulings of RULES.md on saying UNO and catching: one or more hand-written tests for each.

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
from games.engine.uno.allwild.view import view

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
