"""The expert's search: its fast playout policy is the heuristic, it beats `random`, and its work
is bounded (the benchmarks are in docs/bots.md)."""

from __future__ import annotations

import random

import pytest

from games.bots import arena, expert
from games.bots.heuristic import ALL_RULES, choose
from games.bots.table import from_state
from games.engine import apply, new_game, view
from games.engine.state import MATCH_OVER, ROUND_OVER

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
            slow = choose(from_state(state, seat, expert._can_draw(state, seat)), ALL_RULES, rng)
            fast = expert.playout_policy(state, seat)
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
    v = view(state, state.current)
    played: list[int] = []
    original = expert._playout

    def counting(*args, **kwargs):  # type: ignore[no-untyped-def]
        result, used = original(*args, **kwargs)
        played.append(used)
        return result, used

    expert._playout = counting  # type: ignore[assignment]
    try:
        a = expert.search(v, random.Random(3), budget_ms=0, playouts=5)
        total = sum(played)
        b = expert.search(v, random.Random(3), budget_ms=0, playouts=5)
    finally:
        expert._playout = original  # type: ignore[assignment]
    assert a == b
    # The cap may be passed by the playout that crosses it, never by more than one.
    assert total <= 5 * expert.ACTIONS_PER_SAMPLE + expert.MAX_PLAYOUT_ACTIONS


def test_with_an_unmodelled_house_rule_the_expert_plays_the_heuristic() -> None:
    state, _ = new_game(players=2, rng=random.Random(8), target_score=0)
    v = view(state, state.current)
    v["options"] = {**v["options"], "mercy": True}
    quick = choose(expert.from_view(v), ALL_RULES, random.Random(1))
    assert expert.search(v, random.Random(1), budget_ms=0, playouts=50) == quick
