"""The arena and ``manage.py simulate``: a small smoke run (the benchmarks are in docs/bots.md)."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command

from games.bots import arena

pytestmark = pytest.mark.pure


def test_heuristic_beats_random_in_a_smoke_arena() -> None:
    result = arena.run(["heuristic", "random"], games=200, players=2, seed=3)
    assert result.rounds == 200
    heuristic = result.stats["heuristic"]
    assert heuristic.seat_rounds == 200
    assert heuristic.wins / heuristic.seat_rounds >= 0.6
    low, _ = arena.wilson(heuristic.wins, heuristic.seat_rounds)
    assert low > 0.5
    # It says UNO, catches the random bot's missed ones, and is never caught itself.
    assert heuristic.uno_calls > 0 and heuristic.catches > 0 and heuristic.caught == 0


def test_seats_rotate_and_each_rotation_shares_its_deal() -> None:
    assert [arena.lineup(["a", "b"], 2, g) for g in range(3)] == [
        ["a", "b"],
        ["b", "a"],
        ["a", "b"],
    ]
    assert arena.lineup(["a", "b", "c"], 4, 1) == ["b", "c", "a", "b"]
    # Two copies of one bot split the wins of a series evenly: same deals, swapped seats.
    mirror = arena.run(["heuristic", "heuristic"], games=100, players=2, seed=5)
    assert mirror.stats["heuristic"].wins == 100


def test_a_series_split_in_slices_adds_up_to_the_whole() -> None:
    whole = arena.run(["heuristic", "nodraw"], games=12, players=3, seed=9)
    parts = arena.ArenaResult(bots=["heuristic", "nodraw"], players=3)
    for first in (0, 6):
        parts.merge(
            arena.run(["heuristic", "nodraw"], games=6, players=3, seed=9, first_game=first)
        )
    assert parts.stats["heuristic"].wins == whole.stats["heuristic"].wins
    assert parts.round_turns == whole.round_turns


def test_the_wilson_interval() -> None:
    low, high = arena.wilson(70, 100)
    assert round(low, 3) == 0.604 and round(high, 3) == 0.781
    assert arena.wilson(0, 0) == (0.0, 1.0)
    assert arena.wilson(10, 10)[1] == 1.0


def test_simulate_prints_win_rates_with_intervals_and_effects() -> None:
    out = io.StringIO()
    call_command(
        "simulate",
        games=12,
        players=3,
        bots="heuristic,random,expert",
        playouts=1,
        jobs=2,
        stdout=out,
        stderr=io.StringIO(),
    )
    text = out.getvalue()
    assert "12 games, 12 rounds, 3 players" in text
    for bot in ("heuristic", "random", "expert"):
        assert f"\n{bot} " in text
    assert "95% interval" in text and "catches" in text and "draw4" in text


def test_simulate_refuses_unknown_bots() -> None:
    with pytest.raises(CommandError, match="unknown bot levels: genius"):
        call_command("simulate", games=2, bots="heuristic,genius", stdout=io.StringIO())


def test_abandoned_rounds_are_counted_and_reported_as_lost(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(arena, "MAX_ROUND_TURNS", 10)
    result = arena.run(["heuristic", "random"], games=10, players=2, seed=3)
    assert result.abandoned > 0 and result.rounds + result.abandoned == 10
    for st in result.stats.values():
        assert st.abandoned == result.abandoned
        assert st.seat_rounds == result.rounds
    text = arena.report(result)
    wins = result.stats["heuristic"].wins
    assert f"counting the {result.abandoned} abandoned rounds as lost" in text
    assert f"heuristic {wins}/10 = " in text


def test_the_report_gives_the_experts_move_times_in_wall_and_cpu_time() -> None:
    result = arena.run(["expert", "heuristic"], games=2, players=2, seed=3, playouts=2)
    expert = result.stats["expert"]
    assert len(expert.move_ms) == len(expert.move_cpu_ms) > 0
    text = arena.report(result)
    assert "move time per turn decision" in text and "cpu med" in text
    assert "\nheuristic " in text.split("move time per turn decision")[0]
