"""PostgreSQL restarted under load: requests fail cleanly and retried moves apply exactly once.

A real server (``manage.py serve``, uvicorn) runs on a private PostgreSQL cluster. Client threads
play six games through the HTTP API, each move with its own Idempotency-Key and expected_version.
In the middle of play the cluster is stopped (``pg_ctl stop -m fast``: in-flight transactions are
cut off), kept down while the clients keep sending, and started again. Then:

- every answer the clients got was 2xx or 503 - never a 409 (a retry of a move
  cut off by the outage finds nothing of it and runs), never a 500, never a traceback - and every
  503 was ``service_unavailable`` with a ``Retry-After`` header (pages outside the API too);
- clients that retried each move with the same key until it was answered end with every intended
  move applied exactly once: the move log of each game is exactly the moves its client was told
  were applied, and every key has one finished record;
- replaying every game's log through the engine reproduces the stored state, and every card id
  of the deck is in it exactly once.
"""

from __future__ import annotations

import json
import random
import threading
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg
import pytest

from games.engine import ReplayRNG
from games.engine.uno.actions import NEXT_ROUND, Action
from games.engine.uno.allwild.cards import PRESETS
from games.engine.uno.allwild.game import ALL_WILD as engine
from games.engine.uno.state import ROUND_OVER
from tests.faults.infra import (
    PrivatePostgres,
    Server,
    http,
    refuses_connections,
    server_env,
    two_player_game,
    wait_for,
)

GAMES = 6
MOVES_BEFORE = 3  # moves every game has before the outage
MOVES_PER_GAME = 14
OUTAGE_SECONDS = 4
# A move and its Idempotency-Key record commit together, so a move cut off by the outage left
# nothing behind and its retry runs as soon as the database is back.
FINISH_TIMEOUT = 180
ALLOWED = {200, 201, 503}


