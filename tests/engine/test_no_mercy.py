"""Uno Show 'Em No Mercy's engine: the deck table, the stacking table, opening cards, the Mercy
rule's edges and the game's interface (the rulings: ``shared/rules/uno_no_mercy.md``; the
rulings with a worked position are scenarios in tests/scenarios/uno_no_mercy/)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games.engine import EngineError
from games.engine.registry import get_game
from games.engine.uno.actions import Action
from games.engine.uno.allwild.house_rules.stacking import RULES as ALL_WILD_STACKING
from games.engine.uno.nomercy import rules
from games.engine.uno.nomercy.cards import COLOUR_OF, PRESETS, RANK_OF
from games.engine.uno.nomercy.knockout import draw_cards
from games.engine.uno.nomercy.matching import STACKING
from games.engine.uno.stacking import StackRules
from games.engine.uno.state import Seat, State

GAME = get_game("uno_no_mercy")
DECK = PRESETS["standard"].card_ids


def table(top: str, players: int = 3, dealer: int = 0) -> State:
    """A fresh deal of 7 each with ``top`` as the opening card, the rest in id order."""
    rest = [c for c in DECK if c != top]
    seats = [Seat(hand=rest[7 * i : 7 * i + 7]) for i in range(players)]
    return State(
        preset="standard",
        seats=seats,
        draw_pile=rest[7 * players :],
        discard_pile=[top],
        game="uno_no_mercy",
        dealer=dealer,
        current=(dealer + 1) % players,
        target_score=1000,
    )


def test_the_deck_has_168_cards_as_the_rulings_table_counts_them() -> None:
    ranks = Counter(RANK_OF[c] for c in DECK)
    assert len(DECK) == len(set(DECK)) == 168
    assert ranks["0"] == 8 and all(ranks[str(n)] == 8 for n in range(1, 10))
    assert (ranks["skip"], ranks["reverse"], ranks["draw2"], ranks["draw4"]) == (12, 12, 12, 8)
    assert (ranks["discard_all"], ranks["skip_all"]) == (12, 8)
    assert (ranks["wrd4"], ranks["wd6"], ranks["wd10"], ranks["roulette"]) == (8, 4, 4, 8)
    assert sum(1 for c in DECK if COLOUR_OF[c] == "red") == 36
    assert "wild" not in ranks and "wd4" not in ranks


def test_points_are_face_value_twenty_and_fifty() -> None:
    points = PRESETS["standard"].points
    assert points["red-0"] == 0 and points["blue-9"] == 9
    assert points["green-draw4"] == points["yellow-skip_all"] == points["red-discard_all"] == 20
    assert points["wrd4"] == points["wd6"] == points["wd10"] == points["roulette"] == 50


def test_stacking_is_one_mechanism_with_two_rule_tables() -> None:
    assert isinstance(STACKING, StackRules) and isinstance(ALL_WILD_STACKING, StackRules)
    on = dict(STACKING.on)
    assert on["draw2"] == ("draw2", "draw4", "wrd4", "wd6", "wd10")
    assert on["draw4"] == on["wrd4"] == ("draw4", "wrd4", "wd6", "wd10")
    assert on["wd6"] == ("wd6", "wd10") and on["wd10"] == ()
    assert dict(ALL_WILD_STACKING.on) == {"draw2": ("draw2", "draw4"), "draw4": ("draw4",)}


def test_it_is_registered_for_two_to_six_players_with_a_1000_target() -> None:
    assert (GAME.min_players, GAME.max_players, GAME.default_target) == (2, 6, 1000)
    with pytest.raises(EngineError) as error:
        GAME.new_game(players=7, rng=random.Random(0))
    assert error.value.code == "invalid_setup"


def test_it_refuses_any_house_rule() -> None:
    with pytest.raises(EngineError) as error:
        GAME.new_game(players=2, rng=random.Random(0), options={"stacking": True})
    assert error.value.code == "invalid_setup"


# The rulings' table, grouped by what the opening card leaves: (current, direction, phase).
OPENINGS = {
    (1, 1, "play"): ["red-5-a", "red-7-a", "red-0-a", "red-discard_all-a"],
    (2, 1, "play"): ["red-skip-a", "red-draw2-a", "red-draw4-a"],
    (0, -1, "play"): ["red-reverse-a"],
    (0, 1, "play"): ["red-skip_all-a"],
    (1, 1, "choose"): ["wd6-1", "wd10-1", "roulette-1"],
    (0, -1, "choose"): ["wrd4-1"],
}


@pytest.mark.parametrize(
    ("top", "current", "direction", "phase"),
    [(top, *after) for after, tops in OPENINGS.items() for top in tops],
)
def test_each_opening_card_acts_as_the_rulings_table_says(
    top: str, current: int, direction: int, phase: str
) -> None:
    s = table(top)
    rules.opening(s, s.current, top, random.Random(0), [])
    assert (s.current, s.direction, s.phase) == (current, direction, phase)
    if RANK_OF[top] in ("draw2", "draw4"):
        assert len(s.seats[1].hand) == 7 + (2 if RANK_OF[top] == "draw2" else 4)


@pytest.mark.parametrize(("top", "drawn", "then"), [("wd6-1", 6, 2), ("wd10-1", 10, 2)])
def test_an_opening_draw_wild_is_named_then_drawn_then_skipped(
    top: str, drawn: int, then: int
) -> None:
    s = table(top)
    rules.opening(s, s.current, top, random.Random(0), [])
    after, _ = GAME.apply(s, Action("choose_colour", 1, colour="blue"), random.Random(0))
    assert len(after.seats[1].hand) == 7 + drawn
    assert (after.current, after.colour, after.phase) == (then, "blue", "play")


def test_an_opening_wild_reverse_draw_4_is_the_dealers_and_the_player_counterclockwise_starts() -> (
    None
):
    s = table("wrd4-1")
    rules.opening(s, s.current, "wrd4-1", random.Random(0), [])
    assert s.pending is not None and s.pending["seat"] == 0
    after, _ = GAME.apply(s, Action("choose_colour", 0, colour="green"), random.Random(0))
    assert len(after.seats[0].hand) == 11 and after.current == 2
    nobody_paid = [seat.score for seat in after.seats]
    assert nobody_paid == [0, 0, 0]


def test_a_reshuffle_takes_the_discards_and_the_set_aside_hands() -> None:
    s = table("red-5-a")
    s.set_aside = s.draw_pile[:25]
    s.discard_pile = ["red-5-a", *s.draw_pile[25:30]]
    s.draw_pile = []
    drawn, knocked = draw_cards(s, 1, 3, random.Random(0), [], "test")
    assert len(drawn) == 3 and not knocked
    assert s.set_aside == [] and s.discard_pile == ["red-5-a"] and len(s.draw_pile) == 27


def test_a_knocked_out_player_is_no_seven_target_and_is_dealt_in_next_round() -> None:
    s = table("red-5-a")
    s.seats[1].hand = s.draw_pile[:24]
    s.seats[2].hand = ["red-7-b", *s.draw_pile[24:30]]
    s.draw_pile = [c for c in s.draw_pile[30:] if c != "red-7-b"]
    s.current = 1
    _, knocked = draw_cards(s, 1, 1, random.Random(0), [], "timeout")
    assert knocked and s.knocked_out == [1] and not s.seats[1].active and s.current == 2
    assert GAME.active_seats(s) == [0, 1, 2]  # out of the round, not of the match
    sevens = [a for a in GAME.legal_actions(s, 2) if a.card == "red-7-b"]
    assert [a.target for a in sevens] == [0]
    s.phase = "round_over"
    after, _ = GAME.apply(s, Action("next_round"), random.Random(1))
    assert after.knocked_out == [] and after.set_aside == [] and after.round == 2
    assert all(seat.active and len(seat.hand) >= 7 for seat in after.seats)


def test_a_state_without_knockouts_serialises_as_the_other_games_do() -> None:
    state, _ = GAME.new_game(players=3, rng=random.Random(4))
    data = GAME.state_to_dict(state)
    assert "knocked_out" not in data and "set_aside" not in data and "stacker" not in data
    assert GAME.state_from_dict(data) == state
