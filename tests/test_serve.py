"""`manage.py serve` starts a working server from nothing (embedded mode: SQLite, no Redis).

The other tests that start a server take its helpers from here: a free port, the embedded
environment, a server process that is up (its /healthz answers) for a ``with`` block.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.child_python import stop_process

ROOT = Path(__file__).resolve().parent.parent
STARTUP_TIMEOUT = 90  # seconds; the first run migrates and collects static files
STOP_TIMEOUT = 15


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def get_json(url: str) -> tuple[int, object]:
    with urllib.request.urlopen(url, timeout=2) as response:
        return response.status, json.loads(response.read())


def embedded_environ(tmp_path: Path, **settings: str) -> dict[str, str]:
    """This process's environment in embedded mode whatever the surrounding run uses (CI's
    PostgreSQL pass sets DATABASE_URL and REDIS_URL): the SQLite file and the static files in
    ``tmp_path``, DEBUG off, unbuffered output, and ``settings`` over that."""
    environ = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    environ.update(
        SQLITE_PATH=str(tmp_path / "serve.sqlite3"),
        STATIC_ROOT=str(tmp_path / "static"),
        DEBUG="false",
        SECRET_KEY="test-serve-secret",
        PYTHONUNBUFFERED="1",
    )
    environ.update(settings)
    return environ


def serve_command(port: int) -> list[str]:
    """The README's start command, on ``port``."""
    return [sys.executable, "manage.py", "serve", "--port", str(port)]


def wait_healthy(port: int, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + STARTUP_TIMEOUT
    while time.monotonic() < deadline and process.poll() is None:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as r:
                if r.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            time.sleep(0.2)
    raise AssertionError(f"the server never answered; log:\n{log.read_text(errors='replace')}")


@contextmanager
def server_process(
    command: list[str], environ: dict[str, str], port: int, log: Path
) -> Iterator[subprocess.Popen[bytes]]:
    """``command`` run in the checkout with ``environ`` (its output in ``log``) until it answers
    on ``port``'s /healthz; stopped when the block ends."""
    with log.open("wb") as out:
        process = subprocess.Popen(
            command, cwd=ROOT, env=environ, stdout=out, stderr=subprocess.STDOUT
        )
    try:
        wait_healthy(port, process, log)
        yield process
    finally:
        stop_process(process, timeout=15)


def test_serve_migrates_and_answers_healthz(tmp_path: Path) -> None:
    port = free_port()
    log_path = tmp_path / "serve.log"
    with server_process(serve_command(port), embedded_environ(tmp_path), port, log_path):
        assert get_json(f"http://127.0.0.1:{port}/healthz") == (200, {"status": "ok"})
        # With DEBUG off, static files must come from collectstatic's output via WhiteNoise.
        with urllib.request.urlopen(
            f"http://127.0.0.1:{port}/static/admin/css/base.css", timeout=5
        ) as response:
            assert response.status == 200
    log_text = log_path.read_text(errors="replace")
    assert (tmp_path / "serve.sqlite3").exists(), "serve did not migrate the SQLite database"
    assert "periodic jobs run in-process" in log_text
