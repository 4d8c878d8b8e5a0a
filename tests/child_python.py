"""A fresh Python interpreter for a test: run a snippet in the checkout and read back the JSON
it printed last (the settings a process resolves, the modules an import pulls in)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def python_json(code: str, *, env: dict[str, str] | None = None, timeout: float = 60) -> Any:
    """The JSON of the last line ``code`` printed, run by ``python -c`` in the checkout with
    ``env`` (this process's environment when None); a failure shows the child's stderr."""
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])
