"""API load: many concurrent games through the real HTTP API, next to a bare-transaction baseline.

Run from the repository root (PostgreSQL on 127.0.0.1:5432, user postgres, trust; redis-server
installed; ``pip install -e '.[bench]'`` for aiohttp)::

    python bench/load.py --games 50 --duration 60
    python bench/load.py --games 10 --duration 10      # a quick look
    python bench/load.py --check-targets              # exit 1 when a target is missed too

What it starts, all on this machine and all stopped again at the end (the database dropped):

* a private PostgreSQL cluster of this machine's PostgreSQL in a temporary directory (or, with
  ``--pg``, a fresh database ``uaw_load_<pid>`` on an existing server), migrated;
* a private ``redis-server`` on a free port (``--redis-url`` uses an existing one instead);
* ``uvicorn config.asgi:application --workers 2`` with ``DEBUG=false``, ``BENCH_BASELINE=true``
  (config/bench_views.py), throttle rates far above the load, ``TURN_SECONDS_MIN=1`` and
  ``CONN_MAX_AGE=0`` (``--conn-max-age``: Django under ASGI runs each request in a thread of its
  own, and a persistent connection per such thread is never reused, see docs/performance.md) and
  a pool of ``--db-pool`` (10, as in docker-compose.yml) connections per process;
* a Celery worker and Celery beat (the timer sweep every second times idle turns out; the
  notification relay runs too).

Then ``--games`` tables of ``--players`` players each (users, play tokens and started games are
made in-process with the service functions) are played by an asyncio client (aiohttp) through
the API, the way docs/api.md tells a client to: the player to move polls its game view with
``If-None-Match`` and acts on ``table.legal_actions`` with ``expected_version`` and a fresh
``Idempotency-Key``; a seat left exposed on one card is caught by another player *at the same
version* as the next player's action, so one of the two gets the intended
``409 version_conflict`` (or ``game_over``); ``--retry-fraction`` of the accepted actions are
sent again with the same key and body, as after a lost response, and must come back as the
stored answer (``Idempotent-Replayed: true``) without a second move. In ``--idle-fraction`` of
the games every player has a ``--idle-turn-seconds`` (5 s) clock, and one of them lets every
other turn of theirs run out; the client waits until the sweep has timed it out. A finished game
is followed by a rematch through the API.

Phases, one after the other on the same server:

1. **baseline, closed loop** (``--duration`` s): as many clients as tables, each POSTing
   ``/bench/baseline/<game>/`` with a bearer token as fast as it can (one transaction: the
   game row ``SELECT … FOR UPDATE``, one ``UPDATE``, one ``INSERT`` into the move log);
2. the games are dealt, then played without a pause through the next three phases (a table left
   alone would run out its clock): **warm-up** (``--warmup`` s, not counted);
3. **games, closed loop** (``--duration`` s): every table as fast as it can go; the action rate
   reached is the maximum;
4. **open loop** (a short settle, then ``--duration`` s): actions are released at a fixed
   Poisson arrival rate of ``--rate-fraction`` (0.5) × the phase-3 maximum, and every player
   polls its game view with ``If-None-Match`` at a fixed interval whatever the server answers
   (``--poll-interval``, or less often so that the polls add no more than ``--poll-share`` ×
   the moves' own view requests); p50/p95/p99 come from this phase.

At the end the database is checked: every accepted action is exactly one move (retries made
none), every baseline request exactly one row, every timeout came after its turn's deadline, and
every idle turn the client waited out became exactly one timeout. Exit status 1 on any
unexpected answer (5xx, a 4xx other than the intended 409s, a transport error) or a failed
check; with ``--check-targets`` also when a target is missed (action throughput at least 50 % of
the baseline, p99 under 100 ms for actions and views in the open loop).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import platform
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

DEFAULT_PG = "postgres://postgres@127.0.0.1:5432"
API = "/api/v1/games/"
# 409s a correct client meets: it acted on a version someone else moved past (a catch racing the
# next move), or the game ended in that race.
INTENDED_409 = frozenset({"version_conflict", "game_over"})
TARGET_RATIO = 0.5
TARGET_P99_MS = 100.0


# ---------------------------------------------------------------------------------------------
# Processes


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Processes:
    """Subprocesses started here, each in its own session; stopped in reverse order."""

    def __init__(self, logs: Path) -> None:
        self.logs = logs
        self.started: list[tuple[str, subprocess.Popen[bytes]]] = []
        self.signals: dict[str, int] = {}

    def start(
        self, name: str, argv: list[str], env: dict[str, str], stop_signal: int = signal.SIGTERM
    ) -> subprocess.Popen[bytes]:
        log = (self.logs / f"{name}.log").open("wb")
        proc = subprocess.Popen(
            argv, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
        self.started.append((name, proc))
        self.signals[name] = stop_signal
        return proc

    def check_alive(self) -> None:
        for name, proc in self.started:
            if proc.poll() is not None:
                raise RuntimeError(f"{name} exited ({proc.returncode}); see {self.logs}/{name}.log")

    def stop(self, name: str | None = None) -> None:
        for label, proc in reversed(self.started):
            if name is not None and label != name:
                continue
            if proc.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, self.signals[label])
                try:
                    proc.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    with contextlib.suppress(ProcessLookupError):
                        os.killpg(proc.pid, signal.SIGKILL)
                    proc.wait(timeout=5)


def admin_sql(pg: str, sql: str) -> None:
    import psycopg

    with psycopg.connect(f"{pg}/postgres", autocommit=True) as conn:
        conn.execute(sql)  # type: ignore[arg-type]


def wait_for(check: Any, what: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            if check():
                return
        except Exception:  # noqa: BLE001 - not up yet
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"{what} did not come up within {timeout:.0f} s")
        time.sleep(0.2)


# ---------------------------------------------------------------------------------------------
# Setup (in this process, through the service functions)


@dataclass
class Player:
    user_id: int
    token: str
    seat: int | None = None
    etag: str | None = None
    view: dict[str, Any] | None = None
    poll_etag: str | None = None  # the open-loop poller's own cache

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


@dataclass
class Table:
    index: int
    game_id: str
    players: list[Player]
    baseline_game: str
    idle_user: int | None  # this player lets every other turn of theirs time out
    turn_seconds: int
    version: int = 0
    latest: dict[str, Any] | None = None
    skipped_last: bool = False
    games: list[str] = field(default_factory=list)

    def by_seat(self, seat: int) -> Player:
        return next(p for p in self.players if p.seat == seat)


def setup_data(args: argparse.Namespace) -> list[Table]:
    """Migrate; players with play tokens, and each table's baseline row. Games come later
    (``start_games``), right before they are played: a 2-second clock starts at the deal."""
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connections

    from games.models import Game
    from players.models import ApiToken, User

    call_command("migrate", interactive=False, verbosity=0)
    idle_tables = round(args.games * args.idle_fraction)
    tables = []
    for index in range(args.games):
        idle = index < idle_tables
        players = []
        for i in range(args.players):
            user = User.objects.create_user(username=f"load-{index}-{i}", display_name=f"P{i}")
            _, raw = ApiToken.issue(user, name="load", scope=ApiToken.SCOPE_PLAY)
            players.append(Player(user.pk, raw))
        # The baseline's own row: never active, so no sweep or list ever touches it.
        baseline = Game.objects.create(host_id=players[0].user_id, status=Game.ABORTED)
        tables.append(
            Table(
                index=index,
                game_id="",
                players=players,
                baseline_game=str(baseline.pk),
                idle_user=players[-1].user_id if idle else None,
                turn_seconds=args.idle_turn_seconds if idle else args.turn_seconds,
            )
        )
    connections.close_all()
    return tables


def start_games(args: argparse.Namespace, tables: list[Table]) -> None:
    """A started game per table, made with the service functions (create, join by code)."""
    from django.db import connections

    from games import services
    from games.models import Game
    from players.models import User

    for table in tables:
        users = [User.objects.get(pk=p.user_id) for p in table.players]
        game = services.create_game(
            host=users[0],
            max_players=len(users),
            target_score=args.target_score,
            turn_seconds=table.turn_seconds,
        )
        for user in users[1:]:
            services.join_game(user=user, invite_code=game.invite_code)
        game.refresh_from_db()
        assert game.status == Game.ACTIVE, game.status
        seats = dict(game.seats.values_list("user_id", "position"))
        for player in table.players:
            player.seat = seats[player.user_id]
        table.game_id = str(game.pk)
        table.games.append(table.game_id)
        table.version = game.version
    connections.close_all()


# ---------------------------------------------------------------------------------------------
# Measuring


class Stats:
    def __init__(self) -> None:
        self.phase = "setup"
        self.latency: dict[tuple[str, str], list[float]] = defaultdict(list)
        self.codes: Counter[tuple[str, str, int, str]] = Counter()
        self.errors: list[str] = []
        self.applied: Counter[str] = Counter()  # game id -> accepted (not replayed) actions
        self.idle_waits: Counter[str] = Counter()  # game id -> idle turns waited out
        self.baseline: Counter[str] = Counter()  # baseline game id -> 200s
        self.events: Counter[tuple[str, str]] = Counter()  # (phase, what)
        self.missed_arrivals = 0
        self.window: dict[str, float] = {}
        self.open_rate = 0.0
        self.poll_interval = 0.0
        self.stopped_at: datetime | None = None
        self.cpu: dict[str, dict[str, float]] = {}  # phase -> process group -> CPU seconds

    def record(self, phase: str, kind: str, status: int, code: str, seconds: float) -> None:
        self.latency[(phase, kind)].append(seconds)
        self.codes[(phase, kind, status, code)] += 1
        if not expected(kind, status, code) and len(self.errors) < 30:
            self.errors.append(f"{phase} {kind}: {status} {code}")

    def unexpected(self) -> int:
        return sum(
            n for (_, kind, st, code), n in self.codes.items() if not expected(kind, st, code)
        )


def expected(kind: str, status: int, code: str) -> bool:
    if status == 200:
        return True
    if status == 304:
        return kind.startswith("view")
    if status == 409:
        return kind in ("action", "catch", "replay", "resend") and code in INTENDED_409
    return False


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = (len(ordered) - 1) * p / 100
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


class Client:
    def __init__(self, session: Any, base: str, stats: Stats, rng: random.Random) -> None:
        self.session = session
        self.base = base
        self.stats = stats
        self.rng = rng

    async def call(
        self,
        kind: str,
        method: str,
        path: str,
        player: Player,
        *,
        body: Any = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, dict[str, Any] | None, Any]:
        all_headers = {**player.headers, **(headers or {})}
        phase = self.stats.phase  # a request counts in the phase it was sent in
        start = time.perf_counter()
        try:
            async with self.session.request(
                method, self.base + path, json=body, headers=all_headers
            ) as response:
                status = response.status
                data = await response.json() if status not in (204, 304) else None
                resp_headers = response.headers
        except Exception as exc:  # noqa: BLE001 - counted, reported, and the run fails
            self.stats.record(phase, kind, 0, type(exc).__name__, time.perf_counter() - start)
            return 0, None, {}
        seconds = time.perf_counter() - start
        code = ""
        if isinstance(data, dict) and "error" in data:
            code = str(data["error"].get("code", ""))
        self.stats.record(phase, kind, status, code, seconds)
        return status, data, resp_headers

    async def view(self, player: Player, game_id: str, kind: str = "view") -> dict[str, Any] | None:
        headers = {"If-None-Match": player.etag} if player.etag else None
        status, data, resp_headers = await self.call(
            kind, "GET", f"{API}{game_id}/", player, headers=headers
        )
        if status == 200 and data is not None:
            player.etag = resp_headers.get("ETag")
            player.view = data
        elif status != 304:
            return None
        return player.view

    async def act(
        self, table: Table, player: Player, action: dict[str, Any], version: int, kind: str
    ) -> tuple[int, dict[str, Any] | None]:
        body = {**action, "expected_version": version}
        key = str(uuid.uuid4())
        path = f"{API}{table.game_id}/actions/"
        status, data, headers = await self.call(
            kind, "POST", path, player, body=body, headers={"Idempotency-Key": key}
        )
        first = status
        for attempt in range(1, 6):
            # No answer (the connection broke or timed out): the action may or may not have been
            # applied. A correct client sends the same key and body again; the server answers
            # with the stored response, or applies it now, never twice.
            if status != 0:
                break
            await asyncio.sleep(0.5 * attempt)
            self.stats.events[(self.stats.phase, "actions resent after no answer")] += 1
            status, data, headers = await self.call(
                "resend", "POST", path, player, body=body, headers={"Idempotency-Key": key}
            )
        if status == 200 and data is not None:
            if headers.get("Idempotent-Replayed") and first != 0:
                self.stats.errors.append(f"first request replayed: {table.game_id}")
            self.stats.applied[table.game_id] += 1
            if self.rng.random() < ARGS.retry_fraction:
                # The response was "lost": the same key and body again must be the stored answer.
                again, replay, replay_headers = await self.call(
                    "replay", "POST", path, player, body=body, headers={"Idempotency-Key": key}
                )
                ok = (
                    again == 200
                    and replay_headers.get("Idempotent-Replayed") == "true"
                    and replay is not None
                    and replay.get("version") == data.get("version")
                )
                self.stats.events[(self.stats.phase, "replays ok" if ok else "replays BAD")] += 1
                if not ok:
                    self.stats.errors.append(f"replay differs: {again} {table.game_id}")
        return status, data


def _code(data: dict[str, Any] | None) -> str:
    return str(data["error"].get("code", "")) if data and "error" in data else ""


ARGS: argparse.Namespace  # set in main(); read by the client's retry decision


# ---------------------------------------------------------------------------------------------
# Playing


class Gate:
    """Open loop: actions wait here for a release; releases come at a fixed Poisson rate."""

    def __init__(self, rate: float, stats: Stats, rng: random.Random) -> None:
        self.rate = rate
        self.stats = stats
        self.rng = rng
        self.waiting: asyncio.Queue[asyncio.Future[None]] = asyncio.Queue()
        self.closed = False

    async def wait(self) -> None:
        if self.closed:  # the phase is over: finish the step without waiting
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.waiting.put_nowait(future)
        await future

    async def run(self, stop: asyncio.Event) -> None:
        loop = asyncio.get_running_loop()
        due = loop.time()
        while not stop.is_set():
            due += self.rng.expovariate(self.rate)
            await asyncio.sleep(max(0.0, due - loop.time()))
            while True:
                try:
                    future = self.waiting.get_nowait()
                except asyncio.QueueEmpty:
                    self.stats.missed_arrivals += 1  # nobody ready: the arrival is lost
                    break
                if not future.done():
                    future.set_result(None)
                    break
        self.closed = True
        while not self.waiting.empty():  # let everyone still waiting go
            future = self.waiting.get_nowait()
            if not future.done():
                future.set_result(None)


def choose(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    legal = [a for a in view["table"]["legal_actions"] if a["type"] != "catch"]
    action = {k: v for k, v in rng.choice(legal).items() if k != "seat"}
    if action["type"] in ("play", "play_drawn") and rng.random() < 0.5:
        action["uno"] = True  # otherwise a last card may be caught
    return action


async def rematch(client: Client, table: Table) -> bool:
    old = table.game_id
    new: dict[str, Any] | None = None
    for player in table.players:
        status, data, _ = await client.call("lobby", "POST", f"{API}{old}/rematch/", player)
        if status != 200 or data is None:
            return False
        new = data
    assert new is not None
    if new["status"] != "active":
        client.stats.errors.append(f"rematch of {old} did not start: {new['status']}")
        return False
    table.game_id = new["id"]
    table.games.append(new["id"])
    seats = {p["user_id"]: p["seat"] for p in new["players"]}
    for player in table.players:
        player.seat, player.etag, player.view, player.poll_etag = (
            seats[player.user_id],
            None,
            None,
            None,
        )
    table.version = new["version"]
    table.latest = None
    table.skipped_last = False
    client.stats.events[(client.stats.phase, "rematches")] += 1
    return True


async def wait_out_turn(client: Client, table: Table, player: Player, version: int) -> None:
    """The idle player does nothing: poll (304s) until the sweep has timed the turn out."""
    deadline = time.monotonic() + table.turn_seconds + 15
    while time.monotonic() < deadline:
        await asyncio.sleep(0.25)
        view = await client.view(player, table.game_id, "view")
        if view is not None and view["version"] > version:
            client.stats.idle_waits[table.game_id] += 1
            table.latest, table.version = view, view["version"]
            return
    client.stats.errors.append(f"turn of {table.game_id} at version {version} never timed out")


async def step(client: Client, table: Table, gate: Gate | None) -> None:
    """One turn of a table: find the player to move, let them act (or idle)."""
    rng = client.rng
    latest = table.latest
    if latest is None:
        player = table.players[0]
    elif latest["status"] == "finished":
        if not await rematch(client, table):
            await asyncio.sleep(0.5)
        return
    else:
        player = table.by_seat(latest["table"]["current_seat"])
        pending = latest["table"].get("pending_choice")
        if latest["table"]["phase"] == "choose" and pending:
            player = table.by_seat(pending["seat"])
    view = player.view
    fresh = (
        view is not None
        and view["version"] >= table.version
        and view["status"] == "active"
        and view["table"]["legal_actions"]
    )
    if not fresh:
        view = await client.view(player, table.game_id)
        if view is None:
            await asyncio.sleep(0.2)
            return
    assert view is not None
    if view["version"] >= table.version:
        table.latest, table.version = view, view["version"]
    if view["status"] != "active":
        if view["status"] != "finished":
            client.stats.errors.append(f"game {table.game_id} is {view['status']}")
            await asyncio.sleep(1)
        return
    legal = [a for a in view["table"]["legal_actions"] if a["type"] != "catch"]
    if not legal:
        return  # someone else is to move: the next step asks them
    version = view["version"]
    if player.user_id == table.idle_user and view["table"]["phase"] == "play":
        if not table.skipped_last:
            table.skipped_last = True
            await wait_out_turn(client, table, player, version)
            return
        table.skipped_last = False
    action = choose(view, rng)
    # A seat exposed on one card: another player catches it at this same version, racing this
    # move. One of the two gets 409.
    catch: tuple[Player, dict[str, Any]] | None = None
    for seat in view["table"]["seats"]:
        if not seat["catchable"]:
            continue
        catchers = [
            p
            for p in table.players
            if p is not player
            and p.seat != seat["seat"]
            and view["table"]["seats"][p.seat]["active"]
        ]
        if catchers:
            catch = (rng.choice(catchers), {"type": "catch", "target": seat["seat"]})
            break
    if gate is not None:
        await gate.wait()
    tasks = [client.act(table, player, action, version, "action")]
    if catch is not None:
        tasks.append(client.act(table, catch[0], catch[1], version, "catch"))
        client.stats.events[(client.stats.phase, "catch races")] += 1
    results = await asyncio.gather(*tasks)
    for (status, data), who in zip(results, [player] + ([catch[0]] if catch else []), strict=True):
        if status == 200 and data is not None:
            who.view = data
            if data["version"] > table.version:
                table.latest, table.version = data, data["version"]
        elif status == 409:
            client.stats.events[(client.stats.phase, "409 races")] += 1


@dataclass
class Control:
    """What every table loop reads: when to stop, and the open loop's gate once it is on."""

    stop: asyncio.Event
    gate: Gate | None = None


