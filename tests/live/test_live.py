"""Live updates: the long-poll of ``events/?wait=``, the SSE stream ``stream/``, and the notifier
behind them (live/announce.py, live/driver.py, games/api/streams.py and polls.py).

Three kinds of tests:

- in-process, through the test client (validation, authorization, shapes) or the live server
  (a WSGI server: a long-poll woken by a move, the stream's keep-alive and end);
- against a real uvicorn server started as a subprocess on its own temporary SQLite file without
  Redis (the embedded default), whatever database the surrounding run uses: 50 waiting long-polls
  do not stop a game view, and one move wakes them all; the stream under ASGI;
- through Redis pub/sub, only when REDIS_URL is set (the PostgreSQL + Redis pass): a notifier
  woken by another's PUBLISH alone, and two uvicorn servers sharing one database where a move made
  through one wakes a client waiting on the other. They are defined only then, rather than
  skipped, because a skip fails a CI=true run.

Every wait is bounded; subprocesses are stopped in ``finally`` blocks.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import os
import queue
import random
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from django.test import override_settings

from games.models import Game
from live import announce
from tests.games.conftest import (
    Player,
    game_url,
    player_to_move,
    random_action,
    start_game,
)

# The pass's Redis (pub/sub, user marks) and uvicorn on its database: on both passes of CI.
pytestmark = pytest.mark.services

ROOT = Path(__file__).resolve().parents[2]
REDIS_URL = os.environ.get("REDIS_URL", "").strip()
STARTUP_TIMEOUT = 90
STOP_TIMEOUT = 15
FREE_ACTIONS = {"uno", "catch"}


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


def move_through_api(base: str, tokens: list[str], game_id: str) -> int:
    """Make one turn action as whoever is to move; returns the game's new version."""
    for token in tokens:
        status, _, view = request(f"{base}/api/v1/games/{game_id}/", token)
        assert status == 200, view
        legal = [a for a in (view["table"] or {}).get("legal_actions", []) if a]
        turn = [a for a in legal if a["type"] not in FREE_ACTIONS]
        if view["your_turn"] and turn:
            action = {k: v for k, v in turn[0].items() if k != "seat"}
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
    database: Path, redis_url: str | None, settings_dir: Path | None = None
) -> dict[str, str]:
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
    return environ


def prepare_database(database: Path, redis_url: str | None) -> dict[str, Any]:
    """Migrate a fresh SQLite file and create alice, bob (playing a game) and carol."""
    environ = server_environ(database, redis_url)
    manage = [sys.executable, "manage.py"]
    subprocess.run(
        [*manage, "migrate", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=environ,
        check=True,
        timeout=STARTUP_TIMEOUT,
    )
    result = subprocess.run(
        [*manage, "shell", "-c", SETUP_SCRIPT],
        cwd=ROOT,
        env=environ,
        capture_output=True,
        text=True,
        timeout=STARTUP_TIMEOUT,
    )
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
    database: Path, log: Path, redis_url: str | None = None, settings_dir: Path | None = None
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
            env=server_environ(database, redis_url, settings_dir),
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
    if server.process.poll() is None:
        server.process.terminate()
        try:
            server.process.wait(timeout=STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            server.process.kill()
            server.process.wait(timeout=STOP_TIMEOUT)


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


@pytest.fixture(scope="module")
def embedded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Deployment]:
    """One uvicorn server, SQLite, no Redis: the default a checkout runs."""
    folder = tmp_path_factory.mktemp("live-embedded")
    database = folder / "live.sqlite3"
    setup = prepare_database(database, None)
    server = start_server(database, folder / "uvicorn.log")
    try:
        yield Deployment([server], setup["game"], setup["tokens"])
    finally:
        stop_server(server)


@pytest.fixture(scope="module")
def async_chain(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Deployment]:
    """Like ``embedded``, with every middleware async (see ASYNC_CHAIN_SETTINGS)."""
    folder = tmp_path_factory.mktemp("live-async-chain")
    (folder / f"{ASYNC_CHAIN_SETTINGS}.py").write_text(ASYNC_CHAIN_MODULE)
    database = folder / "live.sqlite3"
    setup = prepare_database(database, None)
    server = start_server(database, folder / "uvicorn.log", settings_dir=folder)
    try:
        yield Deployment([server], setup["game"], setup["tokens"])
    finally:
        stop_server(server)


# ---------------------------------------------------------------------------------------------
# In-process: the long-poll's contract


@pytest.fixture
def waits(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int, float | None]]:
    """The notifier's waits of the requests in the test, answered at once as if their time ran
    out: an answer "at once" is one with no wait here, not one that came fast."""
    seen: list[tuple[str, int, float | None]] = []

    async def wait(self: Any, key: Any, *, above: int, timeout: float | None, **_: Any) -> None:
        seen.append((str(key), above, timeout))

    def wait_blocking(self: Any, key: Any, *, above: int, timeout: float) -> None:
        seen.append((str(key), above, timeout))

    monkeypatch.setattr(announce.Notifier, "wait", wait)
    monkeypatch.setattr(announce.Notifier, "wait_blocking", wait_blocking)
    return seen


