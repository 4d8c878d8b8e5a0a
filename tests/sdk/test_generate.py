"""sdk/generate.py: the one command that rebuilds the SDKs from openapi.yaml, and its check that
fails when what was generated is older than the schema (issue 33 §4)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.sdk.conftest import GENERATE, ROOT


def check(out: Path, schema: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(GENERATE), "--check", "--python-only"]
        + ["--out", str(out), "--schema", str(schema)],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_a_client_generated_from_the_schema_is_current(python_sdk: Path) -> None:
    result = check(python_sdk.parent, ROOT / "openapi.yaml")
    assert result.returncode == 0, result.stderr


def test_a_client_is_stale_once_the_schema_changes_and_the_check_names_the_command(
    python_sdk: Path, tmp_path: Path
) -> None:
    changed = tmp_path / "openapi.yaml"
    changed.write_text((ROOT / "openapi.yaml").read_text() + "# a new operation\n")
    result = check(python_sdk.parent, changed)
    assert result.returncode == 1
    assert "cardgames_client" in result.stderr
    assert "run `python sdk/generate.py`" in result.stderr