async def play(client: Client, table: Table, control: Control) -> None:
    while not control.stop.is_set():
        await step(client, table, control.gate)


async def poll(client: Client, table: Table, player: Player, stop: asyncio.Event) -> None:
    """Open loop: this player's app polls its game view every --poll-interval seconds, whether
    or not the last poll has been answered."""
    loop = asyncio.get_running_loop()
    pending: set[asyncio.Task[Any]] = set()
    interval = client.stats.poll_interval
    due = loop.time() + client.rng.uniform(0, interval)

    async def once() -> None:
        headers = {"If-None-Match": player.poll_etag} if player.poll_etag else None
        status, _, resp_headers = await client.call(
            "view poll", "GET", f"{API}{table.game_id}/", player, headers=headers
        )
        if status == 200:
            player.poll_etag = resp_headers.get("ETag")

    while not stop.is_set():
        await asyncio.sleep(max(0.0, due - loop.time()))
        due += interval
        if stop.is_set():
            break
        task = asyncio.create_task(once())
        pending.add(task)
        task.add_done_callback(pending.discard)
    if pending:
        await asyncio.gather(*pending)


async def baseline_worker(client: Client, table: Table, stop: asyncio.Event) -> None:
    player = table.players[0]
    while not stop.is_set():
        status, _, _ = await client.call(
            "baseline", "POST", f"/bench/baseline/{table.baseline_game}/", player
        )
        if status == 200:
            client.stats.baseline[table.baseline_game] += 1