@pytest.mark.django_db
@pytest.mark.usefixtures("lift_throttles")
class TestLongPollContract:
    def test_without_wait_the_move_log_answers_as_before(
        self, alice: Player, bob: Player, waits: list[Any]
    ) -> None:
        game_id = start_game(alice, bob, target_score=0)
        version = Game.objects.get(pk=game_id).version
        response = alice.events(game_id)
        assert response.status_code == 200
        page = response.json()
        assert set(page) == {"moves", "next_after", "has_more"}
        assert page["next_after"] == version and page["has_more"] is False
        empty = alice.events(game_id, after=version)
        assert waits == []
        assert empty.json() == {"moves": [], "next_after": version, "has_more": False}

    def test_moves_already_there_are_answered_at_once(
        self, alice: Player, bob: Player, waits: list[Any]
    ) -> None:
        game_id = start_game(alice, bob, target_score=0)
        response = alice.events(game_id, after=0, wait=25)
        assert waits == []
        assert response.status_code == 200
        assert response.json()["moves"], "the start is a move"
        assert response.json() == alice.events(game_id, after=0).json()

    def test_nothing_new_answers_an_empty_page_when_the_wait_is_over(
        self, alice: Player, bob: Player, waits: list[Any]
    ) -> None:
        game_id = start_game(alice, bob, target_score=0)
        version = Game.objects.get(pk=game_id).version
        response = alice.events(game_id, after=version, wait=1)
        assert response.status_code == 200
        assert response.json() == {"moves": [], "next_after": version, "has_more": False}
        # One wait, for a version above this one, of up to the second asked; it ran out.
        ((key, above, timeout),) = waits
        assert (key, above) == (game_id, version)
        assert timeout is not None and 0.5 < timeout <= 1

    @pytest.mark.parametrize("wait", ["-1", "26", "abc", "1.5", ""])
    def test_wait_must_be_a_whole_number_of_seconds_up_to_25(
        self, alice: Player, bob: Player, wait: str, waits: list[Any]
    ) -> None:
        game_id = start_game(alice, bob, target_score=0)
        response = alice.get(game_url(game_id, "events/") + f"?wait={wait}")
        assert waits == []
        assert response.status_code == 400, response.content
        assert response.json()["error"]["code"] == "invalid_request"

    def test_a_strangers_long_poll_is_404_at_once(
        self, alice: Player, bob: Player, carol: Player, waits: list[Any]
    ) -> None:
        game_id = start_game(alice, bob, target_score=0)
        version = Game.objects.get(pk=game_id).version
        response = carol.events(game_id, after=version, wait=10)
        assert waits == []
        assert response.status_code == 404
        assert response.json()["error"]["code"] == "not_found"
        missing = carol.events(uuid.uuid4(), wait=10)
        assert missing.status_code == 404

    def test_without_credentials_it_is_401(
        self, alice: Player, bob: Player, anonymous: Any
    ) -> None:
        game_id = start_game(alice, bob, target_score=0)
        response = anonymous.get(game_url(game_id, "events/"), {"wait": 5})
        assert response.status_code == 401
        assert response["WWW-Authenticate"] == 'Bearer realm="api"'


