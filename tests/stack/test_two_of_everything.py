"""Two of everything: two web, two live and two Celery worker processes and one beat, on one
PostgreSQL and one Redis, each run as docker-compose.yml runs its service (tests/stack/harness.py).

- A move posted to one web process reaches the streams on the other live process (and on its own).
- Each turn of a game with a short turn timer times out once: the two workers' sweeps never time
  one turn out twice.
- Each notification is delivered once: a webhook receiver on this machine counts what it gets.
"""

from __future__ import annotations

import http.client
import json
import secrets
import socket
import threading
import time
import uuid
from collections.abc import Iterator
from datetime import datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

import psycopg
import pytest
import requests

from tests.stack.harness import Stack, running_stack
from tests.test_serve import free_port

pytestmark = pytest.mark.stack

API = "/api/v1/"
TURN_SECONDS = 2
PASSWORD = "a-long-Enough-passw0rd"


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    extra_env = {
        # A turn timer short enough to watch several turns run out.
        "TURN_SECONDS_MIN": "1",
        # The webhook receiver is on this machine.
        "WEBHOOK_ALLOW_LOOPBACK": "true",
    }
    with running_stack(
        tmp_path_factory.mktemp("two"), webs=2, lives=2, workers=2, extra_env=extra_env
    ) as running:
        yield running


class Receiver(ThreadingHTTPServer):
    """A webhook receiver: every request's event id and attempt number."""

    def __init__(self) -> None:
        self.received: list[tuple[str, str, str]] = []
        self.lock = threading.Lock()
        super().__init__(("127.0.0.1", free_port()), Hook)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/hook"


class Hook(BaseHTTPRequestHandler):
    server: Receiver

    def do_POST(self) -> None:  # noqa: N802 - the http.server API
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        with self.server.lock:
            self.server.received.append(
                (self.headers["X-Uno-Event-Id"], self.headers["X-Uno-Attempt"], body["kind"])
            )
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    server = Receiver()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


class Person:
    """A player who talks to one web process."""

    def __init__(self, web: str, name: str) -> None:
        self.web = web
        self.session = requests.Session()
        answer = self.session.post(
            f"{web}{API}auth/signup/",
            json={"username": f"{name}-{secrets.token_hex(3)}", "password": PASSWORD},
            timeout=30,
        )
        assert answer.status_code == 201, answer.text
        self.token = answer.json()["token"]["token"]
        self.session.headers["Authorization"] = f"Bearer {self.token}"

    def call(self, method: str, path: str, expect: int = 200, **kwargs: Any) -> Any:
        answer = self.session.request(method, f"{self.web}{API}{path}", timeout=30, **kwargs)
        assert answer.status_code == expect, f"{method} {path}: {answer.status_code} {answer.text}"
        return answer.json() if answer.content else None


class Stream(threading.Thread):
    """``GET games/{id}/stream/`` on one live process: the versions it brings."""

    def __init__(self, live: str, person: Person, game_id: str) -> None:
        super().__init__(daemon=True)
        self.address = urlsplit(live).netloc
        self.path = f"{API}games/{game_id}/stream/"
        self.token = person.token
        self.version = 0
        self.changed = threading.Condition()
        self.opened = threading.Event()
        self.status = 0
        self.connection = http.client.HTTPConnection(self.address, timeout=120)
        self.start()

    def run(self) -> None:
        connection = self.connection
        connection.request(
            "GET",
            self.path,
            headers={"Authorization": f"Bearer {self.token}", "Accept": "text/event-stream"},
        )
        response = connection.getresponse()
        self.status = response.status
        self.opened.set()
        event = ""
        while line := response.readline():
            text = line.decode().rstrip("\r\n")
            if text.startswith("event:"):
                event = text.partition(":")[2].strip()
            elif text.startswith("data:") and event == "version":
                with self.changed:
                    version = int(json.loads(text.partition(":")[2])["version"])
                    self.version = max(self.version, version)
                    self.changed.notify_all()
            elif not text:
                event = ""

    def close(self) -> None:
        """Hang up, as a browser that leaves the page (the live process then stops at once)."""
        if self.connection.sock is not None:
            self.connection.sock.shutdown(socket.SHUT_RDWR)
        self.join(timeout=10)

    def reach(self, version: int, timeout: float = 15) -> bool:
        with self.changed:
            return self.changed.wait_for(lambda: self.version >= version, timeout=timeout)


def new_game(host: Person, guest: Person, **options: Any) -> str:
    game = host.call("POST", "games/", 201, json={"max_players": 2, **options})
    guest.call("POST", "games/join/", json={"invite_code": game["invite_code"]})
    started = host.call("GET", f"games/{game['id']}/")
    assert started["status"] == "active", started["status"]
    return str(game["id"])