async def finish(stats: Stats, name: str, tasks: list[asyncio.Task[Any]]) -> None:
    """Wait for client tasks to finish the step they are in (an idle turn included)."""
    if not tasks:
        return
    done, late = await asyncio.wait(tasks, timeout=ARGS.idle_turn_seconds + 90)
    for task in late:
        task.cancel()
        stats.errors.append(f"{name}: a client task did not finish its step")
    for task in done:
        if task.exception() is not None:
            stats.errors.append(f"{name}: client task failed: {task.exception()!r}")


# CPU time, read from /proc, of each group of processes (name -> root pid; "client" is this
# process alone, the others a process with all its descendants): the share of the two cores
# each part used in a phase, whatever else the machine ran meanwhile.
CPU_ROOTS: dict[str, int] = {}
CPU_PHASES = ("baseline", "closed")


def cpu_seconds() -> dict[str, float]:
    """CPU seconds (user + system) so far per group in CPU_ROOTS, reaped children included."""
    tick = os.sysconf("SC_CLK_TCK")
    procs: dict[int, tuple[int, int]] = {}  # pid -> (parent, own + reaped children's ticks)
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            raw = Path(f"/proc/{entry.name}/stat").read_text()
        except OSError:
            continue  # gone meanwhile
        fields = raw.rsplit(")", 1)[1].split()
        procs[int(entry.name)] = (int(fields[1]), sum(int(f) for f in fields[11:15]))
    children: dict[int, list[int]] = defaultdict(list)
    for pid, (parent, _) in procs.items():
        children[parent].append(pid)
    out: dict[str, float] = {}
    for name, root in CPU_ROOTS.items():
        if name == "client":
            own = Path(f"/proc/{root}/stat").read_text().rsplit(")", 1)[1].split()
            out[name] = (int(own[11]) + int(own[12])) / tick
            continue
        total, todo = 0, [root]
        while todo:
            pid = todo.pop()
            total += procs.get(pid, (0, 0))[1]
            todo.extend(children.get(pid, ()))
        out[name] = total / tick
    return out


