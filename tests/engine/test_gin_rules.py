"""Gin Rummy's rules, one ruling at a time, on positions written by hand."""

from __future__ import annotations

import random

import pytest

from games.engine import EngineError
from games.engine.gin.actions import Action
from games.engine.gin.cards import DECK
from games.engine.gin.game import GIN_RUMMY
from games.engine.gin.state import State
from games.engine.registry import get_game

ALICE, BOB = 0, 1


def position(
    alice: list[str],
    bob: list[str],
    discard: list[str],
    *,
    phase: str = "draw",
    current: int = ALICE,
    dealer: int = BOB,
    stock: list[str] | None = None,
    **kw: object,
) -> State:
    """A round in progress; the stock is every other card unless given."""
    used = set(alice) | set(bob) | set(discard)
    rest = [c for c in DECK if c not in used] if stock is None else stock
    return State(
        hands=[list(alice), list(bob)],
        stock=rest,
        discard=list(discard),
        phase=phase,
        current=current,
        dealer=dealer,
        **kw,  # type: ignore[arg-type]
    )


def act(s: State, kind: str, seat: int, **kw: str) -> State:
    return GIN_RUMMY.apply(s, Action(kind, seat, **kw), random.Random(0))[0]


def refused(s: State, kind: str, seat: int, **kw: str) -> str:
    with pytest.raises(EngineError) as error:
        GIN_RUMMY.apply(s, Action(kind, seat, **kw), random.Random(0))
    return error.value.code


ALICE_HAND = ["As", "2s", "3s", "7h", "7d", "7c", "Kc", "Qh", "9d", "4c"]
BOB_HAND = ["Ah", "Ad", "Ac", "5s", "6s", "8s", "Th", "Jd", "2h", "3d"]


def test_gin_rummy_is_registered() -> None:
    assert get_game("gin_rummy") is GIN_RUMMY


def test_the_deal_gives_ten_each_one_upcard_and_thirty_one_in_the_stock() -> None:
    s, events = GIN_RUMMY.new_game(players=2, rng=random.Random(3))
    order = next(e["order"] for e in events if e.get("kind") == "shuffle")
    first = 1 - s.dealer
    assert s.hands[first] == order[0:20:2] and s.hands[s.dealer] == order[1:20:2]
    assert s.discard == [order[20]] and s.stock == order[21:]
    assert s.phase == "offer" and s.current == first


def test_only_the_upcard_offer_is_open_on_the_first_turn() -> None:
    s = position(ALICE_HAND, BOB_HAND, ["5c"], phase="offer")
    assert [a.type for a in GIN_RUMMY.legal_actions(s, ALICE)] == ["take_upcard", "pass"]
    assert refused(s, "draw", ALICE, source="stock") == "offer_pending"


def test_when_both_pass_the_non_dealer_must_draw_from_the_stock() -> None:
    s = position(ALICE_HAND, BOB_HAND, ["5c"], phase="offer")
    s = act(act(s, "pass", ALICE), "pass", BOB)
    assert s.current == ALICE and s.phase == "draw"
    assert refused(s, "draw", ALICE, source="discard") == "must_draw_stock"
    assert refused(s, "take_upcard", ALICE) == "must_draw_stock"
    s = act(s, "draw", ALICE, source="stock")
    s = act(s, "discard", ALICE, card="Kc")
    # The upcard stays under the new discard, and bob may take the top one.
    assert s.discard == ["Kc", "5c"]
    assert {a.source for a in GIN_RUMMY.legal_actions(s, BOB)} == {"stock", "discard"}


def test_the_card_just_taken_from_the_discard_pile_cannot_be_thrown_back() -> None:
    s = position(ALICE_HAND, BOB_HAND, ["5c"])
    s = act(s, "draw", ALICE, source="discard")
    assert refused(s, "discard", ALICE, card="5c") == "card_just_taken"
    assert refused(s, "knock", ALICE, card="5c") == "card_just_taken"
    assert Action("discard", ALICE, card="5c") not in GIN_RUMMY.legal_actions(s, ALICE)


def test_a_card_drawn_from_the_stock_may_be_discarded_at_once() -> None:
    s = position(ALICE_HAND, BOB_HAND, ["5c"], stock=["Jc", "Jh", "Js"])
    s = act(act(s, "draw", ALICE, source="stock"), "discard", ALICE, card="Jc")
    assert s.discard[0] == "Jc"


