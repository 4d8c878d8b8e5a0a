"""Every scenario file under tests/scenarios/ runs and holds; and the scenario runner itself.

Scenario files are collected recursively, so a file added to any folder below tests/scenarios/
(rulebook/, rulings/, ...) is picked up without touching this module. Each file must carry a
non-empty ``rule`` (the sentence it tests) and a non-empty ``expect``: a file without them fails.

A scenario whose hand-written expectation is right but which the engine gets wrong is listed in
``KNOWN_ENGINE_BUGS`` (keyed by its path relative to tests/scenarios/, or by its file name) and
runs as a strict xfail: it must keep failing until the engine is fixed, and then the entry must go.
Never change an expectation to fit the engine.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from games.engine.scenario import ScenarioError, build_position, run_file, run_scenario
from games.engine.uno.allwild.cards import PRESETS, card_type

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "tests" / "scenarios"
DOC = ROOT / "docs" / "scenarios.md"

# Path relative to tests/scenarios/ (or a bare file name) -> how the engine disagrees with RULES.md.
KNOWN_ENGINE_BUGS: dict[str, str] = {}


def _scenario_files() -> list[Path]:
    return sorted(SCENARIOS.rglob("*.json"))


def _relative(path: Path) -> str:
    return path.relative_to(SCENARIOS).as_posix()


def _known_bug(relative: str) -> str | None:
    return KNOWN_ENGINE_BUGS.get(relative) or KNOWN_ENGINE_BUGS.get(relative.rsplit("/", 1)[-1])


def _params() -> list[Any]:
    params = []
    for path in _scenario_files():
        relative = _relative(path)
        reason = _known_bug(relative)
        marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
        params.append(pytest.param(path, id=relative, marks=marks))
    return params


def _describe(result: Any) -> str:
    lines = [f"scenario {result.name!r} does not hold:"]
    lines += [f"  - {failure}" for failure in result.failures]
    if result.unexpected_error is not None and not result.failures:
        err = result.unexpected_error
        lines.append(f"  - refused: {err.code}: {err.message}")
    return "\n".join(lines)


def _non_empty_text(value: Any) -> bool:
    """A non-blank string, or a non-empty list of non-blank strings."""
    if isinstance(value, str):
        return bool(value.strip())
    return (
        isinstance(value, list)
        and bool(value)
        and all(isinstance(v, str) and v.strip() for v in value)
    )


@pytest.mark.parametrize("path", _params())
def test_scenario_file(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    assert isinstance(data, dict), f"{_relative(path)}: a scenario is a JSON object"
    assert _non_empty_text(data.get("rule")), (
        f"{_relative(path)}: needs a non-empty 'rule' quoting the sentence(s) it tests"
    )
    expect = data.get("expect")
    assert isinstance(expect, dict) and expect, f"{_relative(path)}: needs a non-empty 'expect'"
    # One runner: Uno-family files set positions card by card, any other game's are dealt.
    result = run_file(data)
    assert result.ok, _describe(result)


def test_scenario_files_exist() -> None:
    files = [_relative(p) for p in _scenario_files()]
    rulebook = [f for f in files if f.startswith("rulebook/")]
    assert len(rulebook) == 7, f"one file per rulebook scenario, found {rulebook}"


def test_known_engine_bugs_name_existing_files() -> None:
    names = {_relative(p) for p in _scenario_files()} | {p.name for p in _scenario_files()}
    stale = sorted(set(KNOWN_ENGINE_BUGS) - names)
    assert not stale, f"KNOWN_ENGINE_BUGS lists files that do not exist: {stale}"


# ---------------------------------------------------------------------------------------------
# The examples in docs/scenarios.md run and hold.


def _doc_examples() -> list[Any]:
    if not DOC.exists():
        return []
    blocks = re.findall(r"```json\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL)
    examples = []
    for number, block in enumerate(blocks, 1):
        data = json.loads(block)
        if isinstance(data, dict) and "actions" in data:  # whole scenarios, not fragments
            examples.append(pytest.param(data, id=f"doc-example-{number}"))
    return examples


def test_doc_has_examples() -> None:
    assert DOC.exists(), "docs/scenarios.md documents the format"
    assert _doc_examples(), "docs/scenarios.md shows at least one complete scenario"


@pytest.mark.parametrize("data", _doc_examples())
def test_doc_example(data: dict[str, Any]) -> None:
    result = run_scenario(data)
    assert result.ok, _describe(result)


# ---------------------------------------------------------------------------------------------
# The runner itself.


def _scenario(**overrides: Any) -> dict[str, Any]:
    """A small valid scenario: alice plays a Wild, bob is next."""
    data: dict[str, Any] = {
        "name": "runner check",
        "rule": "Wild: nothing.",
        "position": {
            "seats": [
                {"name": "alice", "hand": ["wild", "skip"]},
                {"name": "bob", "hand": ["wild", "wild", "draw2"]},
                {"name": "carol", "hand": ["reverse"]},
            ],
            "discard_pile": ["wild"],
            "current": "alice",
        },
        "actions": [{"type": "play", "seat": "alice", "card": "wild"}],
        "expect": {"current": "bob", "hand_sizes": {"alice": 1, "bob": 3, "carol": 1}},
    }
    data.update(overrides)
    return data


def test_runner_accepts_the_base_scenario() -> None:
    result = run_scenario(_scenario())
    assert result.ok, result.failures
    assert result.failures == []
    assert result.unexpected_error is None


def test_a_file_without_expect_is_refused() -> None:
    data = _scenario()
    del data["expect"]
    with pytest.raises(ScenarioError, match="expect"):
        run_scenario(data)


def test_a_file_without_rule_is_refused() -> None:
    data = _scenario()
    del data["rule"]
    with pytest.raises(ScenarioError, match="rule"):
        run_scenario(data)


def test_an_empty_expect_is_refused() -> None:
    with pytest.raises(ScenarioError, match="expect"):
        run_scenario(_scenario(expect={}))


def test_an_unknown_expectation_is_refused() -> None:
    with pytest.raises(ScenarioError, match="hand_size"):
        run_scenario(_scenario(expect={"hand_size": {"alice": 1}}))


def test_a_wrong_expectation_names_the_field() -> None:
    result = run_scenario(
        _scenario(expect={"current": "carol", "hand_sizes": {"alice": 1, "bob": 9}})
    )
    assert not result.ok
    assert result.unexpected_error is None
    assert "current: expected 'carol', got 'bob'" in result.failures
    assert "hand_sizes[bob]: expected 9, got 3" in result.failures
    assert len(result.failures) == 2, result.failures


def test_a_wrong_hand_names_the_seat() -> None:
    result = run_scenario(_scenario(expect={"hands": {"alice": ["wild"]}}))
    assert len(result.failures) == 1
    assert result.failures[0].startswith("hands[alice]: expected ['wild'], got ['skip-1']")


def test_an_expected_error_that_applies_fails() -> None:
    actions = [{"type": "play", "seat": "alice", "card": "wild", "error": "not_your_turn"}]
    result = run_scenario(_scenario(actions=actions))
    assert not result.ok
    assert result.failures == ["action 1: expected error not_your_turn, but it applied"]


def test_an_expected_error_with_another_code_fails() -> None:
    actions = [{"type": "play", "seat": "bob", "card": "wild", "error": "card_not_in_hand"}]
    result = run_scenario(_scenario(actions=actions))
    assert result.failures == ["action 1: expected error card_not_in_hand, got not_your_turn"]
    assert result.unexpected_error is None


def test_an_expected_error_is_recorded_and_the_run_goes_on() -> None:
    actions = [
        {"type": "play", "seat": "bob", "card": "wild", "error": "not_your_turn"},
        {"type": "play", "seat": "alice", "card": "wild"},
    ]
    result = run_scenario(_scenario(actions=actions))
    assert result.ok, result.failures
    assert {"type": "refused", "action": 1, "code": "not_your_turn"} in result.events


def test_an_unexpected_refusal_is_reported() -> None:
    actions = [{"type": "play", "seat": "bob", "card": "wild"}]
    result = run_scenario(_scenario(actions=actions))
    assert not result.ok
    assert result.unexpected_error is not None
    assert result.unexpected_error.code == "not_your_turn"
    assert result.failures[0].startswith("action 1 was refused: not_your_turn")


def test_a_duplicated_card_id_is_refused() -> None:
    data = _scenario()
    data["position"]["seats"][0]["hand"] = ["wild-1", "skip"]
    data["position"]["discard_pile"] = ["wild-1"]
    with pytest.raises(ScenarioError, match="wild-1"):
        run_scenario(data)


def test_an_unknown_card_is_refused() -> None:
    data = _scenario()
    data["position"]["seats"][0]["hand"] = ["wild-29"]  # the standard deck has 28 Wilds
    with pytest.raises(ScenarioError, match="wild-29"):
        run_scenario(data)
    data["position"]["seats"][0]["hand"] = ["skip_two"]  # not in the standard deck
    with pytest.raises(ScenarioError, match="skip_two"):
        run_scenario(data)


def test_position_and_deal_are_exclusive() -> None:
    data = _scenario(deal={"players": 3})
    with pytest.raises(ScenarioError, match="exactly one"):
        run_scenario(data)


def test_type_tokens_resolve_to_distinct_ids() -> None:
    data = _scenario()
    data["position"]["seats"][0]["hand"] = ["wild", "wild", "wild-1"]
    data["position"]["draw_pile"] = ["wild", "draw4"]
    state, names, _ = build_position(data)
    assert names == ["alice", "bob", "carol"]
    alice = state.seats[0].hand
    assert alice[2] == "wild-1"  # an id is taken as written, and reserved before any type
    assert [card_type(c) for c in alice] == ["wild", "wild", "wild"]
    assert len(set(alice)) == 3
    assert [card_type(c) for c in state.draw_pile[:2]] == ["wild", "draw4"]
    every = [c for seat in state.seats for c in seat.hand] + state.draw_pile + state.discard_pile
    assert len(every) == len(set(every)) == 112
    assert sorted(every) == sorted(PRESETS["standard"].card_ids)


def test_a_card_type_in_an_action_takes_the_first_card_of_that_type() -> None:
    data = _scenario()
    data["position"]["seats"][0]["hand"] = ["skip-1", "wild-5", "wild-2"]
    data["actions"] = [{"type": "play", "seat": "alice", "card": "wild"}]
    data["expect"] = {"discard_top": "wild-5", "hands": {"alice": ["skip-1", "wild-2"]}}
    result = run_scenario(data)
    assert result.ok, result.failures
