"""The README's start command runs the turn-timer sweep without Redis: watch a turn time out."""

from __future__ import annotations

import json
import time
import urllib.request
from pathlib import Path
from typing import Any

from tests.test_serve import embedded_environ, free_port, serve_command, server_process


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
    environ = embedded_environ(tmp_path, TURN_SECONDS_MIN="1", THROTTLE_AUTH="1000/min")
    log_path = tmp_path / "serve.log"
    with server_process(serve_command(port), environ, port, log_path):
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
        _call(base, "POST", "/api/v1/games/join/", tokens[1], {"invite_code": game["invite_code"]})
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
