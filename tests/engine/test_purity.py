"""The engine is pure: no Django, and no randomness but the RNG it is handed."""

from __future__ import annotations

import random

import pytest

from tests.child_python import python_json

from .playout import run_playout


def test_importing_the_engine_imports_no_django() -> None:
    code = "import json, sys\nimport games.engine\nprint(json.dumps(sorted(sys.modules)))\n"
    modules = python_json(code)
    assert "games.engine" in modules
    django = [m for m in modules if m == "django" or m.startswith("django.")]
    assert django == [], f"the engine pulled in {django}"


@pytest.mark.parametrize("preset", ["standard", "mattel_2021"])
def test_the_engine_never_calls_the_global_random_functions(
    monkeypatch: pytest.MonkeyPatch, preset: str
) -> None:
    def forbidden(*args: object, **kwargs: object) -> None:
        raise AssertionError("the engine used the global random module")

    for name in ("random", "shuffle", "choice", "randint", "randrange", "sample", "choices"):
        monkeypatch.setattr(random, name, forbidden)
    # random.Random's own methods are untouched: only the module-level functions raise.
    playout = run_playout(
        2024,
        players=4,
        preset=preset,
        options={},
        target_score=100,
        timeout_rate=0.05,
        leave_rate=0.01,
    )
    assert playout.final is not None and playout.final.phase == "match_over"
    assert playout.rounds_finished >= 1
