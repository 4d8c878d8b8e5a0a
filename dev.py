#!/usr/bin/env python3
"""Run the service or its tests on a machine that has nothing but Python 3.11+.

    python3 dev.py serve [manage.py serve options]   # http://127.0.0.1:8000
    python3 dev.py test [pytest options]

Both create ./.venv when it is missing. `serve` installs the project with what the service needs
at run time; `test` adds the dev extras (pytest, the browsers' drivers, the reference engines the
tests play against). An install is repeated only when pyproject.toml changed (a hash of it is kept
in .venv per set of extras), so the second run starts in well under a second, and `serve` after
`test` installs nothing: the dev set includes the runtime one. Standard library only: this runs
before any dependency is installed.
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
INSTALL_LOG = VENV / "install.log"
MIN_PYTHON = (3, 11)
# What each command installs: the project's extras ("" is the service's own dependencies only).
EXTRAS = {"serve": "", "test": "dev"}
# Sets that contain another: a venv installed for `test` already has everything `serve` needs.
INCLUDES = {"": {"", "dev"}, "dev": {"dev"}}


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


def stamp_path(extras: str) -> Path:
    """Where the fingerprint of the last successful install of ``extras`` is kept."""
    return VENV / f".unoallwild-install-stamp-{extras or 'runtime'}"


def install_command(extras: str) -> list[str]:
    """pip's arguments for the project with ``extras``: `-e .` or `-e .[dev]`."""
    return ["install", "-e", f".[{extras}]" if extras else "."]


def is_installed(extras: str, fingerprint: str) -> bool:
    """Whether ``extras`` (or a set that contains it) was installed from this fingerprint."""
    for covering in INCLUDES[extras]:
        stamp = stamp_path(covering)
        if stamp.exists() and stamp.read_text().strip() == fingerprint:
            return True
    return False


def log(message: str) -> None:
    print(f"dev.py: {message}", file=sys.stderr, flush=True)


def bootstrap(extras: str) -> Path:
    """Make sure .venv exists and has the current dependencies of ``extras``; return its python.

    pip only adds and upgrades, so installing a smaller set after a larger one (`serve` after
    `test`) would remove nothing; it is skipped anyway when the larger set is current."""
    python = venv_python()
    if not python.exists():
        log(f"creating virtual environment in {VENV}")
        venv.EnvBuilder(with_pip=True, clear=True).create(VENV)
    fingerprint = install_fingerprint()
    if is_installed(extras, fingerprint):
        return python
    what = f"its {extras} dependencies" if extras else "what the service needs"
    log(f"installing the project and {what} (first run or pyproject.toml changed)...")
    # Old pips cannot do editable installs from pyproject.toml alone (PEP 660 needs pip >= 21.3).
    pip = [str(python), "-m", "pip", "--disable-pip-version-check"]
    # pip's and setuptools' chatter (including a warning that every flat-layout editable install
    # prints) goes to a log file; it is shown only when the install fails.
    with INSTALL_LOG.open("w") as install_log:
        for step in (["install", "--upgrade", "pip"], install_command(extras)):
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
    stamp_path(extras).write_text(fingerprint + "\n")
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
    if not argv or argv[0] not in EXTRAS:
        print(__doc__, file=sys.stderr)
        return 2
    command, rest = argv[0], argv[1:]
    try:
        python = bootstrap(EXTRAS[command])
    except subprocess.CalledProcessError as error:
        log(f"installing dependencies failed (exit {error.returncode})")
        return 1
    if command == "serve":
        return run([str(python), "manage.py", "serve", *rest])
    return run([str(python), "-m", "pytest", *rest])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
