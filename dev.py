#!/usr/bin/env python3
"""Run the service or its tests on a machine that has nothing but Python 3.11+.

    python3 dev.py serve [manage.py serve options]   # http://127.0.0.1:8000
    python3 dev.py test [pytest options]

Both create ./.venv when it is missing and install the project with its dev extras into it. The
install is repeated only when pyproject.toml changed (a hash of it is kept in .venv), so the
second run starts in well under a second. Standard library only: this runs before any dependency
is installed.
"""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
STAMP = VENV / ".unoallwild-install-stamp"
INSTALL_LOG = VENV / "install.log"
MIN_PYTHON = (3, 11)


def venv_python() -> Path:
    if os.name == "nt":
        return VENV / "Scripts" / "python.exe"
    return VENV / "bin" / "python"


def install_fingerprint() -> str:
    """What the installed environment depends on: pyproject.toml and the venv's Python version."""
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes())
    # pyvenv.cfg names the interpreter and its version: a venv rebuilt on another Python must
    # reinstall even though pyproject.toml is unchanged.
    digest.update((VENV / "pyvenv.cfg").read_bytes())
    return digest.hexdigest()


def log(message: str) -> None:
    print(f"dev.py: {message}", file=sys.stderr, flush=True)


def bootstrap() -> Path:
    """Make sure .venv exists and has the current dependencies; return its python."""
    python = venv_python()
    if not python.exists():
        log(f"creating virtual environment in {VENV}")
        venv.EnvBuilder(with_pip=True, clear=True).create(VENV)
    fingerprint = install_fingerprint()
    if STAMP.exists() and STAMP.read_text().strip() == fingerprint:
        return python
    log("installing the project and its dev dependencies (first run or pyproject.toml changed)...")
    # Old pips cannot do editable installs from pyproject.toml alone (PEP 660 needs pip >= 21.3).
    pip = [str(python), "-m", "pip", "--disable-pip-version-check"]
    # pip's and setuptools' chatter (including a warning that every flat-layout editable install
    # prints) goes to a log file; it is shown only when the install fails.
    with INSTALL_LOG.open("w") as install_log:
        for step in (["install", "--upgrade", "pip"], ["install", "-e", ".[dev]"]):
            result = subprocess.run(
                [*pip, *step], cwd=ROOT, stdout=install_log, stderr=subprocess.STDOUT
            )
            if result.returncode != 0:
                install_log.flush()
                tail = INSTALL_LOG.read_text(errors="replace").splitlines()[-40:]
                print("\n".join(tail), file=sys.stderr)
                log(f"full log: {INSTALL_LOG}")
                raise subprocess.CalledProcessError(result.returncode, result.args)
    # Written only after a successful install, so a failed one is retried next time.
    STAMP.write_text(fingerprint + "\n")
    return python


def run(command: list[str]) -> int:
    process = subprocess.Popen(command, cwd=ROOT)

    def forward_sigterm(signum: int, frame: object) -> None:
        # `timeout` or a supervisor stops dev.py with SIGTERM; pass it on rather than orphaning
        # the server or pytest.
        process.terminate()

    signal.signal(signal.SIGTERM, forward_sigterm)
    try:
        return process.wait()
    except KeyboardInterrupt:
        # The child got the same Ctrl-C from the terminal; give it time to shut down cleanly.
        try:
            return process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            return process.wait()


def main(argv: list[str]) -> int:
    if sys.version_info < MIN_PYTHON:
        wanted = ".".join(map(str, MIN_PYTHON))
        log(f"Python {wanted}+ is required, this is {sys.version.split()[0]}")
        return 2
    if not argv or argv[0] not in {"serve", "test"}:
        print(__doc__, file=sys.stderr)
        return 2
    command, rest = argv[0], argv[1:]
    try:
        python = bootstrap()
    except subprocess.CalledProcessError as error:
        log(f"installing dependencies failed (exit {error.returncode})")
        return 1
    if command == "serve":
        return run([str(python), "manage.py", "serve", *rest])
    return run([str(python), "-m", "pytest", *rest])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
