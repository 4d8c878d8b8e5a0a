"""The live tests' real servers and clients: stdlib HTTP helpers, a long-poll in a thread, an
SSE reader, and uvicorn serving ``config.asgi`` in a subprocess on its own SQLite file (or, with
Redis, two of them sharing a database). Every wait is bounded; subprocesses are stopped in
``finally`` blocks.
"""

from __future__ import annotations

import http.client
import json
import os
import queue
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.child_python import run_text, stop_process

ROOT = Path(__file__).resolve().parents[2]
REDIS_URL = os.environ.get("REDIS_URL", "").strip()
STARTUP_TIMEOUT = 90
STOP_TIMEOUT = 15
FREE_ACTIONS = {"uno", "catch"}
# The turn actions turn_action takes first, in this order.
KEEPS_THE_GAME_GOING = {"draw": 0, "pass": 1}


# ---------------------------------------------------------------------------------------------
# HTTP helpers (stdlib only: the servers are real, so are the clients)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def request(
    url: str,
    token: str | None = None,
    *,
    method: str = "GET",
    body: Any = None,
    headers: dict[str, str] | None = None,
    timeout: float = 10,
) -> tuple[int, dict[str, str], Any]:
    """(status, headers, JSON body or None) of one request; HTTP errors are answers too."""
    sent = {"Accept": "application/json", **(headers or {})}
    if token is not None:
        sent["Authorization"] = f"Bearer {token}"
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        sent["Content-Type"] = "application/json"
    req = urllib.request.Request(url, data=data, headers=sent, method=method)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as response:
            raw = response.read()
            status, got = response.status, dict(response.headers)
    except urllib.error.HTTPError as error:
        raw = error.read()
        status, got = error.code, dict(error.headers)
    return status, got, json.loads(raw) if raw else None


