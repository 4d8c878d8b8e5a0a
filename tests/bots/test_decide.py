"""The contract of ``decide``: it sees a seat's view and visible events and nothing else, and every
level answers with an action the engine accepts, in any position of either preset."""

from __future__ import annotations

import inspect
import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from games.bots import LEVELS, decide
from games.engine.uno.actions import Action
from games.engine.uno.allwild.legal import legal_actions
from games.engine.uno.allwild.rules import apply, new_game
from games.engine.uno.allwild.view import view
from games.engine.uno.state import MATCH_OVER, ROUND_OVER, State
from games.engine.uno.view import visible_events

from .positions import hide_differently

pytestmark = pytest.mark.pure

ROOT = Path(__file__).resolve().parents[2]
ALL_LEVELS = [*LEVELS, "nodraw"]


def _strip(action: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in action.items() if k not in ("seat", "uno")}


def _positions(
    seed: int, players: int, preset: str, every: int = 3
) -> list[tuple[State, list[dict[str, Any]]]]:
    """States met in a random playout (every ``every``-th), each with the round's events."""
    rng = random.Random(seed)
    state, events = new_game(players=players, rng=rng, preset=preset, target_score=0)
    log = list(events)
    out = []
    step = 0
    while state.phase not in (ROUND_OVER, MATCH_OVER) and step < 400:
        if step % every == 0:
            out.append((state, list(log)))
        turn = [a for a in legal_actions(state, state.current) if a.type not in ("uno", "catch")]
        state, events = apply(state, rng.choice(turn), rng)
        log += events
        step += 1
    return out


def test_decide_takes_a_view_and_the_visible_history_and_a_state_only_if_asked() -> None:
    params = inspect.signature(decide).parameters
    assert list(params) == ["view", "history", "level", "rng", "budget_ms", "playouts", "state"]
    assert params["view"].kind is inspect.Parameter.POSITIONAL_OR_KEYWORD
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in list(params.values())[2:])
    # A state is optional (for games whose bots rebuild none from a view); All Wild's callers
    # pass none, and the expert reads one only through sample_hidden (tests/bots/test_expert.py).
    assert params["state"].default is None


def test_the_bots_import_no_django() -> None:
    code = "import json, sys\nimport games.bots.arena\nprint(json.dumps(sorted(sys.modules)))\n"
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    modules = json.loads(result.stdout)
    assert [m for m in modules if m == "django" or m.startswith("django.")] == []


@pytest.mark.parametrize("level", ALL_LEVELS)
def test_two_states_that_differ_only_in_hidden_cards_give_the_same_decision(level: str) -> None:
    shuffler = random.Random(99)
    checked = 0
    for players, preset in [(2, "standard"), (3, "mattel_2021"), (4, "standard")]:
        for state, log in _positions(11 + players, players, preset, every=4)[:8]:
            seat = state.current
            twin = hide_differently(state, seat, shuffler)
            assert twin.seats[seat].hand == state.seats[seat].hand
            assert twin.seats != state.seats or players == 1  # the hidden cards did move
            mine, theirs = view(state, seat), view(twin, seat)
            assert mine == theirs  # what the seat may know is all the same
            history = visible_events(log, seat)
            a = decide(mine, history, level=level, rng=random.Random(5), playouts=6)
            b = decide(theirs, history, level=level, rng=random.Random(5), playouts=6)
            assert a == b
            checked += 1
    assert checked >= 20


@pytest.mark.parametrize("preset", ["standard", "mattel_2021"])
@pytest.mark.parametrize("players", [2, 3, 5, 10])
def test_every_level_answers_with_an_action_the_engine_accepts(preset: str, players: int) -> None:
    for state, log in _positions(players * 7 + len(preset), players, preset, every=2)[:30]:
        for level in ALL_LEVELS:
            for seat in {state.current, (state.current + 1) % players}:
                v = view(state, seat)
                if not v["legal_actions"]:
                    continue
                history = visible_events(log, seat)
                rng = random.Random(seat)
                chosen = decide(v, history, level=level, rng=rng, budget_ms=20, playouts=2)
                if chosen is None:
                    # Only off turn may a bot let the moment pass.
                    assert seat != state.current, (level, v["phase"])
                    continue
                assert _strip(chosen) in [_strip(a) for a in v["legal_actions"]], chosen
                apply(state, Action.from_dict({**chosen, "seat": seat}), random.Random(1))


def test_the_expert_returns_within_its_time_budget() -> None:
    timings = []
    for players in (2, 4):
        for state, _ in _positions(3 + players, players, "standard", every=5)[:6]:
            v = view(state, state.current)
            started = time.perf_counter()
            decide(v, [], level="expert", rng=random.Random(1), budget_ms=60)
            timings.append((time.perf_counter() - started) * 1000)
    # The search checks the clock between samples; a loaded machine may overshoot a little.
    assert statistics.median(timings) < 60 * 1.5 + 20, timings
    assert max(timings) < 60 * 3 + 100, timings


def test_a_view_without_legal_actions_gets_no_action() -> None:
    state, _ = new_game(players=3, rng=random.Random(2), target_score=0)
    idle = next(i for i in range(3) if not legal_actions(state, i))
    for level in ALL_LEVELS:
        assert decide(view(state, idle), [], level=level, rng=random.Random(1)) is None


def test_an_unknown_level_is_refused() -> None:
    state, _ = new_game(players=2, rng=random.Random(2), target_score=0)
    with pytest.raises(ValueError, match="unknown bot level"):
        decide(view(state, state.current), [], level="genius", rng=random.Random(1))
