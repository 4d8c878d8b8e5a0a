"""``manage.py scenario run``: exit codes and output, run as a real process (no database needed)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.child_python import run_text

ROOT = Path(__file__).resolve().parents[2]


def _scenario(**overrides: Any) -> dict[str, Any]:
    """Alice plays a Wild; Bob is next. Holds as written."""
    data: dict[str, Any] = {
        "name": "command check",
        "rule": "Wild: nothing.",
        "position": {
            "seats": [
                {"name": "alice", "hand": ["wild-1", "skip-1"]},
                {"name": "bob", "hand": ["wild", "wild", "draw2"]},
                {"name": "carol", "hand": ["reverse"]},
            ],
            "discard_pile": ["wild"],
            "current": "alice",
        },
        "actions": [{"type": "play", "seat": "alice", "card": "wild-1"}],
        "expect": {"current": "bob", "hand_sizes": {"alice": 1, "bob": 3, "carol": 1}},
    }
    data.update(overrides)
    return data


def _write(tmp_path: Path, name: str, data: Any) -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def _run(*args: str | Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"}
    return run_text(
        [sys.executable, "manage.py", "scenario", "run", *map(str, args)], env=env, timeout=120
    )


def test_a_passing_file_exits_0_and_prints_the_result_as_json(tmp_path: Path) -> None:
    path = _write(tmp_path, "ok.json", _scenario())
    proc = _run(path)
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert result["name"] == "command check"
    assert result["ok"] is True
    assert result["failures"] == []
    assert "error" not in result
    assert result["state"]["current_seat"] == 1
    assert [e["type"] for e in result["events"]][:1] == ["play"]


def test_quiet_prints_one_line_per_passing_file(tmp_path: Path) -> None:
    path = _write(tmp_path, "ok.json", _scenario())
    proc = _run(path, "--quiet")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == f"{path}: ok"


def test_a_failed_expectation_exits_1_and_prints_the_difference(tmp_path: Path) -> None:
    data = _scenario(expect={"current": "carol", "hand_sizes": {"bob": 9}})
    path = _write(tmp_path, "wrong.json", data)
    proc = _run(path)
    assert proc.returncode == 1, proc.stderr
    assert "current: expected 'carol', got 'bob'" in proc.stderr
    assert "hand_sizes[bob]: expected 9, got 3" in proc.stderr
    result = json.loads(proc.stdout)
    assert result["ok"] is False
    assert "hand_sizes[bob]: expected 9, got 3" in result["failures"]


def test_an_expected_error_that_applies_exits_1(tmp_path: Path) -> None:
    actions = [{"type": "play", "seat": "alice", "card": "wild-1", "error": "not_your_turn"}]
    path = _write(tmp_path, "applied.json", _scenario(actions=actions))
    proc = _run(path)
    assert proc.returncode == 1, proc.stderr
    assert "expected error not_your_turn, but it applied" in proc.stderr


def test_an_unexpected_refusal_exits_2_and_prints_the_code(tmp_path: Path) -> None:
    actions = [{"type": "play", "seat": "bob", "card": "wild"}]
    path = _write(tmp_path, "refused.json", _scenario(actions=actions))
    proc = _run(path)
    assert proc.returncode == 2, proc.stderr
    assert "refused: not_your_turn" in proc.stderr
    result = json.loads(proc.stdout)
    assert result["ok"] is False
    assert result["error"]["code"] == "not_your_turn"


@pytest.mark.parametrize(
    "content",
    [
        pytest.param({k: v for k, v in _scenario().items() if k != "expect"}, id="no-expect"),
        pytest.param(_scenario(surprise=True), id="unknown-key"),
        pytest.param("{not json", id="not-json"),
    ],
)
def test_an_invalid_file_exits_3(tmp_path: Path, content: Any) -> None:
    path = _write(tmp_path, "invalid.json", content)
    proc = _run(path)
    assert proc.returncode == 3, proc.stderr
    assert f"{path}: invalid scenario" in proc.stderr
    assert proc.stdout == ""


def test_a_missing_file_exits_3(tmp_path: Path) -> None:
    proc = _run(tmp_path / "nowhere.json")
    assert proc.returncode == 3, proc.stderr


def test_several_files_exit_with_the_worst_code(tmp_path: Path) -> None:
    ok = _write(tmp_path, "ok.json", _scenario())
    wrong = _write(tmp_path, "wrong.json", _scenario(expect={"current": "carol"}))
    proc = _run(ok, wrong, "--quiet")
    assert proc.returncode == 1, proc.stderr
    assert f"{ok}: ok" in proc.stdout
    assert f"{wrong}: current: expected 'carol', got 'bob'" in proc.stderr