def turn_action(legal: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The turn action a test takes to keep a game going: a draw when one is listed, else a
    pass, else the first listed (never UNO or a catch). Hands only grow, so a one-round game
    that tests share never ends under them (playing the first card each time ended it within a
    dozen moves, and the next test found nobody to move)."""
    rest = len(KEEPS_THE_GAME_GOING)
    turn = [a for a in legal if a and a["type"] not in FREE_ACTIONS]
    return min(turn, key=lambda a: KEEPS_THE_GAME_GOING.get(a["type"], rest), default=None)


def move_through_api(base: str, tokens: list[str], game_id: str) -> int:
    """Make one turn action (``turn_action``) as whoever is to move; returns the game's new
    version."""
    for token in tokens:
        status, _, view = request(f"{base}/api/v1/games/{game_id}/", token)
        assert status == 200, view
        chosen = turn_action((view["table"] or {}).get("legal_actions", []))
        if view["your_turn"] and chosen:
            action = {k: v for k, v in chosen.items() if k != "seat"}
            action["expected_version"] = view["version"]
            status, _, after = request(
                f"{base}/api/v1/games/{game_id}/actions/", token, method="POST", body=action
            )
            assert status == 200, after
            return int(after["version"])
    raise AssertionError("nobody could move")


class Poll(threading.Thread):
    """One long-poll in a thread, timed."""

    def __init__(self, url: str, token: str, timeout: float = 40) -> None:
        super().__init__(daemon=True)
        self.url, self.token, self.timeout = url, token, timeout
        self.status: int | None = None
        self.body: Any = None
        self.error: BaseException | None = None
        self.started_at = self.finished_at = 0.0

    def run(self) -> None:
        self.started_at = time.monotonic()
        try:
            self.status, _, self.body = request(self.url, self.token, timeout=self.timeout)
        except BaseException as error:  # reported by the test
            self.error = error
        finally:
            self.finished_at = time.monotonic()


@dataclass
class Event:
    event: str = "message"
    data: str = ""
    id: str | None = None
    comment: bool = False

    def json(self) -> Any:
        return json.loads(self.data)


class EventReader(threading.Thread):
    """Reads a text/event-stream response line by line into a queue of Events (comments too)."""

    def __init__(self, response: http.client.HTTPResponse) -> None:
        super().__init__(daemon=True)
        self.response = response
        self.events: queue.Queue[Event | None] = queue.Queue()

    def run(self) -> None:
        current = Event()
        fields = False
        try:
            while True:
                line = self.response.readline()
                if not line:
                    break
                text = line.decode().rstrip("\r\n")
                if text == "":
                    if fields:
                        self.events.put(current)
                    current, fields = Event(), False
                elif text.startswith(":"):
                    self.events.put(Event(event="", data=text[1:].strip(), comment=True))
                else:
                    name, _, value = text.partition(":")
                    value = value.removeprefix(" ")
                    if name == "data":
                        current.data = f"{current.data}\n{value}" if current.data else value
                    elif name == "event":
                        current.event = value
                    elif name == "id":
                        current.id = value
                    else:
                        continue  # retry: not an event of its own
                    fields = True
        except Exception:  # the test closed the connection under us: the stream is over
            pass
        finally:
            self.events.put(None)

    def next(self, timeout: float, *, comments: bool = False) -> Event | None:
        """The next event (skipping comments unless asked), or None at the end of the stream."""
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(f"no event within {timeout} s")
            try:
                event = self.events.get(timeout=remaining)
            except queue.Empty:
                raise AssertionError(f"no event within {timeout} s") from None
            if event is None or comments or not event.comment:
                return event


def open_stream(
    base: str, path: str, token: str, headers: dict[str, str] | None = None
) -> tuple[http.client.HTTPConnection, http.client.HTTPResponse]:
    host, port = base.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=30)
    connection.request(
        "GET",
        path,
        headers={
            "Authorization": f"Bearer {token}",
            "Accept": "text/event-stream",
            **(headers or {}),
        },
    )
    return connection, connection.getresponse()


# ---------------------------------------------------------------------------------------------
# Real uvicorn servers in subprocesses

SETUP_SCRIPT = """
import json
from games import services
from players.models import ApiToken, User
users, tokens = {}, {}
for name in ("alice", "bob", "carol"):
    users[name] = User.objects.create_user(username=name, display_name=name.title())
    tokens[name] = ApiToken.issue(users[name], name="live test", scope="play")[1]
game = services.create_game(host=users["alice"], max_players=2, target_score=0)
services.join_game(user=users["bob"], invite_code=game.invite_code)
print("LIVE-SETUP " + json.dumps({"game": str(game.pk), "tokens": tokens}))
"""


def server_environ(
    database: Path,
    redis_url: str | None,
    settings_dir: Path | None = None,
    extra: dict[str, str] | None = None,
) -> dict[str, str]:
    """The server's environment: its SQLite file (or ``extra``'s DATABASE_URL), no Redis unless
    ``redis_url``, and ``extra`` last."""
    environ = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "CI"}}
    if settings_dir is not None:
        environ["PYTHONPATH"] = os.pathsep.join([str(settings_dir), str(ROOT)])
        environ["DJANGO_SETTINGS_MODULE"] = ASYNC_CHAIN_SETTINGS
    environ.update(
        SQLITE_PATH=str(database),
        PYTHONUNBUFFERED="1",
        LOG_LEVEL="WARNING",
        # The Redis variant shares the cache (and so the throttle counters) with other runs.
        THROTTLE_ACTIONS="100000/min",
        THROTTLE_GAMES="100000/min",
        METRICS_TOKEN=METRICS_TOKEN,
    )
    if redis_url:
        environ["REDIS_URL"] = redis_url
    environ.update(extra or {})
    return environ


def prepare_database(
    database: Path, redis_url: str | None, extra: dict[str, str] | None = None
) -> dict[str, Any]:
    """Migrate a fresh SQLite file (or ``extra``'s empty DATABASE_URL) and create alice, bob
    (playing a game) and carol."""
    environ = server_environ(database, redis_url, extra=extra)
    manage = [sys.executable, "manage.py"]
    subprocess.run(
        [*manage, "migrate", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=environ,
        check=True,
        timeout=STARTUP_TIMEOUT,
    )
    result = run_text([*manage, "shell", "-c", SETUP_SCRIPT], env=environ, timeout=STARTUP_TIMEOUT)
    assert result.returncode == 0, result.stderr
    line = next(x for x in result.stdout.splitlines() if x.startswith("LIVE-SETUP "))
    setup: dict[str, Any] = json.loads(line.removeprefix("LIVE-SETUP "))
    return setup


# The project's settings without WhiteNoise's middleware, which is sync-only (whitenoise 6.12):
# under ASGI Django then runs every request through a thread of its own, blocked in that
# middleware for as long as the view takes, long-polls included. Without it the whole chain is
# async and a waiting long-poll holds no thread at all.
ASYNC_CHAIN_SETTINGS = "live_async_chain_settings"
ASYNC_CHAIN_MODULE = """
from config.settings import *  # noqa: F403

MIDDLEWARE = [m for m in MIDDLEWARE if "whitenoise" not in m]  # noqa: F405
"""


METRICS_TOKEN = "live-test-metrics"


def wait_until(holds: Any, timeout: float, what: str) -> None:
    """Wait until the server's state ``holds()`` (asked every 50 ms), failing after ``timeout``
    seconds: a wait on what the server says, never a sleep that hopes."""
    deadline = time.monotonic() + timeout
    while not holds():
        assert time.monotonic() < deadline, f"not {what} within {timeout} s"
        time.sleep(0.05)


@dataclass
class Server:
    base: str
    process: subprocess.Popen[bytes]
    log: Path

    def waiting_polls(self) -> float:
        """How many long-polls wait now (its ``/metrics``)."""
        req = urllib.request.Request(
            f"{self.base}/metrics", headers={"Authorization": f"Bearer {METRICS_TOKEN}"}
        )
        with urllib.request.urlopen(req, timeout=5) as response:
            text = response.read().decode()
        for line in text.splitlines():
            if line.startswith("unoallwild_live_waiting_polls "):
                return float(line.split()[1])
        raise AssertionError("no waiting-polls gauge in /metrics")

    def log_text(self) -> str:
        return self.log.read_text(errors="replace")

    def threads(self) -> int:
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("Threads:"):
                return int(line.split()[1])
        return -1


def start_server(
    database: Path,
    log: Path,
    redis_url: str | None = None,
    settings_dir: Path | None = None,
    extra: dict[str, str] | None = None,
) -> Server:
    """uvicorn serving config.asgi, as `manage.py serve` runs it."""
    port = free_port()
    with log.open("wb") as out:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "uvicorn",
                "config.asgi:application",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--lifespan",
                "off",
                "--log-level",
                "warning",
            ],
            cwd=ROOT,
            env=server_environ(database, redis_url, settings_dir, extra),
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    server = Server(f"http://127.0.0.1:{port}", process, log)
    deadline = time.monotonic() + STARTUP_TIMEOUT
    while time.monotonic() < deadline and process.poll() is None:
        try:
            with urllib.request.urlopen(f"{server.base}/healthz", timeout=2) as response:
                if response.status == 200:
                    return server
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            time.sleep(0.2)
    stop_server(server)
    raise AssertionError(f"uvicorn never answered; log:\n{server.log_text()}")


def stop_server(server: Server) -> None:
    stop_process(server.process, timeout=STOP_TIMEOUT)


@dataclass
class Deployment:
    servers: list[Server]
    game: str
    tokens: dict[str, str]
    latencies: dict[str, list[float]] = field(default_factory=dict)

    @property
    def base(self) -> str:
        return self.servers[0].base

    def players(self) -> list[str]:
        return [self.tokens["alice"], self.tokens["bob"]]

    def version(self) -> int:
        status, _, view = request(f"{self.base}/api/v1/games/{self.game}/", self.tokens["alice"])
        assert status == 200, view
        return int(view["version"])