async def phase(stats: Stats, name: str, seconds: float) -> None:
    stats.phase = name
    started = time.perf_counter()
    before = cpu_seconds() if name in CPU_PHASES else {}
    await asyncio.sleep(seconds)
    if before:
        after = cpu_seconds()
        stats.cpu[name] = {group: after[group] - before[group] for group in after}
    stats.window[name] = time.perf_counter() - started
    print(f"  {name}: {stats.window[name]:.1f} s", flush=True)


async def drive(args: argparse.Namespace, base: str, tables: list[Table], stats: Stats) -> None:
    """Baseline first; then the games, started and played without a pause from the warm-up
    through the closed loop to the open loop (a table left alone would time out on its own
    2-second clock); only the open loop's gate and pollers are switched on between them."""
    import aiohttp

    rng = random.Random(args.seed)
    connector = aiohttp.TCPConnector(limit=0, limit_per_host=0)
    timeout = aiohttp.ClientTimeout(total=60)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:
        client = Client(session, base, stats, rng)

        stop = asyncio.Event()
        workers = [asyncio.create_task(baseline_worker(client, t, stop)) for t in tables]
        await phase(stats, "baseline", args.duration)
        stop.set()
        await finish(stats, "baseline", workers)

        stats.phase = "setup"
        await asyncio.to_thread(start_games, args, tables)
        control = Control(stop=asyncio.Event())
        players = [asyncio.create_task(play(client, t, control)) for t in tables]
        await phase(stats, "warm-up", args.warmup)
        await phase(stats, "closed", args.duration)
        actions = sum(
            n for (ph, kind, _, _), n in stats.codes.items() if ph == "closed" and kind == "action"
        )
        rate = actions / stats.window["closed"] * args.rate_fraction
        stats.open_rate = rate
        print(f"  open loop at {rate:.1f} actions/s", flush=True)
        # Polls come on top of the moves' own views (each released move brings the next player's
        # view with it): they get --poll-share of that view rate, so that the open loop offers
        # about --rate-fraction of the closed loop's requests, not more; polls at a fixed
        # interval alone could otherwise overload the server.
        views = sum(
            n for (ph, kind, _, _), n in stats.codes.items() if ph == "closed" and kind == "view"
        )
        budget = max(views / stats.window["closed"] * args.rate_fraction * args.poll_share, 1e-6)
        everyone = sum(len(t.players) for t in tables)
        stats.poll_interval = max(args.poll_interval, everyone / budget)
        print(f"  polls every {stats.poll_interval:.1f} s per player", flush=True)
        gate = Gate(rate, stats, rng)
        control.gate = gate
        gate_task = asyncio.create_task(gate.run(control.stop))
        pollers = [
            asyncio.create_task(poll(client, t, p, control.stop)) for t in tables for p in t.players
        ]
        await phase(stats, "settle", min(3.0, args.duration / 4))
        stats.missed_arrivals = 0
        await phase(stats, "open", args.duration)
        stats.phase = "drain"
        control.stop.set()
        stats.stopped_at = datetime.now(UTC)
        await gate_task
        await finish(stats, "games", players + pollers)