def test_a_knock_over_ten_is_refused_and_at_exactly_ten_it_counts() -> None:
    # A-2-3 of spades, three sevens, 4-5-6 of clubs, and the king: 10 of deadwood.
    alice = ["As", "2s", "3s", "7h", "7d", "7c", "4c", "5c", "6c", "Kc"]
    s = position(alice, BOB_HAND, ["Qd"], stock=["Th", "Tc", "Ts", "9h"])
    s = act(s, "draw", ALICE, source="stock")
    assert refused(s, "knock", ALICE, card="As") == "knock_not_allowed"
    s = act(s, "knock", ALICE, card="Th")
    result = s.round_results[-1]
    assert result["how"] == "knock" and result["knocker_count"] == 10
    assert result["knock_discard"] == "Th" and "Th" not in s.discard
    # Bob melds his three aces and has nothing to lay off: 5 + 6 + 8 + 10 + 10 + 2 + 3.
    assert result["defender_count"] == 44 and result["points"] == 34 and s.scores == [34, 0]


def test_big_gin_is_declared_without_a_discard_and_scores_31() -> None:
    alice = ["As", "2s", "3s", "4s", "7h", "7d", "7c", "Kd", "Kc", "Ks"]
    s = position(alice, BOB_HAND, ["Qd"], stock=["Kh", "Qs", "Qc", "9h"])
    s = act(s, "draw", ALICE, source="stock")
    assert Action("big_gin", ALICE) in GIN_RUMMY.legal_actions(s, ALICE)
    s = act(s, "big_gin", ALICE)
    result = s.round_results[-1]
    bob_deadwood = 5 + 6 + 8 + 10 + 10 + 2 + 3  # his three aces meld; no layoffs after gin
    assert result["how"] == "big_gin" and result["points"] == 31 + bob_deadwood
    assert s.scores == [31 + bob_deadwood, 0]


def test_discarding_at_the_wall_draws_the_round() -> None:
    s = position(ALICE_HAND, BOB_HAND, ["5c"], stock=["Jc", "Jh", "Js"])
    s = act(act(s, "draw", ALICE, source="stock"), "discard", ALICE, card="Jc")
    assert s.phase == "round_over"
    result = s.round_results[-1]
    assert result["how"] == "wall" and result["winner"] is None and s.scores == [0, 0]
    assert result["next_dealer"] == BOB


def test_the_loop_guard_stops_takes_from_the_discard_pile() -> None:
    takes = [{"seat": i % 2, "card": "Qs"} for i in range(50)]
    s = position(ALICE_HAND, BOB_HAND, ["5c"], takes=takes)
    assert refused(s, "draw", ALICE, source="discard") == "discard_take_limit"
    assert [a.source for a in GIN_RUMMY.legal_actions(s, ALICE)] == ["stock"]


def test_a_timeout_draws_from_the_stock_and_throws_that_card_back() -> None:
    s = position(ALICE_HAND, BOB_HAND, ["5c"], stock=["Jc", "Jh", "Js", "9h"])
    s = act(s, "timeout", ALICE)
    assert s.hands[ALICE] == ALICE_HAND and s.discard[:2] == ["Jc", "5c"]
    assert s.current == BOB


def test_a_timeout_after_a_discard_pile_take_discards_what_leaves_least_deadwood() -> None:
    s = position(ALICE_HAND, BOB_HAND, ["8c"])
    s = act(s, "draw", ALICE, source="discard")
    s = act(s, "timeout", ALICE)
    # Kc and Qh both leave the least; the tie goes to the higher rank: the king.
    assert s.discard[0] == "Kc"


def test_a_timeout_passes_the_upcard_offer() -> None:
    s = position(ALICE_HAND, BOB_HAND, ["5c"], phase="offer")
    s = act(s, "timeout", ALICE)
    assert s.passes == 1 and s.current == BOB


def test_a_player_who_leaves_loses_by_forfeit_and_the_round_scores_nothing() -> None:
    s = position(ALICE_HAND, BOB_HAND, ["5c"], scores=[40, 60])
    s = act(s, "leave", BOB)
    assert s.phase == "match_over" and s.winner == ALICE and s.scores == [40, 60]
    assert GIN_RUMMY.active_seats(s) == [ALICE]


def test_it_is_not_your_turn_when_the_other_seat_moves() -> None:
    s = position(ALICE_HAND, BOB_HAND, ["5c"])
    assert refused(s, "draw", BOB, source="stock") == "not_your_turn"
    assert GIN_RUMMY.legal_actions(s, BOB) == []


def test_an_action_names_its_card_or_source_exactly_when_its_type_needs_one() -> None:
    for bad in ({"type": "draw"}, {"type": "discard"}, {"type": "pass", "card": "As"}):
        with pytest.raises(EngineError) as error:
            GIN_RUMMY.action_from_dict(bad)
        assert error.value.code == "invalid_action"


def test_the_state_round_trips_through_json() -> None:
    s, _ = GIN_RUMMY.new_game(players=2, rng=random.Random(1))
    assert GIN_RUMMY.state_from_dict(GIN_RUMMY.state_to_dict(s)) == s


def test_a_game_for_three_is_refused() -> None:
    with pytest.raises(EngineError) as error:
        GIN_RUMMY.new_game(players=3, rng=random.Random(1))
    assert error.value.code == "invalid_setup"
