"""The expert's search: its fast playout policy is the heuristic, it beats `random`, and its work
is bounded (the benchmarks are in docs/bots.md)."""

from __future__ import annotations

import random

import pytest

from games.bots import allwild, arena, decide, expert
from games.bots.heuristic import ALL_RULES, choose
from games.bots.table import from_state
from games.engine.uno.allwild.game import ALL_WILD
from games.engine.uno.allwild.rules import apply, new_game
from games.engine.uno.allwild.view import view
from games.engine.uno.state import MATCH_OVER, ROUND_OVER

from .positions import hide_differently

pytestmark = pytest.mark.pure


@pytest.mark.parametrize(
    ("players", "preset"), [(2, "standard"), (2, "mattel_2021"), (4, "standard")]
)
def test_the_playout_policy_plays_the_heuristic_move_for_move(players: int, preset: str) -> None:
    checked = 0
    for seed in range(12):
        rng = random.Random(seed)
        options = {"force_swap_protection": seed % 3 == 0}
        state, _ = new_game(
            players=players, rng=rng, preset=preset, options=options, target_score=0
        )
        for _ in range(400):
            if state.phase in (ROUND_OVER, MATCH_OVER):
                break
            seat = state.current
            slow = choose(from_state(state, seat, allwild.can_draw(state, seat)), ALL_RULES, rng)
            fast = allwild.playout_policy(state, seat)
            if fast is not None:
                assert fast == slow, (seed, state.phase)
                checked += 1
            state, _ = apply(state, slow, rng)
    assert checked > 150


def test_the_expert_beats_random() -> None:
    result = arena.run(["expert", "random"], games=12, players=2, seed=4, playouts=4)
    expert_stats = result.stats["expert"]
    assert expert_stats.seat_rounds == result.rounds >= 10
    assert expert_stats.wins >= 0.75 * expert_stats.seat_rounds


def test_a_fixed_amount_of_work_gives_the_same_move_and_caps_engine_actions() -> None:
    state, _ = new_game(players=2, rng=random.Random(8), target_score=0)
    seat = state.current
    played: list[int] = []
    original = expert.playout

    def counting(*args, **kwargs):  # type: ignore[no-untyped-def]
        result, used = original(*args, **kwargs)
        played.append(used)
        return result, used

    expert.playout = counting  # type: ignore[assignment]
    try:
        a = expert.search(ALL_WILD, state, seat, random.Random(3), budget_ms=0, playouts=5)
        total = sum(played)
        b = expert.search(ALL_WILD, state, seat, random.Random(3), budget_ms=0, playouts=5)
    finally:
        expert.playout = original  # type: ignore[assignment]
    assert a == b
    assert total > 0
    # The cap may be passed by the playout that crosses it, never by more than one.
    assert total <= 5 * expert.ACTIONS_PER_SAMPLE + expert.MAX_PLAYOUT_ACTIONS


def test_with_an_unmodelled_house_rule_the_expert_plays_the_heuristic() -> None:
    state, _ = new_game(players=2, rng=random.Random(8), target_score=0)
    v = view(state, state.current)
    v["options"] = {**v["options"], "mercy": True}
    assert decide(v, [], level="expert", rng=random.Random(1), playouts=50) == decide(
        v, [], level="heuristic", rng=random.Random(1)
    )


@pytest.mark.parametrize("players", [2, 4])
def test_given_the_state_the_expert_reads_it_only_through_sample_hidden(
    players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two states that differ only in the cards the seat cannot see: the same move, for the
    same seed, from the state itself (not only from the view)."""
    # At four seats the search runs only in the end game; here it runs from the first move.
    monkeypatch.setattr(allwild, "ENDGAME_HAND", 99)
    shuffler = random.Random(4)
    decisions = set()
    for seed in range(6):
        state, _ = new_game(players=players, rng=random.Random(seed), target_score=0)
        rng = random.Random(seed)
        for _ in range(seed * 3):
            state, _ = apply(state, allwild.ALL_WILD_BOTS.rollout(ALL_WILD, state, rng), rng)
        if state.phase in (ROUND_OVER, MATCH_OVER):
            continue
        seat = state.current
        twin = hide_differently(state, seat, shuffler)
        assert twin != state and view(twin, seat) == view(state, seat)
        a = expert.search(ALL_WILD, state, seat, random.Random(9), budget_ms=0, playouts=4)
        b = expert.search(ALL_WILD, twin, seat, random.Random(9), budget_ms=0, playouts=4)
        assert a == b
        decisions.add(a)
    assert len(decisions) >= 3


def test_at_four_seats_the_expert_searches_only_in_the_end_game() -> None:
    """Before the seat's own hand is down to ``ENDGAME_HAND`` cards the heuristic's move,
    unsearched, even with an opponent that short; once its own is, a search. Heads-up every
    turn move is searched."""
    bots = allwild.ALL_WILD_BOTS
    state, _ = new_game(players=4, rng=random.Random(8), target_score=0)
    seat = state.current
    assert min(len(s.hand) for s in state.seats) > allwild.ENDGAME_HAND
    quick, worth = bots.presearch(ALL_WILD, state, seat, random.Random(1))
    assert quick is not None and not worth
    move = expert.search(ALL_WILD, state, seat, random.Random(1), budget_ms=0, playouts=8)
    assert move == quick
    v = view(state, seat)
    assert decide(v, [], level="expert", rng=random.Random(1), playouts=8) == decide(
        v, [], level="heuristic", rng=random.Random(1)
    )
    other = (seat + 1) % 4
    short = state.copy()
    hand = short.seats[other].hand
    short.draw_pile = hand[allwild.ENDGAME_HAND :] + short.draw_pile
    short.seats[other].hand = hand[: allwild.ENDGAME_HAND]
    _, worth = bots.presearch(ALL_WILD, short, seat, random.Random(1))
    assert not worth  # an opponent's short hand is not the seat's end game
    mine = short.seats[seat].hand
    short.draw_pile = mine[allwild.ENDGAME_HAND :] + short.draw_pile
    short.seats[seat].hand = mine[: allwild.ENDGAME_HAND]
    _, worth = bots.presearch(ALL_WILD, short, seat, random.Random(1))
    assert worth
    two, _ = new_game(players=2, rng=random.Random(8), target_score=0)
    assert bots.presearch(ALL_WILD, two, two.current, random.Random(1))[1]