# ---------------------------------------------------------------------------------------------
# Checking the database


def verify(tables: list[Table], stats: Stats) -> list[str]:
    """Exactly-once checks against the database. Returns the failures."""
    from django.db import connections
    from django.db.models import Count

    from games.models import Game, Move

    connections.close_all()
    failures: list[str] = []
    games = [g for t in tables for g in t.games]
    turn = {
        str(pk): s for pk, s in Game.objects.filter(pk__in=games).values_list("pk", "turn_seconds")
    }
    # A seat that timed out max_timeouts times in a row is played by a bot (the default
    # timeout policy) until its player acts again: the bot's moves are nobody's answers.
    player_moves: Counter[uuid.UUID] = Counter()
    bot_moves = 0
    bots: dict[uuid.UUID, set[int]] = {}
    for game_id, seat, events in (
        Move.objects.filter(game_id__in=games)
        .order_by("game_id", "number")
        .values_list("game_id", "seat", "events")
    ):
        played_by_bot = bots.setdefault(game_id, set())
        for event in events:
            if event.get("type") == "seat_reclaimed":
                played_by_bot.discard(event.get("seat"))
        if seat is not None and seat in played_by_bot:
            bot_moves += 1
        elif seat is not None:
            player_moves[game_id] += 1
        for event in events:
            if event.get("type") == "bot_took_over":
                played_by_bot.add(event.get("seat"))
    stats.events[("all", "moves of bots playing timed-out seats")] = bot_moves
    for game in games:
        got = player_moves.get(uuid.UUID(game), 0)
        if got != stats.applied[game]:
            failures.append(f"game {game}: {got} player moves, {stats.applied[game]} accepted")
    timeouts = list(
        Move.objects.filter(game_id__in=games, action__type="timeout").values_list(
            "game_id", "number", "created_at"
        )
    )
    ending = ("play", "play_drawn", "pass", "timeout", "start", "load")
    late = 0
    for game_id, number, created in timeouts:
        before = (
            Move.objects.filter(game_id=game_id, number__lt=number, action__type__in=ending)
            .order_by("-number")
            .values_list("created_at", flat=True)
            .first()
        )
        seconds = turn[str(game_id)]
        if before is None or created < before + timedelta(seconds=seconds):
            failures.append(f"timeout {game_id}#{number} before its deadline")
        else:
            late += 1
    by_game = Counter(str(g) for g, _, _ in timeouts)
    waited = sum(stats.idle_waits.values())
    for game, n in stats.idle_waits.items():
        if by_game[game] < n:
            failures.append(f"game {game}: waited out {n} turns, {by_game[game]} timeouts")
    stopped = stats.stopped_at
    unwaited = sum(
        max(0, sum(1 for g, _, at in timeouts if str(g) == game and stopped and at < stopped) - n)
        for game, n in ((g, stats.idle_waits[g]) for g in games)
    )
    stats.events[("all", "timeouts in the database")] = len(timeouts)
    stats.events[("all", "idle turns waited out (each exactly one timeout)")] = waited
    stats.events[("all", "timeouts at or after their deadline")] = late
    # A player the client did not mean to idle was slower than a 2-second clock (or its table was
    # waiting for the end of the run): informative, not an exactly-once failure.
    stats.events[("all", "timeouts the client did not wait for, before the stop")] = unwaited
    baseline_rows = dict(
        Move.objects.filter(action__type="baseline")
        .values("game_id")
        .annotate(n=Count("id"))
        .values_list("game_id", "n")
    )
    for table in tables:
        got = baseline_rows.get(uuid.UUID(table.baseline_game), 0)
        sent = stats.baseline[table.baseline_game]
        if got != sent:
            failures.append(f"baseline {table.baseline_game}: {got} rows, {sent} answered 200")
    connections.close_all()
    return failures


