"""The README's start command runs the turn-timer sweep without Redis: watch a turn time out."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

from tests.test_serve import ROOT, free_port

STARTUP_TIMEOUT = 90


def _call(base: str, method: str, path: str, token: str | None = None, body: Any = None) -> Any:
    request = urllib.request.Request(
        base + path,
        method=method,
        data=json.dumps(body).encode() if body is not None else None,
        headers={"Content-Type": "application/json"}
        | ({"Authorization": f"Bearer {token}"} if token else {}),
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read() or b"null")


def test_serve_times_out_a_two_second_turn_exactly_once_without_redis(tmp_path: Path) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    environ = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    environ.update(
        SQLITE_PATH=str(tmp_path / "timers.sqlite3"),
        STATIC_ROOT=str(tmp_path / "static"),
        TURN_SECONDS_MIN="1",
        THROTTLE_AUTH="1000/min",
        PYTHONUNBUFFERED="1",
    )
    log_path = tmp_path / "serve.log"
    with log_path.open("wb") as log:
        server = subprocess.Popen(
            [sys.executable, "manage.py", "serve", "--port", str(port)],
            cwd=ROOT,
            env=environ,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        try:
            deadline = time.monotonic() + STARTUP_TIMEOUT
            while True:
                assert server.poll() is None, log_path.read_text()
                try:
                    _call(base, "GET", "/healthz")
                    break
                except OSError:
                    assert time.monotonic() < deadline, log_path.read_text()
                    time.sleep(0.3)

            tokens = [
                _call(
                    base,
                    "POST",
                    "/api/v1/auth/signup/",
                    body={"username": name, "password": f"{name}-long-password-1"},
                )["token"]["token"]
                for name in ("alice", "bob")
            ]
            game = _call(
                base,
                "POST",
                "/api/v1/games/",
                tokens[0],
                {"max_players": 2, "target_score": 0, "turn_seconds": 2},
            )
            _call(
                base, "POST", "/api/v1/games/join/", tokens[1], {"invite_code": game["invite_code"]}
            )
            started = _call(base, "GET", f"/api/v1/games/{game['id']}/", tokens[0])
            assert started["status"] == "active"
            first_turn = started["table"]["current_seat"]
            start_version = started["version"]

            # Nobody moves. Within 5 s the sweep in the serve process must time the turn out.
            timed_out_at = None
            watch_until = time.monotonic() + 5
            while time.monotonic() < watch_until:
                page = _call(
                    base,
                    "GET",
                    f"/api/v1/games/{game['id']}/events/?after={start_version}",
                    tokens[0],
                )
                timeouts = [m for m in page["moves"] if m["action"]["type"] == "timeout"]
                if timeouts:
                    timed_out_at = timeouts
                    break
                time.sleep(0.2)
            assert timed_out_at, "no timeout within 5 s:\n" + log_path.read_text()[-3000:]
            # The first timeout is the first turn's, and it happened exactly once.
            assert timed_out_at[0]["action"] == {"type": "timeout", "seat": first_turn}
            assert timed_out_at[0]["version"] == start_version + 1
        finally:
            server.terminate()
            try:
                server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
