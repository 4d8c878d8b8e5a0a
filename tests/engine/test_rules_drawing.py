"""The rulings of RULES.md on drawing and the draw pile: one or more hand-written tests for each.

Positions are built directly with ``position(...)`` (tests/engine/allwild_positions.py): the
cards named in hands, draw and discard piles are placed as given and the rest of the 112 go to the
bottom of the draw pile (or wherever ``rest`` says), so cards are conserved in every position.
Seats: alice 0, bob 1, carol 2, dave 3.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games.engine.uno.actions import Action
from games.engine.uno.allwild.cards import PRESETS
from games.engine.uno.allwild.legal import legal_actions
from games.engine.uno.allwild.rules import apply

from .allwild_positions import (
    ALICE,
    BOB,
    CAROL,
    NoChance,
    act,
    hand,
    position,
    refusal,
    types,
)

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