# ---------------------------------------------------------------------------------------------
# Report


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def ms(value: float) -> str:
    return f"{value * 1000:.1f}"


def cpu_report(stats: Stats, closed: float, base: float, moves: float, baselines: float) -> None:
    """Where the cores went in the two closed loops, and the CPU each move and each baseline
    transaction cost: their ratio is what the throughput ratio would be on cores of its own."""
    groups = list(stats.cpu["closed"])
    print("\nCPU (cores in use, from /proc; 2 cores = 2.00) and CPU ms per accepted request:\n")
    print("| phase | " + " | ".join(groups) + " | all | ms per request |")
    print("|---|" + "---:|" * (len(groups) + 2))
    per: dict[str, float] = {}
    for phase, window, done in (("baseline", base, baselines), ("closed", closed, moves)):
        used = stats.cpu[phase]
        per[phase] = 1000 * sum(used.values()) / done if done else float("nan")
        cells = " | ".join(f"{used[g] / window:.2f}" for g in groups)
        print(f"| {phase} | {cells} | {sum(used.values()) / window:.2f} | {per[phase]:.1f} |")
    print(
        f"\n- CPU per move (the action and the views it needs) / per baseline transaction: "
        f"{per['closed'] / per['baseline']:.2f}; as a throughput ratio: "
        f"**{per['baseline'] / per['closed']:.2f}**"
    )


