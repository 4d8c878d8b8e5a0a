"""Child processes for tests: a fresh Python interpreter that runs a snippet in the checkout and
reads back the JSON it printed last (the settings a process resolves, the modules an import pulls
in), any command run to its end with its output as text, and a server stopped whatever it does."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def run_text(
    argv: Sequence[str],
    *,
    env: Mapping[str, str] | None = None,
    timeout: float = 60,
    cwd: Path = ROOT,
) -> subprocess.CompletedProcess[str]:
    """``argv`` run to its end in ``cwd`` (the checkout) with ``env`` (this process's environment
    when None), its stdout and stderr captured as text; the caller judges the return code."""
    return subprocess.run(
        list(argv), cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout
    )


def python_json(code: str, *, env: dict[str, str] | None = None, timeout: float = 60) -> Any:
    """The JSON of the last line ``code`` printed, run by ``python -c`` in the checkout with
    ``env`` (this process's environment when None); a failure shows the child's stderr."""
    done = run_text([sys.executable, "-c", code], env=env, timeout=timeout)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def stop_process(
    process: subprocess.Popen[Any], sig: int = signal.SIGTERM, *, timeout: float = 15
) -> None:
    """Stop one process we started: ``sig``, then SIGKILL if it has not exited after ``timeout``
    seconds (a server stuck in its shutdown must not hang the test)."""
    if process.poll() is None:
        process.send_signal(sig)
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=timeout)


def run_bench(script: str, *args: str, redis_url: str) -> subprocess.CompletedProcess[str]:
    """``bench/<script> <args>`` on the Redis at ``redis_url``, run to its end (five minutes at the
    most); it must exit 0 (the bench checks its own figures), and the test reads its report."""
    result = run_text(
        [sys.executable, f"bench/{script}", *args],
        env={**os.environ, "REDIS_URL": redis_url},
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return result