@dataclass
class Log:
    """Every answer any client got, for the checks at the end."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    statuses: Counter[int] = field(default_factory=Counter)
    codes: Counter[str] = field(default_factory=Counter)
    bad: list[str] = field(default_factory=list)
    during_outage: Counter[int] = field(default_factory=Counter)
    outage: bool = False

    def record(self, what: str, status: int, headers: dict[str, str], body: bytes) -> None:
        text = body.decode(errors="replace")
        code = ""
        if status >= 400:
            try:
                code = json.loads(text)["error"]["code"]
            except (ValueError, KeyError, TypeError):
                code = "<not the error shape>"
        with self.lock:
            self.statuses[status] += 1
            self.codes[code] += 1
            if self.outage:
                self.during_outage[status] += 1
            problem = ""
            if status not in ALLOWED:
                problem = "status"
            elif "Traceback" in text or 'File "' in text:
                problem = "traceback"
            elif status == 503 and (
                code != "service_unavailable" or not headers.get("retry-after", "").isdigit()
            ):
                problem = "503 without service_unavailable and Retry-After"
            if problem:
                self.bad.append(f"{what}: {problem}: {status} {text[:400]}")


@dataclass
class Client:
    """One game, both of its players, and the moves the server said it applied."""

    server: Server
    log: Log
    game_id: str
    tokens: dict[int, str]  # user id -> token
    rng: random.Random
    applied: list[dict[str, Any]] = field(default_factory=list)  # bodies, in order
    versions: list[int] = field(default_factory=list)  # the version each answer reported
    keys: list[str] = field(default_factory=list)
    finished: bool = False
    error: str = ""

    def _request(self, what: str, method: str, path: str, token: str, **kw: Any) -> Any:
        """Send until the answer is final: 503s and dropped connections are retried with the
        same request (so the same Idempotency-Key)."""
        while True:
            try:
                status, headers, body = http(method, self.server.base + path, token=token, **kw)
            except OSError as exc:  # the server cut the connection: retry
                with self.log.lock:
                    self.log.codes[f"connection: {exc.__class__.__name__}"] += 1
                time.sleep(0.2)
                continue
            self.log.record(f"{method} {path}", status, headers, body)
            if status == 503:
                time.sleep(0.25)
                continue
            return status, body

    def view(self) -> tuple[str, dict[str, Any]]:
        for token in self.tokens.values():
            status, body = self._request("view", "GET", f"/api/v1/games/{self.game_id}/", token)
            assert status == 200, body
            view = json.loads(body)
            if view["your_turn"] or view["status"] != "active":
                return token, view
        raise AssertionError(f"nobody's turn in {self.game_id}: {view}")

    def play(self, moves: int) -> None:
        try:
            while len(self.applied) < moves:
                token, view = self.view()
                if view["status"] != "active":
                    self.finished = True
                    return
                legal = view["table"]["legal_actions"]
                turn_actions = [a for a in legal if a["type"] not in ("uno", "catch")] or legal
                action = {k: v for k, v in self.rng.choice(turn_actions).items() if k != "seat"}
                body = {**action, "expected_version": view["version"]}
                key = str(uuid.uuid4())
                status, answer = self._request(
                    "act",
                    "POST",
                    f"/api/v1/games/{self.game_id}/actions/",
                    token,
                    body=body,
                    headers={"Idempotency-Key": key},
                )
                if status != 200:
                    self.error = f"{body} with key {key}: {status} {answer[:300]!r}"
                    return
                self.applied.append(action)
                self.versions.append(json.loads(answer)["version"])
                self.keys.append(key)
        except Exception as exc:  # reported by the test, not lost in a thread
            self.error = f"{exc.__class__.__name__}: {exc}"


@pytest.fixture
def postgres() -> Iterator[PrivatePostgres]:
    cluster = PrivatePostgres()
    try:
        cluster.start()
        cluster.create_database()
        yield cluster
    finally:
        cluster.destroy()


@pytest.fixture
def server(
    postgres: PrivatePostgres, tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    environ = server_env(
        {
            "DATABASE_URL": postgres.url(),
            # Shared by the fault tests: collectstatic runs once per session.
            "STATIC_ROOT": str(tmp_path_factory.getbasetemp() / "fault-static"),
        }
    )
    running = Server(environ, tmp_path / "serve.log")
    try:
        yield running
    finally:
        running.stop()


def _sign_up(server: Server, name: str) -> tuple[int, str]:
    status, _, body = http(
        "POST",
        server.base + "/api/v1/auth/signup/",
        {"username": name, "password": f"{name}-Correct-Horse-7"},
    )
    assert status == 201, body
    data = json.loads(body)
    return data["user"]["id"], data["token"]["token"]


def _new_game(server: Server, index: int, log: Log) -> Client:
    host_id, host = _sign_up(server, f"host{index}")
    guest_id, guest = _sign_up(server, f"guest{index}")
    game_id = two_player_game(server, host, guest)
    return Client(server, log, game_id, {host_id: host, guest_id: guest}, random.Random(index))


def _probe_other_pages(server: Server, log: Log) -> dict[str, int]:
    """Pages outside the API answer cleanly too while the database is down."""
    seen = {}
    for what, path, headers in [
        ("readiness", "/readyz", {}),
        (
            "admin with a session",
            "/admin/",
            {"Cookie": "sessionid=abcdefghijklmnopqrstuvwxyz012345"},
        ),
        ("web client", "/", {"Cookie": "sessionid=abcdefghijklmnopqrstuvwxyz012345"}),
        ("liveness", "/healthz", {}),
    ]:
        status, response_headers, body = http("GET", server.base + path, headers=headers)
        seen[what] = status
        text = body.decode(errors="replace")
        assert status != 500 and "Traceback" not in text, (what, status, text[:500])
        if status == 503 and what != "readiness":
            log.record(what, status, response_headers, body)
    return seen


def test_a_postgres_restart_under_load_fails_cleanly_and_applies_every_move_once(
    postgres: PrivatePostgres, server: Server
) -> None:
    log = Log()
    clients = [_new_game(server, i, log) for i in range(GAMES)]

    # Play a little, then keep playing in threads while the database goes away.
    threads = [threading.Thread(target=c.play, args=(MOVES_BEFORE,)) for c in clients]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert all(not c.error for c in clients), [c.error for c in clients]
    threads = [threading.Thread(target=c.play, args=(MOVES_PER_GAME,)) for c in clients]
    for thread in threads:
        thread.start()
    wait_for(lambda: sum(len(c.applied) for c in clients) >= GAMES * MOVES_BEFORE + 4, 30, "play")

    log.outage = True
    postgres.stop("fast")
    assert refuses_connections(postgres.port), "PostgreSQL is still listening"
    assert not postgres.accepting()
    pending = [c.game_id for c in clients if len(c.applied) < MOVES_PER_GAME and not c.finished]
    assert pending, "every client had finished before the outage: nothing was in flight"
    wait_for(lambda: log.during_outage[503] >= GAMES, 20, "clients told 503 during the outage")
    others = _probe_other_pages(server, log)
    assert others["readiness"] == 503 and others["liveness"] == 200, others
    assert others["admin with a session"] == 503, others
    time.sleep(OUTAGE_SECONDS)
    applied_during_outage = sum(len(c.applied) for c in clients)
    log.outage = False
    postgres.start()

    for thread in threads:
        thread.join(FINISH_TIMEOUT)
    assert not any(thread.is_alive() for thread in threads), "clients still retrying"
    assert all(not c.error for c in clients), [c.error for c in clients]
    assert sum(len(c.applied) for c in clients) > applied_during_outage
    assert not log.bad, "\n".join(log.bad[:20])
    assert log.statuses[500] == 0
    print(
        f"\nanswers: {dict(sorted(log.statuses.items()))}; codes: {dict(log.codes)}; "
        f"during the outage: {dict(log.during_outage)}; other pages: {others}"
    )
    _check_every_move_applied_once(postgres, clients)
    _check_every_game_replays(postgres)


def _check_every_move_applied_once(postgres: PrivatePostgres, clients: list[Client]) -> None:
    with psycopg.connect(postgres.url()) as conn:
        for client in clients:
            rows = conn.execute(
                "SELECT number, action FROM games_move WHERE game_id = %s ORDER BY number",
                (client.game_id,),
            ).fetchall()
            played = [(number, action) for number, action in rows if action.get("seat") is not None]
            assert [n for n, _ in played] == client.versions, (client.game_id, rows)
            for (_, action), intended in zip(played, client.applied, strict=True):
                assert {k: action.get(k) for k in intended} == intended, (action, intended)
            records = conn.execute(
                "SELECT key, response_status FROM games_idempotencyrecord WHERE key = ANY(%s)",
                (client.keys,),
            ).fetchall()
            assert sorted(r[0] for r in records) == sorted(client.keys)
            assert {r[1] for r in records} == {200}, records


def _check_every_game_replays(postgres: PrivatePostgres) -> None:
    with psycopg.connect(postgres.url()) as conn:
        games = conn.execute(
            "SELECT id, preset, options, target_score, state FROM games_game "
            "WHERE state IS NOT NULL"
        ).fetchall()
        assert len(games) == GAMES
        for game_id, preset, options, target_score, stored in games:
            players = conn.execute(
                "SELECT count(*) FROM games_seat WHERE game_id = %s AND position IS NOT NULL",
                (game_id,),
            ).fetchone()[0]
            moves = conn.execute(
                "SELECT number, action, events FROM games_move WHERE game_id = %s ORDER BY number",
                (game_id,),
            ).fetchall()
            assert moves[0][1]["type"] == "start", moves[0]
            numbers = [m[0] for m in moves]
            assert numbers == sorted(set(numbers)), numbers
            state, _ = engine.new_game(
                players=players,
                rng=ReplayRNG(moves[0][2]),
                preset=preset,
                options=options,
                target_score=target_score,
            )
            for number, action, events in moves[1:]:
                rng = ReplayRNG(events)
                state, _ = engine.apply(state, Action.from_dict(action), rng)
                if state.phase == ROUND_OVER:
                    state, _ = engine.apply(state, Action(NEXT_ROUND), rng)
                assert rng.remaining == 0, f"move {number} of {game_id} logged unused chance"
            assert state.to_dict() == stored, f"{game_id}: the stored state is not its replay"
            cards = [c for seat in state.seats for c in seat.hand]
            cards += state.draw_pile + state.discard_pile
            assert sorted(cards) == sorted(PRESETS[preset].card_ids), game_id


# ---------------------------------------------------------------------------------------------
# The mapping itself, for failures the restart above does not reach


def test_an_outage_outside_any_view_is_503_not_500(rf: Any) -> None:
    """A middleware that fails on the database (the session store, say) ends in handler500,
    which tells an outage from a bug by the exception being handled."""
    from django.db.utils import InterfaceError, OperationalError

    from config.errors import json_server_error

    for exc in (OperationalError("connection refused"), InterfaceError("connection closed")):
        try:
            raise exc
        except Exception:
            response = json_server_error(rf.get("/admin/"))
        assert response.status_code == 503
        assert response["Retry-After"] == "5"
        assert json.loads(response.content)["error"]["code"] == "service_unavailable"
    try:
        raise ValueError("a bug")
    except ValueError:
        response = json_server_error(rf.get("/admin/"))
    assert response.status_code == 500
    assert json.loads(response.content)["error"]["code"] == "server_error"