def report(args: argparse.Namespace, stats: Stats, failures: list[str]) -> int:
    def count(phase: str, kind: str, status: int | None = None) -> int:
        return sum(
            n
            for (p, k, st, _), n in stats.codes.items()
            if p == phase and k == kind and (status is None or st == status)
        )

    closed, base, open_ = stats.window["closed"], stats.window["baseline"], stats.window["open"]
    print("\n## Throughput, closed loop\n")
    print(f"{args.games} tables of {args.players} players; {args.games} baseline clients.\n")
    print(
        "| phase | requests | per second | accepted (200) per second | p50 ms | p95 ms | p99 ms |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    rows = [
        ("closed", "action", closed, "game actions (POST actions/)"),
        ("closed", "view", closed, "game view of the player to move (GET)"),
        ("closed", "catch", closed, "catches racing a move (POST actions/)"),
        ("baseline", "baseline", base, "baseline (POST bench/baseline/)"),
    ]
    for phase, kind, window, label in rows:
        lat = stats.latency[(phase, kind)]
        print(
            f"| {label} | {count(phase, kind):,} | {count(phase, kind) / window:,.1f}"
            f" | {count(phase, kind, 200) / window:,.1f} | {ms(percentile(lat, 50))}"
            f" | {ms(percentile(lat, 95))} | {ms(percentile(lat, 99))} |"
        )
    action_rate = count("closed", "action") / closed
    moves_rate = (count("closed", "action", 200) + count("closed", "catch", 200)) / closed
    baseline_rate = count("baseline", "baseline", 200) / base
    ratio = action_rate / baseline_rate if baseline_rate else float("nan")
    print(f"\n- moves/s (accepted actions, closed loop): **{moves_rate:,.1f}**")
    print(f"- action requests/s: {action_rate:,.1f}; baseline transactions/s: {baseline_rate:,.1f}")
    print(f"- ratio action / baseline: **{ratio:.2f}** (target >= {TARGET_RATIO})")
    if len(stats.cpu) == len(CPU_PHASES):
        cpu_report(stats, closed, base, moves_rate * closed, baseline_rate * base)

    rate = stats.open_rate
    print(f"\n## Latency at a fixed arrival rate (open loop, {rate:.1f} actions/s)\n")
    print(f"Poisson arrivals at {args.rate_fraction:g} × the closed-loop action rate; every player")
    print(f"polls its view every {stats.poll_interval:.1f} s (--poll-interval, or less often so")
    print(f"that polls add at most {args.poll_share:g} × the moves' own view requests).")
    print(f"{stats.missed_arrivals} arrivals found no player ready (lost).\n")
    print("| endpoint | requests | per second | p50 ms | p95 ms | p99 ms | max ms |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    view_all = stats.latency[("open", "view")] + stats.latency[("open", "view poll")]
    polls_304 = count("open", "view poll", 304) + count("open", "view", 304)
    series = [
        ("game action (POST actions/)", stats.latency[("open", "action")]),
        ("game view, all (GET)", view_all),
        ("game view, player to move", stats.latency[("open", "view")]),
        ("game view, polls", stats.latency[("open", "view poll")]),
        ("catch (POST actions/)", stats.latency[("open", "catch")]),
    ]
    for label, lat in series:
        print(
            f"| {label} | {len(lat):,} | {len(lat) / open_:,.1f} | {ms(percentile(lat, 50))}"
            f" | {ms(percentile(lat, 95))} | {ms(percentile(lat, 99))}"
            f" | {ms(max(lat) if lat else float('nan'))} |"
        )
    print(f"\n{polls_304:,} of the open loop's {len(view_all):,} view requests were 304.")
    closed_total = sum(n for (p, k, _, _), n in stats.codes.items() if p == "closed") / closed
    open_total = sum(n for (p, k, _, _), n in stats.codes.items() if p == "open") / open_
    print(
        f"Requests of every kind: {open_total:,.1f}/s in the open loop, "
        f"{open_total / closed_total:.0%} of the closed loop's {closed_total:,.1f}/s."
    )
    p99_action = percentile(stats.latency[("open", "action")], 99) * 1000
    p99_view = percentile(view_all, 99) * 1000

    print("\n## Answers (every phase)\n")
    print("| phase | request | status | code | count | expected |")
    print("|---|---|---:|---|---:|---|")
    for (phase, kind, status, code), n in sorted(stats.codes.items()):
        ok = "yes" if expected(kind, status, code) else "**NO**"
        print(f"| {phase} | {kind} | {status} | {code} | {n:,} | {ok} |")
    print("\n## Events and exactly-once checks\n")
    for (phase, what), n in sorted(stats.events.items()):
        if what != "arrival rate x1000":
            print(f"- {phase}: {what}: {n:,}")
    games = sum(1 for _ in stats.applied)
    print(f"- games played: {games}; accepted actions: {sum(stats.applied.values()):,}")
    unexpected = stats.unexpected()
    for line in stats.errors[:30]:
        print(f"- error: {line}")
    for line in failures[:30]:
        print(f"- check FAILED: {line}")
    print("- every accepted action is one move, every baseline 200 one row, every timeout after")
    print(f"  its deadline: {'yes' if not failures else 'NO'}")

    print(f"- load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print("\n## Targets\n")
    verdicts = [
        (
            f"action throughput >= {TARGET_RATIO:.0%} of the baseline",
            ratio >= TARGET_RATIO,
            f"{ratio:.2f}",
        ),
        (
            f"action p99 < {TARGET_P99_MS:g} ms at half the maximum rate",
            p99_action < TARGET_P99_MS,
            f"{p99_action:.1f} ms",
        ),
        (
            f"view p99 < {TARGET_P99_MS:g} ms at half the maximum rate",
            p99_view < TARGET_P99_MS,
            f"{p99_view:.1f} ms",
        ),
        ("no errors but the intended 409s", unexpected == 0, f"{unexpected} unexpected"),
        ("exactly-once checks", not failures, f"{len(failures)} failed"),
    ]
    for label, ok, value in verdicts:
        print(f"- {label}: {value} {'ok' if ok else 'MISSED'}")
    if unexpected or failures or stats.errors:
        return 1
    if args.check_targets and not all(ok for _, ok, _ in verdicts):
        return 1
    return 0


# ---------------------------------------------------------------------------------------------
# Main


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=50, help="concurrent games (tables)")
    p.add_argument("--players", type=int, default=3, choices=range(2, 11), metavar="2..10")
    p.add_argument("--duration", type=float, default=60, help="seconds of each measured phase")
    p.add_argument("--warmup", type=float, default=5)
    p.add_argument("--rate-fraction", type=float, default=0.5, help="open loop: × max rate")
    p.add_argument(
        "--poll-interval",
        type=float,
        default=2.0,
        help="open loop: each player polls its view this often at most (seconds)",
    )
    p.add_argument(
        "--poll-share",
        type=float,
        default=0.25,
        help="open loop: polls/s as a share of the moves' own view requests/s (see above)",
    )
    p.add_argument("--idle-fraction", type=float, default=0.1, help="games with an idle player")
    p.add_argument("--idle-turn-seconds", type=int, default=5, help="their turn clock")
    p.add_argument("--turn-seconds", type=int, default=3600, help="clock of the other games")
    p.add_argument("--target-score", type=int, default=0, help="0: one-round matches")
    p.add_argument("--retry-fraction", type=float, default=0.02, help="actions sent twice")
    p.add_argument("--workers", type=int, default=2, help="uvicorn workers")
    p.add_argument("--celery-concurrency", type=int, default=1)
    p.add_argument(
        "--pg",
        help="an existing PostgreSQL server (URL, no database name; e.g. " + DEFAULT_PG + ") to "
        "create the database on; default: a private cluster in a temporary directory",
    )
    p.add_argument(
        "--conn-max-age",
        type=int,
        default=0,
        help="CONN_MAX_AGE of the server (0: Django's advice under ASGI; see docs/performance.md)",
    )
    p.add_argument(
        "--db-pool",
        type=int,
        default=10,
        help="DATABASE_POOL_SIZE of the server: pooled connections per process (0: none; "
        "default 10, as docker-compose.yml)",
    )
    p.add_argument("--redis-url", help="use this Redis instead of a private redis-server")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--keep-db", action="store_true", help="do not drop the database")
    p.add_argument("--check-targets", action="store_true", help="exit 1 when a target is missed")
    args = p.parse_args(argv)
    if args.games < 1 or args.duration <= 0:
        p.error("--games and --duration must be positive")
    return args


@contextlib.contextmanager
def private_redis(tmp: Path, procs: Processes, url: str | None) -> Iterator[str]:
    if url:
        yield url
        return
    binary = shutil.which("redis-server")
    if binary is None:
        raise SystemExit("redis-server is not installed (apt-get install redis-server)")
    port = free_port()
    procs.start(
        "redis",
        [
            binary,
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(tmp),
        ],
        dict(os.environ),
    )
    import redis

    client = redis.Redis(host="127.0.0.1", port=port, socket_timeout=1)
    wait_for(client.ping, "redis-server", 15)
    yield f"redis://127.0.0.1:{port}/0"


@contextlib.contextmanager
def private_postgres(tmp: Path, procs: Processes, url: str | None) -> Iterator[str]:
    """A throwaway PostgreSQL cluster of this machine's PostgreSQL (default), or ``url``.

    Private because the service under load opens a connection per request in flight (Django
    under ASGI), and a shared server's max_connections belongs to everyone else too.
    """
    if url:
        yield url
        return
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/postgres"))
    binary = Path(shutil.which("postgres") or (found[-1] if found else "postgres"))
    if not binary.exists():
        raise SystemExit("PostgreSQL server binaries not found (apt-get install postgresql)")
    data = tmp / "pg"
    data.mkdir()
    as_user: list[str] = []
    if os.geteuid() == 0:  # PostgreSQL refuses to run as root
        as_user = ["runuser", "-u", "postgres", "--"]
        tmp.chmod(0o755)
        shutil.chown(data, "postgres")
    subprocess.run(
        [
            *as_user,
            str(binary.parent / "initdb"),
            "-D",
            str(data),
            "-U",
            "postgres",
            "--auth=trust",
            "-E",
            "UTF8",
            "--no-sync",
        ],
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    port = free_port()
    procs.start(
        "postgres",
        [
            *as_user,
            str(binary),
            "-D",
            str(data),
            "-p",
            str(port),
            "-c",
            "listen_addresses=127.0.0.1",
            "-c",
            f"unix_socket_directories={data}",
            "-c",
            "max_connections=400",
            "-c",
            "shared_buffers=256MB",
        ],
        dict(os.environ),
        stop_signal=signal.SIGINT,  # fast shutdown
    )
    server = f"postgres://postgres@127.0.0.1:{port}"

    def up() -> bool:
        import psycopg

        procs.check_alive()
        with psycopg.connect(f"{server}/postgres", connect_timeout=2):
            return True

    wait_for(up, "PostgreSQL", 60)
    yield server


def _terminate(signum: int, frame: Any) -> None:
    raise SystemExit(128 + signum)  # run the clean-up in main's finally


def main(argv: list[str] | None = None) -> int:
    global ARGS
    signal.signal(signal.SIGTERM, _terminate)
    args = ARGS = parse_args(argv)
    try:
        import aiohttp  # noqa: F401
    except ImportError:
        print("aiohttp is not installed: pip install -e '.[bench]'", file=sys.stderr)
        return 2
    tmp = Path(tempfile.mkdtemp(prefix="uaw-load-"))
    procs = Processes(tmp)
    db = f"uaw_load_{os.getpid()}"
    created: str | None = None
    keep_logs = True  # until the run has passed
    print("# API load\n")
    print(f"- date: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC")
    print(f"- command: python {' '.join(['bench/load.py', *sys.argv[1:]])}")
    print(f"- machine: {cpu_model()}, nproc {os.cpu_count()}, {platform.system()}")
    print(f"- python: {platform.python_implementation()} {platform.python_version()}")
    print(
        f"- server: uvicorn --workers {args.workers}, celery worker (concurrency "
        f"{args.celery_concurrency}) and beat, PostgreSQL and Redis on this machine; "
        f"DATABASE_POOL_SIZE={args.db_pool}, CONN_MAX_AGE={args.conn_max_age}"
    )
    print(f"- load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(flush=True)
    try:
        with (
            private_postgres(tmp, procs, args.pg) as pg,
            private_redis(tmp, procs, args.redis_url) as redis_url,
        ):
            admin_sql(pg, f'CREATE DATABASE "{db}"')
            created = pg
            port = free_port()
            env = {
                **os.environ,
                "DJANGO_SETTINGS_MODULE": "config.settings",
                "DATABASE_URL": f"{pg}/{db}",
                "REDIS_URL": redis_url,
                "BENCH_BASELINE": "true",
                "DEBUG": "false",
                "SECRET_KEY": "bench-load-not-a-secret",
                "ALLOWED_HOSTS": "127.0.0.1,localhost",
                "CONN_MAX_AGE": str(args.conn_max_age),
                "DATABASE_POOL_SIZE": str(args.db_pool),
                "THROTTLE_AUTH": "1000000/s",
                "THROTTLE_ACTIONS": "1000000/s",
                "THROTTLE_GAMES": "1000000/s",
                "TURN_SECONDS_MIN": "1",
                "LOG_LEVEL": "WARNING",
                "STATIC_ROOT": str(tmp / "static"),
                "PYTHONUNBUFFERED": "1",
            }
            os.environ.update(env)  # this process sets up the data with the same settings
            started = time.perf_counter()
            tables = setup_data(args)
            print(
                f"- setup: {len(tables)} games, {len(tables) * args.players} players "
                f"({time.perf_counter() - started:.1f} s)",
                flush=True,
            )
            python = sys.executable
            procs.start(
                "web",
                [
                    python,
                    "-m",
                    "uvicorn",
                    "config.asgi:application",
                    "--host",
                    "127.0.0.1",
                    "--port",
                    str(port),
                    "--workers",
                    str(args.workers),
                    "--no-access-log",
                    "--log-level",
                    "warning",
                ],
                env,
            )
            procs.start(
                "worker",
                [
                    python,
                    "-m",
                    "celery",
                    "-A",
                    "config",
                    "worker",
                    "-l",
                    "warning",
                    "--concurrency",
                    str(args.celery_concurrency),
                    "--without-gossip",
                    "--without-mingle",
                ],
                env,
            )
            procs.start(
                "beat",
                [
                    python,
                    "-m",
                    "celery",
                    "-A",
                    "config",
                    "beat",
                    "-l",
                    "warning",
                    "-s",
                    str(tmp / "beat-schedule"),
                ],
                env,
            )
            import urllib.request

            base = f"http://127.0.0.1:{port}"

            def ready() -> bool:
                procs.check_alive()
                with urllib.request.urlopen(f"{base}/readyz", timeout=2) as r:
                    return bool(r.status == 200)

            wait_for(ready, "uvicorn", 60)
            CPU_ROOTS.update({name: proc.pid for name, proc in procs.started})
            CPU_ROOTS["client"] = os.getpid()
            stats = Stats()
            asyncio.run(drive(args, base, tables, stats))
            procs.check_alive()
            procs.stop("beat")
            procs.stop("worker")
            failures = verify(tables, stats)
            status = report(args, stats, failures)
            if status == 0:
                keep_logs = False
            return status
    finally:
        for name in ("web", "worker", "beat"):
            procs.stop(name)
        with contextlib.suppress(Exception):
            from django.db import connections

            connections.close_all()
        if created and args.pg and not args.keep_db:
            admin_sql(args.pg, f'DROP DATABASE IF EXISTS "{db}" WITH (FORCE)')
        procs.stop()  # PostgreSQL and Redis last
        if keep_logs:
            print(f"\nlogs kept in {tmp}", file=sys.stderr)
        else:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
