"""`manage.py serve` starts a working server from nothing (embedded mode: SQLite, no Redis)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

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


def test_serve_migrates_and_answers_healthz(tmp_path: Path) -> None:
    port = free_port()
    environ = {
        key: value
        for key, value in os.environ.items()
        # Embedded mode whatever the surrounding run uses (CI's PostgreSQL pass sets these).
        if key not in {"DATABASE_URL", "REDIS_URL"}
    }
    database = tmp_path / "serve.sqlite3"
    environ.update(
        SQLITE_PATH=str(database),
        STATIC_ROOT=str(tmp_path / "static"),
        DEBUG="false",
        SECRET_KEY="test-serve-secret",
        PYTHONUNBUFFERED="1",
    )
    log_path = tmp_path / "serve.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [sys.executable, "manage.py", "serve", "--port", str(port)],
            cwd=ROOT,
            env=environ,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        try:
            deadline = time.monotonic() + STARTUP_TIMEOUT
            answer = None
            while time.monotonic() < deadline and process.poll() is None:
                try:
                    answer = get_json(f"http://127.0.0.1:{port}/healthz")
                    break
                except (urllib.error.URLError, ConnectionError, TimeoutError):
                    time.sleep(0.2)
            log_text = log_path.read_text(errors="replace")
            assert answer == (200, {"status": "ok"}), f"serve never answered; log:\n{log_text}"
            # With DEBUG off, static files must come from collectstatic's output via WhiteNoise.
            with urllib.request.urlopen(
                f"http://127.0.0.1:{port}/static/admin/css/base.css", timeout=5
            ) as response:
                assert response.status == 200
        finally:
            process.terminate()
            try:
                process.wait(timeout=STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=STOP_TIMEOUT)
    log_text = log_path.read_text(errors="replace")
    assert database.exists(), "serve did not migrate the SQLite database"
    assert "periodic jobs run in-process" in log_text
