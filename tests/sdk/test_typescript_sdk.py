"""The TypeScript SDK (sdk/typescript: types by openapi-typescript from openapi.yaml, calls by
openapi-fetch, and the thin src/index.ts) plays every game to the end against a live server
with Node: test/play.ts's two players, each driven by its account event stream, narrowing its
events on `kind` (the schema's `AccountEvent` union) to read their typed `data`; and a kind newer
than the build is skipped (test/newer_kinds.ts, against a stand-in server)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.test import override_settings

from tests.sdk.conftest import GENERATE, KINDS, ROOT, sign_up

TYPESCRIPT = ROOT / "sdk" / "typescript"


def run(command: list[str], cwd: Path, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    assert result.returncode == 0, f"{command} failed:\n{result.stdout}\n{result.stderr}"
    return result


@pytest.fixture(scope="module")
def typescript_sdk() -> Iterator[Path]:
    """The packages (npm ci, from package-lock.json), the types generated from openapi.yaml by
    sdk/generate.py, and tsc's build. Node and npm are required (Debian's nodejs and npm)."""
    npm = shutil.which("npm")
    assert npm is not None and shutil.which("node"), (
        "Node is not installed: apt-get install nodejs npm"
    )
    run([npm, "ci", "--no-audit", "--no-fund"], TYPESCRIPT)
    run([sys.executable, str(GENERATE), "--typescript-only"], ROOT)
    run([npm, "run", "build"], TYPESCRIPT)
    yield TYPESCRIPT / "dist" / "test" / "play.js"


@pytest.mark.django_db(transaction=True)
# python_sdk: the players sign up through the generated Python client (tests/sdk/conftest.py).
@pytest.mark.usefixtures("lifted_game_throttles", "python_sdk")
@pytest.mark.parametrize("kind", KINDS)
def test_the_typescript_sdk_plays_a_game_to_the_end_from_the_event_stream(
    live_server: Any, typescript_sdk: Path, kind: str
) -> None:
    alice, bob = sign_up(live_server.url, "alice"), sign_up(live_server.url, "bob")
    node = shutil.which("node")
    assert node is not None
    with override_settings(LIVE_HEARTBEAT_SECONDS=0.5):
        result = subprocess.run(
            [node, str(typescript_sdk), live_server.url, alice.token, bob.token, kind],
            capture_output=True,
            text=True,
            timeout=300,
        )
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout.strip().splitlines()[-1])
    assert summary["status"] == "finished" and summary["game"] == kind, summary
    assert summary["actions"] > 0
    assert sorted(summary["places"]) == [1, 2]
    # Each read its opponent's name from its game_started event's typed data.
    assert summary["opponents"] == [["Bob"], ["Alice"]], summary


def test_the_typescript_sdk_skips_a_kind_newer_than_its_build_and_resumes_after_it(
    typescript_sdk: Path,
) -> None:
    node = shutil.which("node")
    assert node is not None
    script = typescript_sdk.parent / "newer_kinds.js"
    result = subprocess.run([node, str(script)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout.strip().splitlines()[-1])
    # The event from the future is not yielded, yet the next connection resumes after it (6).
    assert summary == {"kinds": ["followed:5", "followed:7"], "afters": ["4", "6"]}
