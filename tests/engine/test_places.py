"""Each seat's final place (``Game.places``), for every game: the winner first, then by the
game's own match scores (a one-round match by that round), ties sharing a place, leavers last."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.engine.gin.game import GIN_RUMMY as GIN
from games.engine.interface import places_by
from games.engine.registry import get_game
from games.engine.uno.cards import card_type
from games.engine.uno.state import MATCH_OVER, State
from tests.engine.playout import run_playout
from tests.engine.test_gin_properties import play as play_gin

pytestmark = pytest.mark.pure

UNO_KINDS = ("uno_all_wild", "uno_splash", "uno_no_mercy")


def test_equal_keys_share_a_place_and_the_next_place_skips() -> None:
    assert places_by([0, 1, 1, 2]) == [1, 2, 2, 4]
    assert places_by([(1, 5), (0, 9), (1, 5)]) == [2, 1, 2]


def uno_over(kind: str, *, scores: list[int], winner: int, target: int = 500, **seat: Any) -> State:
    """A finished Uno match of ``kind`` (its default deck) with these scores."""
    game = get_game(kind)
    state, _ = game.new_game(players=len(scores), rng=random.Random(1), target_score=target)
    for i, score in enumerate(scores):
        state.seats[i].score = score
    state.phase, state.winner = MATCH_OVER, winner
    for i in seat.get("left", ()):
        state.seats[i].active = False
    return state


@pytest.mark.parametrize("kind", UNO_KINDS)
def test_an_uno_match_places_the_winner_first_then_by_score_with_ties_sharing(kind: str) -> None:
    state = uno_over(kind, scores=[120, 510, 120, 300], winner=1)
    assert get_game(kind).places(state) == [3, 1, 3, 2]


@pytest.mark.parametrize("kind", UNO_KINDS)
def test_an_uno_match_places_those_who_left_below_everyone_who_stayed(kind: str) -> None:
    state = uno_over(kind, scores=[400, 0, 100, 200], winner=3, left=[0, 2])
    assert get_game(kind).places(state) == [3, 2, 3, 1]


@pytest.mark.parametrize("kind", UNO_KINDS)
def test_a_one_round_match_ranks_by_the_points_left_in_hand(kind: str) -> None:
    game = get_game(kind)
    # Random playouts of single-round matches: whoever went out is first, and the others are
    # ordered by what their hands were worth when it ended.
    for seed in range(15):
        final = run_playout(
            seed, players=4, preset=game.default_preset, options={}, target_score=0, game=game
        ).final
        places = game.places(final)
        assert places[final.winner] == 1
        assert places.count(1) == 1
        hands = final.round_results[-1]["hands"] if final.round_results else {}
        deck = game.setup.presets[final.preset]
        worth = {
            int(i): sum(deck.points[card_type(c)] for c in cards)
            for i, cards in hands.items()
            if int(i) != final.winner
        }
        for a, wa in worth.items():
            for b, wb in worth.items():
                if wa < wb:
                    assert places[a] < places[b], (seed, worth, places)
                if wa == wb:
                    assert places[a] == places[b]


def test_no_mercy_places_a_seat_knocked_out_of_a_one_round_match_below_the_others() -> None:
    game = get_game("uno_no_mercy")
    state, _ = game.new_game(players=4, rng=random.Random(2), target_score=0)
    state.phase, state.winner = MATCH_OVER, 2
    state.knocked_out = [3, 0]  # 3 first, then 0
    for i in (0, 3):
        state.seats[i].active = False
    state.round_results = [{"round": 1, "winner": 2, "points": 10, "hands": {"1": [], "2": []}}]
    assert game.places(state) == [3, 2, 1, 4]


def test_gin_rummy_places_the_match_winner_first_whatever_the_bonuses() -> None:
    state = play_gin(7, 30, 0.0, 0.0).states[-1]
    winner = GIN.match_winner(state)
    assert winner is not None
    expected = [2, 2]
    expected[winner] = 1
    assert GIN.places(state) == expected
    state.scores[1 - winner] = state.scores[winner] + 50  # line bonuses can outscore
    assert GIN.places(state) == expected


def test_gin_rummy_places_a_forfeiter_second() -> None:
    state, _ = GIN.new_game(players=2, rng=random.Random(3))
    state, _ = GIN.apply(state, GIN.leave_action(0), random.Random(3))
    assert GIN.is_match_over(state)
    assert GIN.places(state) == [2, 1]