@pytest.mark.django_db
@pytest.mark.usefixtures("lift_throttles")
def test_a_waiting_client_is_marked_as_watching_the_game(
    alice: Player, bob: Player, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A long poll that waits records that its player watches the game (live.presence)."""
    from live import presence

    calls: list[tuple[Any, Any, Any]] = []

    def mark_watching(user_id: Any, game_id: Any, ttl: Any, tab: str = "") -> None:
        calls.append((user_id, game_id, ttl))

    monkeypatch.setattr(presence, "mark_watching", mark_watching)
    game_id = start_game(alice, bob, target_score=0)
    version = Game.objects.get(pk=game_id).version
    assert alice.events(game_id, after=version).status_code == 200
    assert calls == []  # no wait, no presence
    assert alice.events(game_id, after=version, wait=1).status_code == 200
    assert calls == [(alice.user.pk, game_id, 6)]


@pytest.mark.django_db
@pytest.mark.usefixtures("lift_throttles")
class TestStreamContract:
    def test_without_event_stream_accept_it_answers_the_first_update_as_json(
        self, alice: Player, bob: Player
    ) -> None:
        game_id = start_game(alice, bob, target_score=0)
        version = Game.objects.get(pk=game_id).version
        response = alice.get(game_url(game_id, "stream/"))
        assert response.status_code == 200
        assert response["Content-Type"] == "application/json"
        update = response.json()
        assert update["version"] == version and update["status"] == "active"
        assert update["moves"] == alice.events(game_id).json()["moves"]
        assert update["next_after"] == version and update["has_more"] is False

    @pytest.mark.parametrize(
        ("query", "headers"),
        [("?after=-1", {}), ("?after=x", {}), ("", {"Last-Event-ID": "x"})],
    )
    def test_a_bad_cursor_is_400(
        self, alice: Player, bob: Player, query: str, headers: dict[str, str]
    ) -> None:
        game_id = start_game(alice, bob, target_score=0)
        response = alice.get(
            game_url(game_id, "stream/") + query, Accept="text/event-stream", **headers
        )
        assert response.status_code == 400
        assert response["Content-Type"] == "application/json"
        assert response.json()["error"]["code"] == "invalid_request"

    def test_a_stranger_gets_404_in_json_even_when_asking_for_a_stream(
        self, alice: Player, bob: Player, carol: Player
    ) -> None:
        game_id = start_game(alice, bob, target_score=0)
        response = carol.get(game_url(game_id, "stream/"), Accept="text/event-stream")
        assert response.status_code == 404
        assert response["Content-Type"] == "application/json"
        assert response.json()["error"]["code"] == "not_found"


# ---------------------------------------------------------------------------------------------
# In-process, through the live server (WSGI): woken by a move made by another client


def _act_for_whoever_moves(players: list[Player], game_id: str) -> None:
    player = player_to_move(players, game_id)
    view = player.table(game_id)
    response = player.act(game_id, random_action(view, random.Random(7)))
    assert response.status_code == 200, response.content


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("lift_throttles")
def test_a_waiting_long_poll_returns_within_a_second_of_a_move(
    live_server: Any, alice: Player, bob: Player
) -> None:
    game_id = start_game(alice, bob, target_score=0)
    version = Game.objects.get(pk=game_id).version
    poll = Poll(
        f"{live_server.url}{game_url(game_id, 'events/')}?after={version}&wait=10", bob.token
    )
    poll.start()
    assert announce.notifier().wait_for_waiters(game_id, timeout=10), "the poll never waited"
    assert poll.is_alive(), "the long-poll answered before anything happened"
    moved_at = time.monotonic()
    _act_for_whoever_moves([alice, bob], game_id)
    poll.join(timeout=10)
    assert not poll.is_alive() and poll.error is None, poll.error
    latency = poll.finished_at - moved_at
    print(f"\nlong-poll wake-up after a move (live server, in-process publish): {latency:.3f} s")
    # Woken by the move, well before its ten seconds ran out (which answer no moves).
    assert poll.status == 200, poll.body
    assert [m["version"] for m in poll.body["moves"]] == [version + 1]


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("lift_throttles")
def test_the_stream_keeps_alive_and_ends_with_the_game_under_wsgi(
    live_server: Any, alice: Player, bob: Player
) -> None:
    game_id = start_game(alice, bob, target_score=0)
    version = Game.objects.get(pk=game_id).version
    with override_settings(LIVE_HEARTBEAT_SECONDS=0.3):
        connection, response = open_stream(live_server.url, game_url(game_id, "stream/"), bob.token)
        try:
            assert response.status == 200
            assert response.getheader("Content-Type") == "text/event-stream"
            reader = EventReader(response)
            reader.start()
            first = reader.next(5)
            assert first is not None and first.event == "version"
            assert first.json()["version"] == version and first.id == str(version)
            beat = reader.next(3, comments=True)
            assert beat is not None and beat.comment and beat.data == "keep-alive"
            # alice leaves: bob wins, the game is over, the stream says so and ends.
            assert alice.leave(game_id).status_code == 200
            update = reader.next(5)
            assert update is not None and update.event == "version"
            assert update.json()["status"] == "finished"
            assert update.json()["moves"]
            last_id = update.id
            end = reader.next(5)
            assert end is not None and end.event == "end"
            assert end.json() == {"reason": "finished"}
            assert reader.next(5) is None  # closed by the server
        finally:
            connection.close()
    # Reconnecting with everything delivered: 204, which stops EventSource for good.
    connection, response = open_stream(
        live_server.url, game_url(game_id, "stream/"), bob.token, {"Last-Event-ID": str(last_id)}
    )
    try:
        assert response.status == 204
    finally:
        connection.close()


# ---------------------------------------------------------------------------------------------
# A real uvicorn server (ASGI), SQLite, no Redis


def test_fifty_waiting_long_polls_do_not_delay_a_game_view(embedded: Deployment) -> None:
    version = embedded.version()
    alice, bob = embedded.players()
    url = f"{embedded.base}/api/v1/games/{embedded.game}/events/?after={version}&wait=10"
    polls = [Poll(url, alice if i % 2 else bob, timeout=30) for i in range(50)]
    for poll in polls:
        poll.start()
    server = embedded.servers[0]
    wait_until(lambda: server.waiting_polls() == 50, 30, "fifty long-polls waiting")
    waiting = [p for p in polls if p.is_alive()]
    assert len(waiting) == 50, [(p.status, p.body, p.error) for p in polls if not p.is_alive()]
    threads = server.threads()

    started = time.monotonic()
    status, _, view = request(f"{embedded.base}/api/v1/games/{embedded.game}/", alice)
    view_seconds = time.monotonic() - started
    assert status == 200 and view["version"] == version
    # Answered while every long-poll still waits: none holds what the view needs.
    assert all(p.is_alive() for p in polls) and server.waiting_polls() == 50

    moved_at = time.monotonic()
    new_version = move_through_api(embedded.base, embedded.players(), embedded.game)
    for poll in polls:
        poll.join(timeout=10)
    assert all(not p.is_alive() and p.error is None for p in polls), [p.error for p in polls]
    assert {p.status for p in polls} == {200}
    assert all(p.body["moves"] and p.body["next_after"] == new_version for p in polls)
    latencies = sorted(p.finished_at - moved_at for p in polls)
    print(
        f"\n50 long-polls under uvicorn: game view {view_seconds * 1000:.0f} ms while they "
        f"waited ({threads} server threads); woken by a move in "
        f"median {statistics.median(latencies):.3f} s, max {latencies[-1]:.3f} s"
    )


def test_waiting_long_polls_hold_no_thread_when_every_middleware_is_async(
    async_chain: Deployment,
) -> None:
    server = async_chain.servers[0]
    alice, bob = async_chain.players()
    version = async_chain.version()
    before = server.threads()
    url = f"{async_chain.base}/api/v1/games/{async_chain.game}/events/?after={version}&wait=10"
    polls = [Poll(url, alice if i % 2 else bob, timeout=30) for i in range(50)]
    for poll in polls:
        poll.start()
    wait_until(lambda: server.waiting_polls() == 50, 30, "fifty long-polls waiting")
    assert all(p.is_alive() for p in polls)
    during = server.threads()
    move_through_api(async_chain.base, [alice, bob], async_chain.game)
    for poll in polls:
        poll.join(timeout=10)
    assert {p.status for p in polls} == {200}
    print(f"\nall-async middleware: {before} server threads before, {during} with 50 waiting")
    assert during < before + 10


def test_a_long_poll_under_uvicorn_wakes_within_a_second(embedded: Deployment) -> None:
    version = embedded.version()
    alice, _ = embedded.players()
    poll = Poll(
        f"{embedded.base}/api/v1/games/{embedded.game}/events/?after={version}&wait=10", alice
    )
    poll.start()
    server = embedded.servers[0]
    wait_until(lambda: server.waiting_polls() == 1, 30, "the long-poll waiting")
    assert poll.is_alive()
    moved_at = time.monotonic()
    move_through_api(embedded.base, embedded.players(), embedded.game)
    poll.join(timeout=10)
    # Woken by the move (its ten seconds would have answered no moves).
    assert poll.status == 200 and poll.body["moves"], (poll.status, poll.body, poll.error)
    latency = poll.finished_at - moved_at
    print(f"\nlong-poll wake-up under uvicorn: {latency:.3f} s")


def test_a_strangers_long_poll_under_uvicorn_is_404_at_once(embedded: Deployment) -> None:
    status, _, body = request(
        f"{embedded.base}/api/v1/games/{embedded.game}/events/?wait=10",
        embedded.tokens["carol"],
        timeout=5,  # at once: well before its ten seconds would run out
    )
    assert status == 404 and body["error"]["code"] == "not_found"
    assert embedded.servers[0].waiting_polls() == 0


def test_the_stream_delivers_a_version_event_after_a_move(embedded: Deployment) -> None:
    version = embedded.version()
    path = f"/api/v1/games/{embedded.game}/stream/?after={version}"
    connection, response = open_stream(embedded.base, path, embedded.tokens["alice"])
    try:
        assert response.status == 200
        assert response.getheader("Content-Type") == "text/event-stream"
        assert response.getheader("Cache-Control") == "no-cache"
        reader = EventReader(response)
        reader.start()
        first = reader.next(5)
        assert first is not None and first.event == "version"
        assert first.json() == {
            "version": version,
            "status": "active",
            "moves": [],
            "next_after": version,
            "has_more": False,
        }
        moved_at = time.monotonic()
        new_version = move_through_api(embedded.base, embedded.players(), embedded.game)
        update = reader.next(5)
        latency = time.monotonic() - moved_at
        print(f"\nSSE version event after a move under uvicorn: {latency:.3f} s")
        assert update is not None and update.event == "version"
        data = update.json()
        assert data["version"] == new_version and update.id == str(new_version)
        assert [m["version"] for m in data["moves"]] == [new_version]
    finally:
        connection.close()

    # Resuming with Last-Event-ID (wins over ?after=) sends what came after it, at once.
    connection, response = open_stream(
        embedded.base,
        path.replace(f"after={version}", "after=0"),
        embedded.tokens["alice"],
        {"Last-Event-ID": str(version)},
    )
    try:
        reader = EventReader(response)
        reader.start()
        resumed = reader.next(5)
        assert resumed is not None and resumed.event == "version"
        assert [m["version"] for m in resumed.json()["moves"]] == [new_version]
    finally:
        connection.close()


def test_a_stream_with_views_brings_the_seat_to_act_its_view_under_uvicorn(
    embedded: Deployment,
) -> None:
    """``?view=true``: a ``view`` event (the seat's view, as the game view answers it) follows
    the first version event, and the version event of a change that lets the seat act; the
    other seat gets the version event alone."""
    version = embedded.version()
    readers: dict[str, EventReader] = {}
    connections = []
    try:
        for name in ("alice", "bob"):
            path = f"/api/v1/games/{embedded.game}/stream/?after={version}&view=true"
            connection, response = open_stream(embedded.base, path, embedded.tokens[name])
            connections.append(connection)
            assert response.status == 200
            readers[name] = EventReader(response)
            readers[name].start()
            first = readers[name].next(5)
            assert first is not None and first.event == "version"
            assert "view" not in first.json()
            first_view = readers[name].next(5)
            assert first_view is not None and first_view.event == "view"
            assert first_view.json()["version"] == version
        new_version = move_through_api(embedded.base, embedded.players(), embedded.game)
        views = 0
        for name, reader in readers.items():
            update = reader.next(5)
            assert update is not None and update.event == "version"
            assert update.json()["version"] == new_version
            status, _, view = request(
                f"{embedded.base}/api/v1/games/{embedded.game}/", embedded.tokens[name]
            )
            assert status == 200
            if view["table"]["legal_actions"]:
                sent = reader.next(5)
                assert sent is not None and sent.event == "view", name
                assert sent.json() == view, name
                views += 1
            else:
                with pytest.raises(AssertionError, match="no event"):
                    reader.next(1)  # nothing more for a seat that may not act
        assert views >= 1, "somebody may act after a move"
    finally:
        for connection in connections:
            connection.close()


# ---------------------------------------------------------------------------------------------
# The notifier itself


def test_publish_never_raises(monkeypatch: pytest.MonkeyPatch) -> None:
    class Broken:
        def publish(self, game_id: Any, version: int) -> None:
            raise RuntimeError("boom")

    monkeypatch.setattr(announce, "_notifier", Broken())
    announce.publish(uuid.uuid4(), 3)  # logged, not raised


def test_redis_down_costs_a_publish_little_and_the_database_recheck_still_wakes() -> None:
    game_id = str(uuid.uuid4())
    notifier = announce.Notifier(
        redis_url="redis://127.0.0.1:1/0",  # nothing listens there
        recheck_seconds=0.2,
        versions=lambda ids: {game_id: 5} if game_id in ids else {},
        release=lambda: None,
    )
    try:
        notifier.publish(game_id, 4)  # fails: Redis is down

        class Untouchable:
            def publish(self, *args: Any) -> None:
                raise AssertionError("tried Redis again at once")

        notifier._publisher = Untouchable()
        notifier.publish(game_id, 4)  # skipped: Redis failed a moment ago

        async def scenario() -> int | None:
            return await notifier.wait(game_id, above=4, timeout=5)

        # Nothing publishes 5: only the database re-check can wake the waiter.
        assert asyncio.run(scenario()) == 5
    finally:
        notifier.stop()


def test_a_waiter_is_woken_only_by_a_newer_version_and_cleaned_up() -> None:
    notifier = announce.Notifier(
        recheck_seconds=3600, versions=lambda ids: {}, release=lambda: None
    )
    game_id = str(uuid.uuid4())
    try:

        async def scenario() -> tuple[int | None, int | None]:
            task = asyncio.create_task(notifier.wait(game_id, above=7, timeout=5))
            await asyncio.sleep(0)  # the task's first step: it registers
            assert notifier.waiting() == 1
            assert notifier.notify(game_id, 7) == 0  # not newer: nobody woken
            notifier.publish(game_id, 8)
            woke = await asyncio.wait_for(task, 1)
            # Published before the wait began: a waiter that registers late is not left behind.
            late = await notifier.wait(game_id, above=7, timeout=0.5)
            return woke, late

        woke, late = asyncio.run(scenario())
        assert (woke, late) == (8, 8)
        assert notifier.waiting() == 0
    finally:
        notifier.stop()


def test_a_players_own_key_wakes_on_its_announcement_and_is_never_read_from_the_database() -> None:
    asked: list[list[str]] = []
    rechecked = threading.Event()

    def versions(ids: list[str]) -> dict[str, int]:
        asked.append(list(ids))
        if len(asked) >= 3:
            rechecked.set()
        return {}

    notifier = announce.Notifier(recheck_seconds=0.05, versions=versions, release=lambda: None)
    game_id = str(uuid.uuid4())
    try:

        async def scenario() -> int | None:
            mark = notifier.user_mark(7)
            game = asyncio.create_task(notifier.wait(game_id, above=1, timeout=5))
            mine = asyncio.create_task(notifier.wait(announce.user_key(7), above=mark, timeout=5))
            await asyncio.sleep(0)  # both register
            # Several re-checks, each reading the game only: the player's key woke nothing.
            assert await asyncio.to_thread(rechecked.wait, 5), "no re-checks"
            assert not mine.done()
            assert notifier.user_mark(8, advance=True) > mark  # another player's counter
            assert notifier.user_mark(7) == mark
            notifier.publish(announce.user_key(7), notifier.user_mark(7, advance=True))
            woke = await asyncio.wait_for(mine, 1)
            game.cancel()
            return woke

        assert asyncio.run(scenario()) is not None
        assert asked and all(ids == [game_id] for ids in asked)
    finally:
        notifier.stop()


def test_requests_left_waiting_on_a_stopped_notifier_read_no_database(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """What the browser tests' teardown relies on (``announce.stop_notifier``): a closed page's
    requests go on waiting on the notifier they began with, and once it is stopped nothing reads
    the database for them, so a test database blocked or dropped meanwhile logs nothing."""
    asked: list[list[str]] = []

    def versions(ids: list[str]) -> dict[str, int]:
        asked.append(list(ids))
        raise RuntimeError("no such table: games_game")

    running = announce.Notifier(recheck_seconds=0.05, versions=versions, release=lambda: None)
    monkeypatch.setattr(announce, "_notifier", running)
    game_id = str(uuid.uuid4())
    assert running.wait_blocking(game_id, above=1, timeout=0.3) is None
    assert asked, "the running notifier re-checks while a request waits"
    asked.clear()
    caplog.clear()

    announce.stop_notifier()

    assert running.wait_blocking(game_id, above=1, timeout=0.3) is None
    assert asked == [] and "re-checking" not in caplog.text
    fresh = announce.notifier()
    try:
        assert fresh is not running
        fresh.publish(game_id, 2)
        assert fresh.wait_blocking(game_id, above=1, timeout=1) == 2
    finally:
        fresh.stop()


# ---------------------------------------------------------------------------------------------
# Redis pub/sub (only when REDIS_URL is set)

if REDIS_URL:

    def test_redis_pubsub_alone_wakes_a_waiter_in_another_process() -> None:
        """Two notifiers stand for two processes; the listener never reads the database (its
        re-check finds nothing), so only the PUBLISH can wake it."""
        listener = announce.Notifier(
            redis_url=REDIS_URL, recheck_seconds=3600, versions=lambda ids: {}, release=lambda: None
        )
        publisher = announce.Notifier(redis_url=REDIS_URL)
        game_id = str(uuid.uuid4())
        try:

            async def scenario() -> tuple[int | None, float]:
                task = asyncio.create_task(listener.wait(game_id, above=3, timeout=10))
                assert await asyncio.to_thread(listener.listening.wait, 5), "never subscribed"
                subscribed = await asyncio.to_thread(listener.wait_subscribed, game_id, timeout=5)
                assert subscribed, "never subscribed"
                publisher.publish(game_id, 3)  # not newer: keeps waiting
                published_at = time.monotonic()
                publisher.publish(game_id, 4)
                # The first version to wake it is 4: 3, sent first, woke nothing.
                woke = await asyncio.wait_for(task, 5)
                return woke, time.monotonic() - published_at

            woke, latency = asyncio.run(scenario())
            print(f"\nRedis pub/sub wake-up between two notifiers: {latency * 1000:.1f} ms")
            assert woke == 4
        finally:
            listener.stop()
            publisher.stop()

    def test_a_players_announcement_reaches_another_process_through_redis() -> None:
        listener = announce.Notifier(
            redis_url=REDIS_URL, recheck_seconds=3600, versions=lambda ids: {}, release=lambda: None
        )
        publisher = announce.Notifier(redis_url=REDIS_URL)
        user_id = uuid.uuid4().int % 10**9
        key = announce.user_key(user_id)
        try:

            async def scenario() -> int | None:
                # One counter for both processes (Redis INCR), whatever their clocks say.
                mark = listener.user_mark(user_id)
                task = asyncio.create_task(listener.wait(key, above=mark, timeout=10))
                assert await asyncio.to_thread(listener.listening.wait, 5), "never subscribed"
                advanced = publisher.user_mark(user_id, advance=True)
                assert advanced == mark + 1 == listener.user_mark(user_id)
                publisher.publish(key, advanced)
                return await asyncio.wait_for(task, 5)

            assert asyncio.run(scenario()) == listener.user_mark(user_id)
        finally:
            listener.stop()
            publisher.stop()

    @pytest.fixture(scope="module")
    def two_servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Deployment]:
        """Two uvicorn servers on one database, both with REDIS_URL: a move applied by one
        reaches clients waiting on the other through Redis."""
        folder = tmp_path_factory.mktemp("live-redis")
        database = folder / "live.sqlite3"
        setup = prepare_database(database, REDIS_URL)
        servers: list[Server] = []
        try:
            for name in ("a", "b"):
                servers.append(start_server(database, folder / f"uvicorn-{name}.log", REDIS_URL))
            yield Deployment(servers, setup["game"], setup["tokens"])
        finally:
            for server in servers:
                stop_server(server)

    def test_a_move_through_another_server_wakes_long_polls_and_streams(
        two_servers: Deployment,
    ) -> None:
        waiting_on, moving_on = two_servers.servers
        version = two_servers.version()
        alice, bob = two_servers.players()
        game = two_servers.game
        polls = [
            Poll(f"{waiting_on.base}/api/v1/games/{game}/events/?after={version}&wait=10", token)
            for token in (alice, bob) * 5
        ]
        for poll in polls:
            poll.start()
        connection, response = open_stream(
            waiting_on.base, f"/api/v1/games/{game}/stream/?after={version}", alice
        )
        try:
            reader = EventReader(response)
            reader.start()
            first = reader.next(5)
            assert first is not None and first.json()["version"] == version
            wait_until(lambda: waiting_on.waiting_polls() == 10, 30, "ten long-polls waiting")
            assert all(p.is_alive() for p in polls)
            moved_at = time.monotonic()
            new_version = move_through_api(moving_on.base, [alice, bob], game)
            update = reader.next(5)
            stream_latency = time.monotonic() - moved_at
            for poll in polls:
                poll.join(timeout=10)
            assert {p.status for p in polls} == {200}
            assert all(p.body["next_after"] == new_version for p in polls)
            latencies = sorted(p.finished_at - moved_at for p in polls)
            assert update is not None and update.json()["version"] == new_version
            print(
                f"\nacross two uvicorn servers via Redis: long-polls woken in max "
                f"{latencies[-1]:.3f} s, stream event in {stream_latency:.3f} s"
            )
        finally:
            connection.close()


def test_the_account_stream_brings_your_turn_with_its_version_under_uvicorn(
    embedded: Deployment,
) -> None:
    """The account event stream (notifications/api/events.py) on the live process: the player
    the turn passes to hears of it, with the version to act on, within about a second."""
    url = f"{embedded.base}/api/v1/games/live/stream/"
    streams: dict[str, tuple[http.client.HTTPConnection, EventReader]] = {}
    try:
        for name in ("alice", "bob"):
            status, _, page = request(f"{url}?format=json&after=0", embedded.tokens[name])
            assert status == 200, page
            assert page["events"] and page["events"][0]["kind"] == "game_started"
            connection, response = open_stream(
                embedded.base,
                "/api/v1/games/live/stream/",
                embedded.tokens[name],
                {"Last-Event-ID": str(page["next_after"])},
            )
            assert response.status == 200
            reader = EventReader(response)
            reader.start()
            streams[name] = (connection, reader)
        for _ in range(10):
            before = {
                name: request(f"{embedded.base}/api/v1/games/{embedded.game}/", token)[2]
                for name, token in embedded.tokens.items()
                if name in streams
            }
            moved_at = time.monotonic()
            new_version = move_through_api(embedded.base, embedded.players(), embedded.game)
            mover = next(name for name, view in before.items() if view["your_turn"])
            other = "bob" if mover == "alice" else "alice"
            status, _, view = request(
                f"{embedded.base}/api/v1/games/{embedded.game}/", embedded.tokens[other]
            )
            if not view["your_turn"]:
                continue  # the mover kept the turn: no "your turn" to anyone
            # The move may have told the other player more first (targeted, swapped, caught).
            deadline = moved_at + 5
            event = streams[other][1].next(5)
            while event is not None and event.event != "your_turn":
                event = streams[other][1].next(max(deadline - time.monotonic(), 0.01))
            assert event is not None and event.event == "your_turn", event
            data = event.json()
            assert (data["game"], data["version"]) == (embedded.game, new_version)
            return
        raise AssertionError("the turn never passed")
    finally:
        for connection, _ in streams.values():
            connection.close()