def act(people: list[Person], game_id: str) -> int | None:
    """The player who may act takes an action; the game's new version (None: it is over)."""
    for person in people:
        view = person.call("GET", f"games/{game_id}/")
        if view["status"] != "active":
            return None
        legal = [a for a in view["table"]["legal_actions"] if a["type"] != "catch"]
        if not legal:
            continue
        plays = [a for a in legal if a["type"] in ("play", "play_drawn")]
        action = {k: v for k, v in (plays or legal)[0].items() if k != "seat"}
        if action["type"] in ("play", "play_drawn"):
            action["uno"] = True  # a last card is never caught
        done = person.call(
            "POST",
            f"games/{game_id}/actions/",
            json={**action, "expected_version": view["version"]},
            headers={"Idempotency-Key": str(uuid.uuid4())},
        )
        return int(done["version"])
    raise AssertionError("nobody may act in an active game")


def moves_to_both_live_processes(stack: Stack, alice: Person, bob: Person) -> None:
    game_id = new_game(alice, bob)
    live1, live2 = stack.live_urls
    # Each player's stream on the live process the other player's web process is not paired
    # with: alice posts to web 1 and listens on live 2, bob the other way round; a third stream
    # (alice on live 1) sees every move too.
    streams = [Stream(live2, alice, game_id), Stream(live1, bob, game_id)]
    streams.append(Stream(live1, alice, game_id))
    for stream in streams:
        assert stream.opened.wait(30) and stream.status == 200, stream.status
    try:
        for _ in range(12):
            version = act([alice, bob], game_id)
            if version is None:
                break
            for stream in streams:
                assert stream.reach(version), (
                    f"{stream.address}: version {version} never came (at {stream.version})"
                )
    finally:
        for stream in streams:
            stream.close()


def turns_time_out_once(stack: Stack, alice: Person, bob: Person) -> None:
    """Nobody acts: the sweeps time out each turn once, one turn after the other."""
    game_id = new_game(alice, bob, turn_seconds=TURN_SECONDS)
    deadline = time.monotonic() + 60
    while True:
        moves = alice.call("GET", f"games/{game_id}/events/", params={"limit": 200})
        timeouts = [m for m in moves["results" if "results" in moves else "moves"]]
        timeouts = [m for m in timeouts if m["action"].get("type") == "timeout"]
        if len(timeouts) >= 4:
            break
        assert time.monotonic() < deadline, f"{len(timeouts)} timeouts in 60 s"
        time.sleep(0.5)
    first = timeouts[:4]
    # Turn after turn: one seat, then the other, each with its own version...
    seats = [m["seat"] if m["seat"] is not None else m["action"].get("seat") for m in first]
    assert seats[0] != seats[1] and seats[0] == seats[2] and seats[1] == seats[3], first
    versions = [m["version"] for m in first]
    assert versions == sorted(set(versions)), first
    # ...each a full turn after the one before: a turn timed out twice would be a second timeout
    # at once.
    times = [datetime.fromisoformat(m["created_at"].replace("Z", "+00:00")) for m in first]
    gaps = [(b - a).total_seconds() for a, b in zip(times, times[1:], strict=False)]
    assert all(gap >= TURN_SECONDS - 0.05 for gap in gaps), gaps
    # Before a third timeout in a row hands a seat to a bot: alice leaves, the game is over, and
    # no more notifications come of it.
    alice.call("POST", f"games/{game_id}/leave/")
    assert alice.call("GET", f"games/{game_id}/")["status"] == "finished"


def webhook_deliveries_settled(database_url: str) -> tuple[int, int]:
    """(webhook deliveries still due or being sent, webhook events marked sent)."""
    with psycopg.connect(database_url) as connection:
        due = connection.execute(
            "SELECT count(*) FROM notifications_delivery"
            " WHERE channel = 'webhook' AND status IN ('pending', 'held', 'sending')"
        ).fetchone()
        sent = connection.execute(
            "SELECT count(*) FROM notifications_webhookdelivery WHERE status = 'sent'"
        ).fetchone()
    assert due is not None and sent is not None
    return int(due[0]), int(sent[0])


def test_two_webs_two_lives_two_workers_and_a_beat(stack: Stack, receiver: Receiver) -> None:
    web1, web2 = stack.web_urls
    alice, bob = Person(web1, "alice"), Person(web2, "bob")
    bob.call("POST", "notifications/webhooks/", 201, json={"url": receiver.url})

    moves_to_both_live_processes(stack, alice, bob)
    turns_time_out_once(stack, alice, bob)

    # Every webhook delivery settled (beat's relay sweep runs every 5 s), and the receiver got
    # as many events as were marked sent...
    deadline = time.monotonic() + 60
    while True:
        due, sent = webhook_deliveries_settled(stack.database_url)
        with receiver.lock:
            received = list(receiver.received)
        if not due and sent == len(received):
            break
        assert time.monotonic() < deadline, f"{due} due, {sent} sent, {len(received)} received"
        time.sleep(0.5)
    # ...each one once, at its first attempt.
    ids = [event_id for event_id, _, _ in received]
    assert ids and len(ids) == len(set(ids)), received
    assert {attempt for _, attempt, _ in received} == {"1"}, received
    kinds = {kind for _, _, kind in received}
    assert {"your_turn", "timed_out", "match_over"} <= kinds, kinds
    stack.check_alive()
    logs = "\n".join(p.log.read_text(errors="replace") for p in stack.processes)
    for problem in ("IntegrityError", "database is locked", "Traceback"):
        assert problem not in logs, stack.logs()
