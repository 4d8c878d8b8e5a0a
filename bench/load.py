"""API load: many concurrent games played through the real HTTP API and its live channel, next to
the database's own ceiling (pgbench) measured on the same PostgreSQL in the same run.

Run from the repository root (PostgreSQL's server binaries, pgbench and redis-server installed;
``pip install -e '.[bench]'`` for aiohttp)::

    python bench/load.py --games 50 --duration 60                  # one live process
    python bench/load.py --games 50 --duration 60 --live-processes 2   # two, one Redis
    python bench/load.py --games 5 --duration 5 --idle-streams 100 # a quick look
    python bench/load.py --check-targets                           # exit 1 when a target is missed

What it starts, all on this machine and all stopped again at the end:

* a private PostgreSQL cluster of this machine's PostgreSQL in a temporary directory (or, with
  ``--pg``, fresh databases on an existing server), migrated; a second database of the same
  cluster holds pgbench's tables;
* a private ``redis-server`` on a free port (``--redis-url`` uses an existing one instead);
* the service as docker-compose.yml runs it: each of ``web``, ``live``, ``worker`` and ``beat``
  runs its service's ``command`` with its service's ``environment`` (read from the file), on this
  run's PostgreSQL and Redis and free ports, with throttle rates far above the load and
  ``TURN_SECONDS_MIN=1``. That is the REST API on gunicorn (``config/gunicorn.conf.py``,
  persistent connections, no pool), ``--live-processes`` (1) live processes
  (``python -m config.asgi_server``: uvicorn with h11, a pool of connections), a Celery worker and
  Celery beat (the timer sweep every second times idle turns out; the notification relay runs
  too), with compose's JSON request logs and metrics. The client talks to web and live directly,
  as the reverse proxy routing by path would, and sends each game's streams to one live process
  chosen by the game's id (as a proxy hashing the path would); a move posted to web reaches the
  live processes through Redis pub/sub (live/announce.py). ``--web-workers``, ``--web-threads``,
  ``--celery-concurrency``, ``--conn-max-age``, ``--db-pool`` and ``--no-prepared-statements``
  change compose's values for a comparison;

Then ``--games`` tables of ``--players`` players each (users, play tokens and started games are
made in-process with the service functions) are played by an asyncio client (aiohttp) the way
docs/api.md tells a client to, with no polling loop: every seat holds one Server-Sent Events
stream of its game (``GET games/{id}/stream/``, ``Accept: text/event-stream``) and learns of the
others' moves from it, opened with ``?view=true`` so that a change that lets the seat act brings
the seat's view with it. The actor reads its action's answer (its new view); the seat whose turn
that answer names waits until its own stream has brought that version, with its view (its hand
and legal actions; reloaded with ``If-None-Match`` only when the stream brought none, and by every
seat with ``--no-stream-views``) and acts on ``table.legal_actions`` with
``expected_version`` and a fresh ``Idempotency-Key``. A seat left exposed on one card is caught
by another player *at the same version* as the next player's action, so one of the two gets the
intended ``409 version_conflict`` (or ``game_over``); ``--retry-fraction`` of the accepted
actions are sent again with the same key and body, as after a lost response, and must come back
as the stored answer (``Idempotent-Replayed: true``) without a second move. In
``--idle-fraction`` of the games every player has a ``--idle-turn-seconds`` (5 s) clock, and one
of them lets every other turn of theirs run out; that seat waits on its stream until the sweep's
timeout arrives. A finished game is followed by a rematch through the API, and every seat opens
a stream of the new game before anyone moves.

Phases, one after the other on the same server:

1. **pgbench** (``--pgbench-seconds``, default ``--duration``): ``pgbench -N`` (the simple-update
   script, "skip some updates") with as many clients as tables, on the same cluster, while the
   service's processes stand idle: the database's own ceiling;
2. the games are dealt, every seat's stream opened, then played without a pause through the
   next phases (a table left alone would run out its clock): **warm-up** (``--warmup`` s);
3. **closed loop** (``--duration`` s): every table as fast as it can go: accepted moves/s;
4. **open loop** (a short settle, then ``--duration`` s): actions are released at a fixed
   Poisson arrival rate of ``--rate-fraction`` (0.5) × the closed loop's action rate. Measured:
   each action's latency, and each move's delivery: from the action's request being sent to the
   ``version`` event with that version arriving on every other seat's stream;
5. **open live connections** (``--idle-streams``, 2,000; 0 skips it): that many more streams are
   opened on the live process (``--watchers`` users, each hosting a lobby nobody joins, each
   with ``--idle-streams / --watchers`` streams of it open: idle connections that get only
   keep-alives), then for ``--duration`` s the games go on at the same rate: delivery again, and
   the live process's memory (RSS) before and after.

CPU time of each process tree (web, live, PostgreSQL, Redis, worker, beat, this client) is read
from /proc around the measured phases and printed as ms per accepted move.

At the end the database is checked: every accepted action is exactly one move (retries made
none), every timeout came after its turn's deadline, and every idle turn the client waited out
became exactly one timeout; every accepted move of a measured phase reached every other seat's
stream; and at least as many versions were announced on Redis (``<prefix>game:*``, counted by a
subscriber of this client's own) as moves were accepted, which is how the live process of
live hears of the API's moves. Exit status 1 on any unexpected answer (5xx, a 4xx
other than the intended 409s, a transport error, a stream that broke) or a failed check; with
``--check-targets`` also when a target is missed (the ``TARGET_*`` constants below).
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import concurrent.futures
import contextlib
import json
import math
import os
import platform
import random
import re
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
import zlib
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.common import cpu_model, initdb_command, redis_server_command  # noqa: E402  (the checkout on the path first)

DEFAULT_PG = "postgres://postgres@127.0.0.1:5432"
API = "/api/v1/games/"
EVENT_STREAM = "text/event-stream"
# 409s a correct client meets: it acted on a version someone else moved past (a catch racing the
# next move), or the game ended in that race.
INTENDED_409 = frozenset({"version_conflict", "game_over"})
# The goals of issue 17, section 2, as issue 30 restated them: the closed loop's 100 moves/s is
# withdrawn (its rate is reported, not judged); the latencies at half that rate stay.
TARGET_DELIVERY_P99_MS = 150.0
TARGET_ACTION_P99_MS = 100.0
# How long a seat waits for its stream to bring a version it knows exists before that counts as
# an error (the service promises "within about a second": docs/api.md).
STREAM_WAIT_SECONDS = 10.0
# How long the seat to move waits for the `view` event that follows the version event on its
# stream (``?view=true``) before it reloads its view instead.
VIEW_WAIT_SECONDS = 2.0
# Files a process may open: 2,000 streams and more need more than the usual 1,024.
NOFILE = 65_536


# ---------------------------------------------------------------------------------------------
# Processes


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def raise_fd_limit(wanted: int = NOFILE) -> int:
    """Raise this process's soft limit of open files towards ``wanted`` (the hard limit caps it;
    root may raise the hard limit too). Returns the soft limit now in force. Also run in each
    server process before it starts (``preexec_fn``), so the live process can hold the streams."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else max(soft, min(wanted, hard))
    if os.geteuid() == 0 and hard != resource.RLIM_INFINITY and hard < wanted:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, wanted))
            return wanted
    if target > soft:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


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
            argv,
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=raise_fd_limit,
        )
        self.started.append((name, proc))
        self.signals[name] = stop_signal
        return proc

    def pid(self, name: str) -> int | None:
        return next((p.pid for label, p in self.started if label == name), None)

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
# The database's ceiling: pgbench on the same cluster


@dataclass
class Pgbench:
    clients: int
    threads: int
    seconds: float
    scale: int
    tps: float = float("nan")
    failed: int = 0
    command: str = ""
    error: str = ""


_TPS = re.compile(
    r"^tps = ([0-9.]+) \((?:without initial connection time|excluding connections establishing)\)",
    re.MULTILINE,
)
_FAILED = re.compile(r"^number of failed transactions: (\d+)", re.MULTILINE)


def parse_pgbench(output: str) -> tuple[float, int]:
    """Transactions per second (without the time to connect) and failed transactions, from the
    report of ``pgbench`` (PostgreSQL 13 and later print "without initial connection time",
    older ones "excluding connections establishing"; only 15 and later count failures)."""
    found = _TPS.search(output)
    if found is None:
        raise ValueError("no 'tps = … (without initial connection time)' line in pgbench's output")
    failed = _FAILED.search(output)
    return float(found.group(1)), int(failed.group(1)) if failed else 0


def pg_tool(name: str) -> str:
    found = sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"))
    path = shutil.which(name) or (str(found[-1]) if found else None)
    if path is None:
        raise SystemExit(f"{name} not found (apt-get install postgresql)")
    return path


PGBENCH_SCALE = 1


def init_pgbench(server: str, database: str) -> str:
    """Make ``database`` and pgbench's tables in it (``pgbench -i``); returns its URL."""
    admin_sql(server, f'CREATE DATABASE "{database}"')
    url = f"{server}/{database}"
    subprocess.run(
        [pg_tool("pgbench"), "-i", "-q", "-s", str(PGBENCH_SCALE), url],
        check=True,
        capture_output=True,
        timeout=300,
    )
    return url


def run_pgbench(url: str, clients: int, seconds: int) -> Pgbench:
    """``pgbench -N`` with ``clients`` clients for ``seconds`` on an initialised database."""
    threads = max(1, min(clients, os.cpu_count() or 1))
    # Scale 1: 100,000 accounts, so that 50 clients updating random ones almost never wait for
    # each other; -N leaves out the two updates of the branch and teller rows that every
    # transaction of the default script shares (a lock queue of the script, not of PostgreSQL).
    result = Pgbench(clients=clients, threads=threads, seconds=seconds, scale=PGBENCH_SCALE)
    argv = [pg_tool("pgbench"), "-N", "-n", "-c", str(clients), "-j", str(threads)]
    argv += ["-T", str(seconds), url]
    result.command = " ".join(["pgbench", *argv[1:-1]])
    done = subprocess.run(argv, capture_output=True, text=True, timeout=seconds + 120)
    try:
        result.tps, result.failed = parse_pgbench(done.stdout)
    except ValueError as exc:
        result.error = f"{exc}; exit {done.returncode}: {done.stderr.strip()[-300:]}"
    return result


# ---------------------------------------------------------------------------------------------
# Setup (in this process, through the service functions)


@dataclass
class Player:
    user_id: int
    token: str
    seat: int | None = None
    etag: str | None = None
    view: dict[str, Any] | None = None  # its latest view: an action's answer or a GET
    stream: Stream | None = None  # its live connection to the table's game

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


@dataclass
class Table:
    index: int
    game_id: str
    players: list[Player]
    idle_user: int | None  # this player lets every other turn of theirs time out
    turn_seconds: int
    version: int = 0
    latest: dict[str, Any] | None = None  # the newest game the client knows (whose turn it is)
    skipped_last: bool = False
    games: list[str] = field(default_factory=list)

    def by_seat(self, seat: int) -> Player:
        return next(p for p in self.players if p.seat == seat)

    def see(self, game: dict[str, Any]) -> None:
        """A game object (an answer or a view) newer than what the table knew."""
        if game["version"] >= self.version:
            self.latest, self.version = game, game["version"]


@dataclass
class Watcher:
    """A user with a lobby nobody joins: the idle streams of the open-connections phase."""

    user_id: int
    token: str
    game_id: str

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


def setup_data(args: argparse.Namespace) -> tuple[list[Table], list[Watcher]]:
    """Migrate; players with play tokens; the watchers and their lobbies. The tables' games come
    later (``start_games``), right before they are played: a short clock starts at the deal."""
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connections

    from games import services
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
        tables.append(
            Table(
                index=index,
                game_id="",
                players=players,
                idle_user=players[-1].user_id if idle else None,
                turn_seconds=args.idle_turn_seconds if idle else args.turn_seconds,
            )
        )
    watchers = []
    for index in range(args.watchers if args.idle_streams else 0):
        user = User.objects.create_user(username=f"watch-{index}", display_name=f"W{index}")
        _, raw = ApiToken.issue(user, name="load", scope=ApiToken.SCOPE_PLAY)
        lobby = services.create_game(host=user, max_players=4, target_score=0)
        watchers.append(Watcher(user.pk, raw, str(lobby.pk)))
    connections.close_all()
    return tables, watchers


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


@dataclass(frozen=True)
class Sent:
    """An accepted move: when its request was sent, and who else must see it."""

    phase: str
    game_id: str
    version: int
    sent_at: float
    others: tuple[int, ...]  # the user ids of the other seats
    answered_at: float | None = None  # when its answer had been read


class Stats:
    def __init__(self) -> None:
        self.phase = "setup"
        self.latency: dict[tuple[str, str], list[float]] = defaultdict(list)
        self.codes: Counter[tuple[str, str, int, str]] = Counter()
        self.errors: list[str] = []
        self.applied: Counter[str] = Counter()  # game id -> accepted (not replayed) actions
        self.idle_waits: Counter[str] = Counter()  # game id -> idle turns waited out
        self.events: Counter[tuple[str, str]] = Counter()  # (phase, what)
        self.missed_arrivals: Counter[str] = Counter()  # phase -> open-loop arrivals lost
        self.window: dict[str, float] = {}
        self.open_rate = 0.0
        self.stopped_at: datetime | None = None
        self.cpu: dict[str, dict[str, float]] = {}  # phase -> process group -> CPU seconds
        self.moves: list[Sent] = []
        # (game id, user id) -> (version, perf_counter) of each version event, versions rising
        self.arrivals: dict[tuple[str, int], list[tuple[int, float]]] = defaultdict(list)
        self.rss: dict[str, dict[int, tuple[int, int]]] = {}  # when -> live pid -> RSS, threads
        self.crowd_opened = 0
        self.crowd_open_seconds = 0.0
        self.pgbench: Pgbench | None = None
        self.announcements = 0  # messages on Redis's game channels (what a live process may hear)

    def record(self, phase: str, kind: str, status: int, code: str, seconds: float) -> None:
        self.latency[(phase, kind)].append(seconds)
        self.codes[(phase, kind, status, code)] += 1
        if not expected(kind, status, code):
            self.error(f"{phase} {kind}: {status} {code}")

    def error(self, line: str) -> None:
        if len(self.errors) < 200:
            self.errors.append(line)
        self.events[("all", "errors")] += 1

    def unexpected(self) -> int:
        return sum(
            n for (_, kind, st, code), n in self.codes.items() if not expected(kind, st, code)
        )


def expected(kind: str, status: int, code: str) -> bool:
    if status == 200:
        return True
    if status == 304:
        return kind == "view"
    if status == 204:
        return kind == "stream"  # a stream of a game that is over with every move delivered
    if status == 409:
        return kind in ("action", "catch", "replay", "resend") and code in INTENDED_409
    return False


def percentile(values: list[float], p: float) -> float:
    """The p-th percentile, interpolated between the closest ranks (NaN for no values)."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = (len(ordered) - 1) * p / 100
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def deliveries(
    moves: list[Sent],
    arrivals: dict[tuple[str, int], list[tuple[int, float]]],
    phase: str,
    *,
    from_answer: bool = False,
) -> tuple[list[float], list[float], int]:
    """For the moves of ``phase``: seconds from each move's request to the first event with its
    version (or a later one) on each other seat's stream (one value per seat), the same to the
    last of those seats (one value per move: "on every other screen"), and how many moves some
    seat never saw. ``from_answer``: from the move's answer instead (the fan-out's own part,
    without the action's; negative when a stream was faster than the answer)."""
    per_seat: list[float] = []
    per_move: list[float] = []
    missing = 0
    versions: dict[tuple[str, int], list[int]] = {}
    for move in moves:
        if move.phase != phase:
            continue
        worst = -math.inf
        seen_by_all = True
        for user in move.others:
            key = (move.game_id, user)
            got = arrivals.get(key, [])
            if key not in versions:
                versions[key] = [v for v, _ in got]
            i = bisect.bisect_left(versions[key], move.version)
            if i == len(got):
                seen_by_all = False
                continue
            start = move.answered_at if from_answer and move.answered_at else move.sent_at
            seconds = got[i][1] - start
            per_seat.append(seconds)
            worst = max(worst, seconds)
        if seen_by_all:
            per_move.append(worst)
        else:
            missing += 1
    return per_seat, per_move, missing


class SSEParser:
    """Server-Sent Events, line by line (the WHATWG rules this client needs: ``event``, ``data``,
    ``id``, comments, a blank line ends an event)."""

    def __init__(self) -> None:
        self.event = ""
        self.data: list[str] = []
        self.id: str | None = None

    def feed(self, raw: bytes | str) -> tuple[str, str, str | None] | None:
        """One line (with or without its end of line); a finished event as (event, data, id)."""
        line = raw.decode() if isinstance(raw, bytes) else raw
        line = line.rstrip("\r\n")
        if not line:
            if not self.data and not self.event:
                return None
            out = (self.event or "message", "\n".join(self.data), self.id)
            self.event, self.data = "", []
            return out
        if line.startswith(":"):
            return None  # a comment: the keep-alive
        name, _, value = line.partition(":")
        value = value.removeprefix(" ")
        if name == "event":
            self.event = value
        elif name == "data":
            self.data.append(value)
        elif name == "id":
            self.id = value
        return None


class Client:
    def __init__(
        self, session: Any, base: str, live_bases: list[str], stats: Stats, rng: random.Random
    ) -> None:
        self.session = session
        self.base = base  # the REST API
        self.live_bases = live_bases  # stream/ and events/: the live processes
        self.stats = stats
        self.rng = rng

    def live_for(self, game_id: str) -> str:
        """The live process of a game's streams: a proxy in front of several hashes the path,
        so every stream of a game goes to one process (crc32: the same in every run)."""
        return self.live_bases[zlib.crc32(game_id.encode()) % len(self.live_bases)]

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
        self.stats.record(phase, kind, status, _code(data), seconds)
        return status, data, resp_headers

    async def view(self, player: Player, game_id: str) -> dict[str, Any] | None:
        headers = {"If-None-Match": player.etag} if player.etag else None
        status, data, resp_headers = await self.call(
            "view", "GET", f"{API}{game_id}/", player, headers=headers
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
        phase = self.stats.phase
        sent_at = time.perf_counter()
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
        answered_at = time.perf_counter()
        if status == 200 and data is not None:
            if headers.get("Idempotent-Replayed") and first != 0:
                self.stats.error(f"first request replayed: {table.game_id}")
            self.stats.applied[table.game_id] += 1
            others = tuple(p.user_id for p in table.players if p is not player)
            self.stats.moves.append(
                Sent(phase, table.game_id, data["version"], sent_at, others, answered_at)
            )
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
                    self.stats.error(f"replay differs: {again} {table.game_id}")
        return status, data


def _code(data: Any) -> str:
    if isinstance(data, dict) and isinstance(data.get("error"), dict):
        return str(data["error"].get("code", ""))
    return ""


ARGS: argparse.Namespace  # set in main(); read by the client's retry decision


# ---------------------------------------------------------------------------------------------
# The live channel: one Server-Sent Events stream per seat (and per idle watcher)


class Stream:
    """One ``GET games/{id}/stream/`` connection, read as it arrives; reconnects with
    ``Last-Event-ID`` if the server closes it early, as EventSource does."""

    def __init__(
        self,
        client: Client,
        who: Player | Watcher,
        game_id: str,
        after: int,
        *,
        kind: str = "stream",
        record: bool = True,
    ) -> None:
        self.client = client
        self.who = who
        self.game_id = game_id
        self.after = after
        self.kind = kind
        self.record = record
        self.version = -1
        self.changed = asyncio.Event()
        self.viewed = asyncio.Event()  # a `view` event came (``?view=true``)
        self.opened = asyncio.Event()  # the first event (or the end) has arrived
        self.ended = False  # an `end` event, a 204, or closed here
        self.closing = False
        self.task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        import aiohttp

        stats = self.client.stats
        arrivals = stats.arrivals[(self.game_id, self.who.user_id)] if self.record else None
        timeout = aiohttp.ClientTimeout(total=None, sock_connect=30, sock_read=60)
        headers = {**self.who.headers, "Accept": EVENT_STREAM}
        url = f"{self.client.live_for(self.game_id)}{API}{self.game_id}/stream/"
        seat = self.who if isinstance(self.who, Player) else None
        if seat is not None and ARGS.stream_views:
            url += "?view=true"  # the seat's view comes with each change that lets it act
        try:
            while not self.ended:
                phase = stats.phase
                start = time.perf_counter()
                cursor = {"Last-Event-ID": str(self.after)}  # resume after what we have
                try:
                    async with self.client.session.get(
                        url, headers={**headers, **cursor}, timeout=timeout
                    ) as response:
                        if response.status != 200:
                            data = None
                            if response.status != 204:
                                with contextlib.suppress(Exception):
                                    data = await response.json()
                            stats.record(
                                phase,
                                self.kind,
                                response.status,
                                _code(data),
                                time.perf_counter() - start,
                            )
                            self.ended = True
                            return
                        parser = SSEParser()
                        first = True
                        async for line in response.content:
                            event = parser.feed(line)
                            if event is None:
                                continue
                            now = time.perf_counter()
                            if first:
                                first = False
                                stats.record(phase, self.kind, 200, "", now - start)
                                self.opened.set()
                            name, data_text, event_id = event
                            if name == "end":
                                self.ended = True
                                break
                            if name == "view" and seat is not None:
                                view = json.loads(data_text)
                                if seat.view is None or view["version"] >= seat.view["version"]:
                                    seat.view = view
                                    self.viewed.set()
                                continue
                            if name != "version":
                                continue
                            version = int(json.loads(data_text)["version"])
                            if event_id is not None:
                                self.after = int(event_id)
                            if version > self.version:
                                self.version = version
                                if arrivals is not None:
                                    arrivals.append((version, now))
                                self.changed.set()
                except (aiohttp.ClientError, TimeoutError) as exc:
                    if self.closing:
                        return
                    stats.record(stats.phase, self.kind, 0, type(exc).__name__, 0.0)
                if not self.ended and not self.closing:
                    # The server closed a stream that had not ended (its hour is up, or it broke):
                    # reconnect, as EventSource does.
                    stats.events[(stats.phase, f"{self.kind}s reconnected")] += 1
                    await asyncio.sleep(0.5)
        finally:
            self.ended = True
            self.opened.set()
            self.changed.set()
            self.viewed.set()

    async def _until(self, ready: Callable[[], bool], event: asyncio.Event, timeout: float) -> bool:
        """Wait up to ``timeout`` s, waking on ``event``, until ``ready()`` (False: the stream
        ended or the time ran out)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not ready():
            if self.ended:
                return False
            event.clear()
            remaining = deadline - loop.time()
            if remaining <= 0:
                return False
            try:
                await asyncio.wait_for(event.wait(), remaining)
            except TimeoutError:
                return False
        return True

    async def view_of(self, version: int, timeout: float) -> dict[str, Any] | None:
        """The seat's view of ``version`` (or later) once a `view` event has brought it."""
        seat = self.who
        assert isinstance(seat, Player)

        def ready() -> bool:
            return seat.view is not None and seat.view["version"] >= version

        return seat.view if await self._until(ready, self.viewed, timeout) else None

    async def reach(self, version: int, timeout: float) -> bool:
        """Wait until this stream has brought ``version`` (or a later one)."""
        return await self._until(lambda: self.version >= version, self.changed, timeout)

    async def close(self) -> None:
        self.closing = True
        self.task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.task


async def open_streams(client: Client, table: Table) -> bool:
    """Every seat opens a stream of the table's game, from the version the table has, and has
    its first event before anyone moves (as a client shows the game before playing it)."""
    for player in table.players:
        if player.stream is not None:
            await player.stream.close()
        player.stream = Stream(client, player, table.game_id, table.version)
    streams = [p.stream for p in table.players if p.stream is not None]
    try:
        async with asyncio.timeout(30):
            await asyncio.gather(*(s.opened.wait() for s in streams))
    except TimeoutError:
        client.stats.error(f"streams of {table.game_id} did not open within 30 s")
        return False
    return all(s.version >= 0 for s in streams)


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
                    # Nobody ready: the arrival is lost.
                    self.stats.missed_arrivals[self.stats.phase] += 1
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


def to_move(table: Table, game: dict[str, Any]) -> Player:
    """Whose turn a game object says it is (a pending target choice first)."""
    pending = game["table"].get("pending_choice")
    if game["table"]["phase"] == "choose" and pending:
        return table.by_seat(pending["seat"])
    return table.by_seat(game["table"]["current_seat"])


async def rematch(client: Client, table: Table) -> bool:
    old = table.game_id
    # Every seat sees the game end on its stream (its last move, the results) before they play
    # again: a rematch closes the old streams, and one closed before the last move arrived would
    # count that move as never delivered.
    await asyncio.gather(
        *(p.stream.reach(table.version, STREAM_WAIT_SECONDS) for p in table.players if p.stream)
    )
    new: dict[str, Any] | None = None
    for player in table.players:
        status, data, _ = await client.call("lobby", "POST", f"{API}{old}/rematch/", player)
        if status != 200 or data is None:
            return False
        new = data
    assert new is not None
    if new["status"] != "active":
        client.stats.error(f"rematch of {old} did not start: {new['status']}")
        return False
    table.game_id = new["id"]
    table.games.append(new["id"])
    seats = {p["user_id"]: p["seat"] for p in new["players"]}
    for player in table.players:
        player.seat, player.etag, player.view = seats[player.user_id], None, None
    table.version = new["version"]
    table.latest = new
    table.players[-1].view = new  # the last to ask for the rematch got the started game
    table.skipped_last = False
    client.stats.events[(client.stats.phase, "rematches")] += 1
    return await open_streams(client, table)


async def wait_out_turn(client: Client, table: Table, player: Player, version: int) -> None:
    """The idle player does nothing; its stream brings the sweep's timeout."""
    assert player.stream is not None
    if await player.stream.reach(version + 1, table.turn_seconds + 15):
        client.stats.idle_waits[table.game_id] += 1
        table.version = max(table.version, player.stream.version)
        table.latest = None  # who is next: the next step reloads a view
        return
    client.stats.error(f"turn of {table.game_id} at version {version} never timed out")


async def learn(
    client: Client, table: Table, player: Player, *, may_act: bool = False
) -> dict[str, Any] | None:
    """``player`` has been told (an answer, a 409) that the game reached ``table.version``: wait
    for its stream to bring that version, then for the view its stream sends when it ``may_act``
    (``?view=true``), else reload its view (If-None-Match)."""
    assert player.stream is not None
    if not await player.stream.reach(table.version, STREAM_WAIT_SECONDS):
        if player.stream.ended:
            client.stats.error(
                f"stream of {table.game_id} (user {player.user_id}) ended before version "
                f"{table.version}"
            )
            await open_streams(client, table)
        else:
            # Late, not lost (an overloaded live process): the delivery figures show how late,
            # and the check at the end whether it ever came. The seat reloads its view anyway.
            client.stats.events[
                (client.stats.phase, f"seats that waited over {STREAM_WAIT_SECONDS:g} s")
            ] += 1
    if ARGS.stream_views and may_act:
        # Its view follows the version event on its stream.
        streamed = await player.stream.view_of(table.version, VIEW_WAIT_SECONDS)
        if streamed is not None:
            client.stats.events[(client.stats.phase, "views from the stream")] += 1
            return streamed
        client.stats.events[(client.stats.phase, "views the stream did not bring: reloaded")] += 1
    view = await client.view(player, table.game_id)
    if view is None:
        await asyncio.sleep(0.2)
    return view


async def step(client: Client, table: Table, gate: Gate | None) -> None:
    """One turn of a table: the seat to move learns of it, reloads its view, and acts (or
    idles)."""
    turn = await seat_to_act(client, table)
    if turn is None:
        return
    player, view = turn
    legal = [a for a in view["table"]["legal_actions"] if a["type"] != "catch"]
    if not legal:
        table.latest = None  # not this seat's turn after all: reload
        await asyncio.sleep(0.05)
        return
    version = view["version"]
    if player.user_id == table.idle_user and view["table"]["phase"] == "play":
        if not table.skipped_last:
            table.skipped_last = True
            await wait_out_turn(client, table, player, version)
            return
        table.skipped_last = False
    action = choose(view, client.rng)
    catch = catch_race(table, player, view, client.rng)
    if gate is not None:
        await gate.wait()
    await send_turn(client, table, player, action, catch, version)


async def seat_to_act(client: Client, table: Table) -> tuple[Player, dict[str, Any]] | None:
    """The seat whose turn it is, with its view of the table's latest version; None when this
    step has done what there was to do (a reload, a rematch, a newer view to decide on)."""
    latest = table.latest
    if latest is None:
        # Nobody's answer says whose turn it is (a timeout, a race lost on every side): a seat
        # reloads its view once its stream has the version, as docs/api.md tells a client.
        view = await learn(client, table, table.players[0])
        if view is not None:
            table.see(view)
        return None
    if latest["status"] == "finished":
        if not await rematch(client, table):
            await asyncio.sleep(0.5)
        return None
    if latest["status"] != "active":
        client.stats.error(f"game {table.game_id} is {latest['status']}")
        await asyncio.sleep(1)
        return None
    player = to_move(table, latest)
    view = player.view
    if view is None or view["version"] < table.version:
        view = await learn(client, table, player, may_act=True)
        if view is None:
            return None
        known = table.version
        table.see(view)
        if view["version"] > known:
            return None  # more happened (a timeout): decide again on the newer view
    if view["status"] != "active":
        table.see(view)
        return None
    return player, view


def catch_race(
    table: Table, player: Player, view: dict[str, Any], rng: random.Random
) -> tuple[Player, dict[str, Any]] | None:
    """A seat exposed on one card: another player catches it at this same version, racing this
    move. One of the two gets 409."""
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
            return (rng.choice(catchers), {"type": "catch", "target": seat["seat"]})
    return None


async def send_turn(
    client: Client,
    table: Table,
    player: Player,
    action: dict[str, Any],
    catch: tuple[Player, dict[str, Any]] | None,
    version: int,
) -> None:
    """``player``'s action (and the catch racing it) sent at ``version``; the answers read."""
    tasks = [client.act(table, player, action, version, "action")]
    if catch is not None:
        tasks.append(client.act(table, catch[0], catch[1], version, "catch"))
        client.stats.events[(client.stats.phase, "catch races")] += 1
    results = await asyncio.gather(*tasks)
    moved_on = 0
    for (status, data), who in zip(results, [player] + ([catch[0]] if catch else []), strict=True):
        if status == 200 and data is not None:
            who.view = data
            table.see(data)
        elif status == 409:
            client.stats.events[(client.stats.phase, "409 races")] += 1
            details = (data or {}).get("error", {}).get("details") or {}
            moved_on = max(moved_on, int(details.get("current_version") or 0))
        else:
            await asyncio.sleep(0.2)
    if moved_on > table.version:
        # Refused at a version someone else moved past, and no answer of ours has it: learn it.
        table.version, table.latest = moved_on, None


@dataclass
class Control:
    """What every table loop reads: when to stop, and the open loop's gate once it is on."""

    stop: asyncio.Event
    gate: Gate | None = None


async def play(client: Client, table: Table, control: Control) -> None:
    while not control.stop.is_set():
        await step(client, table, control.gate)


async def open_crowd(
    client: Client, watchers: list[Watcher], total: int, concurrency: int = 50
) -> list[Stream]:
    """``total`` idle streams spread over the watchers' lobbies, opened ``concurrency`` at a
    time (a herd of 2,000 at once would only measure the listen backlog)."""
    streams: list[Stream] = []
    slots = asyncio.Semaphore(concurrency)

    async def one(watcher: Watcher) -> None:
        async with slots:
            stream = Stream(client, watcher, watcher.game_id, 0, kind="idle stream", record=False)
            streams.append(stream)
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(60):
                    await stream.opened.wait()

    await asyncio.gather(*(one(watchers[i % len(watchers)]) for i in range(total)))
    return streams


async def listen_to_announcements(redis_url: str, stats: Stats, stop: asyncio.Event) -> None:
    """Count the versions announced on Redis (channel ``<prefix>game:<id>``, live/announce.py):
    what a live process that did not apply the move itself learns it from."""
    import redis.asyncio as aioredis
    from django.conf import settings

    client = aioredis.from_url(redis_url)
    pubsub = client.pubsub(ignore_subscribe_messages=True)
    try:
        await pubsub.psubscribe(f"{settings.LIVE_CHANNEL_PREFIX}game:*")
        while not stop.is_set():
            if await pubsub.get_message(ignore_subscribe_messages=True, timeout=0.5):
                stats.announcements += 1
    finally:
        await pubsub.aclose()
        await client.aclose()


async def finish(stats: Stats, name: str, tasks: list[asyncio.Task[Any]]) -> None:
    """Wait for client tasks to finish the step they are in (an idle turn included)."""
    if not tasks:
        return
    done, late = await asyncio.wait(tasks, timeout=ARGS.idle_turn_seconds + 90)
    for task in late:
        task.cancel()
        stats.error(f"{name}: a client task did not finish its step")
    for task in done:
        if task.exception() is not None:
            stats.error(f"{name}: client task failed: {task.exception()!r}")


# ---------------------------------------------------------------------------------------------
# CPU and memory, from /proc
#
# CPU time of each group of processes (name -> root pid; "client" is this process alone, the
# others a process with all its descendants): what each part of the service used in a phase,
# whatever else the machine ran meanwhile.

CPU_ROOTS: dict[str, list[int]] = {}  # "live": every live process
CPU_PHASES = ("closed", "open", "crowd")


def parse_stat(raw: str) -> tuple[int, int, int]:
    """Parent pid, own CPU ticks (user + system) and reaped children's ticks from a
    ``/proc/<pid>/stat`` line (the command name, in parentheses, may hold spaces)."""
    fields = raw.rsplit(")", 1)[1].split()
    # fields[0] is the state; then ppid, …; utime, stime, cutime, cstime are fields 14-17 of
    # the line, 11-14 here.
    return int(fields[1]), int(fields[11]) + int(fields[12]), int(fields[13]) + int(fields[14])


def read_procs() -> dict[int, tuple[int, int, int]]:
    procs: dict[int, tuple[int, int, int]] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            procs[int(entry.name)] = parse_stat(Path(f"/proc/{entry.name}/stat").read_text())
        except (OSError, ValueError, IndexError):
            continue  # gone meanwhile
    return procs


def descendants(procs: dict[int, tuple[int, int, int]], root: int) -> list[int]:
    """``root`` and every process below it that is alive in ``procs``."""
    children: dict[int, list[int]] = defaultdict(list)
    for pid, (parent, _, _) in procs.items():
        children[parent].append(pid)
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        if pid in procs:
            out.append(pid)
        todo.extend(children.get(pid, ()))
    return out


def tree_ticks(procs: dict[int, tuple[int, int, int]], root: int) -> int:
    """CPU ticks of a process tree: each member's own time plus its reaped children's. A member
    that exits moves from the first term to its parent's second once reaped (a PostgreSQL
    backend that closed is in the postmaster's), so the sum counts it once before and after."""
    return sum(procs[pid][1] + procs[pid][2] for pid in descendants(procs, root))


def cpu_seconds() -> dict[str, float]:
    """CPU seconds (user + system) so far per group in CPU_ROOTS."""
    tick = os.sysconf("SC_CLK_TCK")
    procs = read_procs()
    out: dict[str, float] = {}
    for name, roots in CPU_ROOTS.items():
        if name == "client":
            out[name] = sum(procs.get(root, (0, 0, 0))[1] for root in roots) / tick
        else:
            out[name] = sum(tree_ticks(procs, root) for root in roots) / tick
    return out


def memory_of_trees(roots: list[int]) -> dict[int, tuple[int, int]]:
    """Resident memory (bytes) and threads of each process of the trees."""
    out = {}
    procs = read_procs()
    for pid in (pid for root in roots for pid in descendants(procs, root)):
        with contextlib.suppress(OSError, ValueError, IndexError):
            status = dict(
                line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines()
            )
            out[pid] = (int(status["VmRSS"].split()[0]) * 1024, int(status["Threads"]))
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


async def drive(
    args: argparse.Namespace,
    base: str,
    live_bases: list[str],
    redis_url: str,
    tables: list[Table],
    watchers: list[Watcher],
    stats: Stats,
) -> None:
    """The games, started and played without a pause from the warm-up through the closed loop,
    the open loop and the open-connections phase (a table left alone would time out on its own
    clock); only the open loop's gate and the idle streams are switched on between them."""
    import aiohttp

    rng = random.Random(args.seed)
    connector = aiohttp.TCPConnector(limit=0, limit_per_host=0)
    timeout = aiohttp.ClientTimeout(total=60)
    async with aiohttp.ClientSession(
        connector=connector, timeout=timeout, read_bufsize=2**20
    ) as session:
        client = Client(session, base, live_bases, stats, rng)
        listening = asyncio.Event()
        listener = asyncio.create_task(listen_to_announcements(redis_url, stats, listening))
        await open_games(args, client, tables)
        control = Control(stop=asyncio.Event())
        players = [asyncio.create_task(play(client, t, control)) for t in tables]
        await phase(stats, "warm-up", args.warmup)
        await phase(stats, "closed", args.duration)
        gate_task = open_the_gate(args, stats, control, rng)
        await phase(stats, "settle", min(3.0, args.duration / 4))
        live_pids = CPU_ROOTS.get("live", [])
        if live_pids:
            stats.rss["before"] = memory_of_trees(live_pids)
        await phase(stats, "open", args.duration)
        crowd: list[Stream] = []
        if args.idle_streams and watchers:
            crowd = await crowd_phase(args, client, watchers)
            if live_pids:
                stats.rss["after"] = memory_of_trees(live_pids)
        stats.phase = "drain"
        control.stop.set()
        stats.stopped_at = datetime.now(UTC)
        await gate_task
        await finish(stats, "games", players)
        await drain(stats, crowd, tables)
        listening.set()
        await listener


async def open_games(args: argparse.Namespace, client: Client, tables: list[Table]) -> None:
    """The setup phase: every table's game started and its seats' streams opened."""
    stats = client.stats
    stats.phase = "setup"
    await asyncio.to_thread(start_games, args, tables)
    opened = await asyncio.gather(*(open_streams(client, t) for t in tables))
    spread = Counter(client.live_for(t.game_id) for t in tables)
    print(
        "  games' streams per live process: "
        + " / ".join(str(spread[url]) for url in client.live_bases),
        flush=True,
    )
    if not all(opened):
        stats.error("not every seat's stream opened")


def open_the_gate(
    args: argparse.Namespace, stats: Stats, control: Control, rng: random.Random
) -> asyncio.Task[None]:
    """The open loop's gate, at ``--rate-fraction`` of the closed loop's action rate."""
    actions = sum(
        n for (ph, kind, _, _), n in stats.codes.items() if ph == "closed" and kind == "action"
    )
    rate = max(actions / stats.window["closed"] * args.rate_fraction, 0.1)
    stats.open_rate = rate
    print(f"  open loop at {rate:.1f} actions/s", flush=True)
    gate = Gate(rate, stats, rng)
    control.gate = gate
    return asyncio.create_task(gate.run(control.stop))


async def crowd_phase(
    args: argparse.Namespace, client: Client, watchers: list[Watcher]
) -> list[Stream]:
    """The idle streams opened, then the crowd phase played with them open."""
    stats = client.stats
    stats.phase = "crowd ramp"
    started = time.perf_counter()
    crowd = await open_crowd(client, watchers, args.idle_streams)
    stats.crowd_open_seconds = time.perf_counter() - started
    stats.crowd_opened = sum(1 for s in crowd if s.version >= 0 and not s.ended)
    print(
        f"  {stats.crowd_opened:,} idle streams open ({stats.crowd_open_seconds:.1f} s to open)",
        flush=True,
    )
    await phase(stats, "crowd", args.duration)
    still = sum(1 for s in crowd if not s.ended)
    if still != stats.crowd_opened:
        stats.error(f"{stats.crowd_opened - still} idle streams closed during the phase")
    return crowd


async def drain(stats: Stats, crowd: list[Stream], tables: list[Table]) -> None:
    """After the stop: the last moves' events awaited, then every stream closed."""
    # Wait (up to 10 s) until every measured move has reached every other seat, so that a late
    # delivery counts as late, not as lost.
    for _ in range(100):
        if not any(deliveries(stats.moves, stats.arrivals, p)[2] for p in ("open", "crowd")):
            break
        await asyncio.sleep(0.1)
    for stream in crowd:
        await stream.close()
    for table in tables:
        for player in table.players:
            if player.stream is not None:
                await player.stream.close()


# ---------------------------------------------------------------------------------------------
# Checking the database


def verify(tables: list[Table], stats: Stats) -> list[str]:
    """Exactly-once checks against the database, and every measured move delivered. Returns the
    failures."""
    from django.db import connections

    connections.close_all()
    games = [g for t in tables for g in t.games]
    failures = check_player_moves(games, stats)
    failures += check_timeouts(games, stats)
    moves = sum(stats.applied.values())
    if moves and stats.announcements < moves:
        # Only Redis brings the API's moves to the live processes (the database re-check
        # would still deliver them, a second late).
        failures.append(f"{stats.announcements} versions announced on Redis for {moves} moves")
    for name in ("open", "crowd"):
        _, _, missing = deliveries(stats.moves, stats.arrivals, name)
        if missing:
            failures.append(f"{name}: {missing} accepted moves never reached every other seat")
    connections.close_all()
    return failures


def check_player_moves(games: list[str], stats: Stats) -> list[str]:
    """Each game's moves by its players in the database, against the moves the API accepted."""
    from games.models import Move

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
    failures = []
    for game in games:
        got = player_moves.get(uuid.UUID(game), 0)
        if got != stats.applied[game]:
            failures.append(f"game {game}: {got} player moves, {stats.applied[game]} accepted")
    return failures


def check_timeouts(games: list[str], stats: Stats) -> list[str]:
    """Every timeout at or after its deadline, and one for each turn the client waited out."""
    from games.models import Game, Move

    failures: list[str] = []
    turn = {
        str(pk): s for pk, s in Game.objects.filter(pk__in=games).values_list("pk", "turn_seconds")
    }
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
    return failures


# ---------------------------------------------------------------------------------------------
# Report


def ms(value: float) -> str:
    return f"{value * 1000:.1f}"


def mib(value: float) -> str:
    return f"{value / 2**20:,.0f} MiB"


def accepted_moves(stats: Stats, phase: str) -> int:
    return sum(
        n
        for (p, kind, status, _), n in stats.codes.items()
        if p == phase and kind in ("action", "catch") and status == 200
    )


def cpu_report(stats: Stats) -> None:
    """Where the cores went in the measured phases, and the CPU ms each accepted move cost in
    each process group."""
    phases = [p for p in CPU_PHASES if p in stats.cpu]
    if not phases:
        return
    groups = list(stats.cpu[phases[0]])
    print("\n## CPU per process, from /proc\n")
    print("Cores in use (2 cores = 2.00), then CPU ms per accepted move; `live` is every live")
    print("process together. `client` is this load client.\n")
    print("| phase | figure | " + " | ".join(groups) + " | service (all but client) |")
    print("|---|---|" + "---:|" * (len(groups) + 1))
    for name in phases:
        used, window = stats.cpu[name], stats.window[name]
        moves = accepted_moves(stats, name)
        service = sum(v for g, v in used.items() if g != "client")
        cells = " | ".join(f"{used[g] / window:.2f}" for g in groups)
        print(f"| {name} | cores | {cells} | {service / window:.2f} |")
        if moves:
            cells = " | ".join(f"{1000 * used[g] / moves:.2f}" for g in groups)
            print(f"| {name} | ms/move | {cells} | **{1000 * service / moves:.2f}** |")


def delivery_rows(stats: Stats) -> dict[str, float]:
    """Print the delivery table; return each measured phase's p99 (ms, every other seat)."""
    print("\n## Move to the other players' screens\n")
    print("From an accepted action's request being sent to the `version` event with its version")
    print("arriving on the other seats' streams: per seat, and to the last of them (every other")
    print("screen has it; the target is on this one).\n")
    print(
        "| phase | moves | to every other seat: p50 / p95 / **p99** / max ms "
        "| per seat: p50 / p99 ms | never arrived |"
    )
    print("|---|---:|---:|---:|---:|")
    p99s = {}
    for name in ("open", "crowd"):
        if name not in stats.window:
            continue
        per_seat, per_move, missing = deliveries(stats.moves, stats.arrivals, name)
        p99s[name] = percentile(per_move, 99) * 1000
        print(
            f"| {name} | {len(per_move) + missing:,} | {ms(percentile(per_move, 50))} / "
            f"{ms(percentile(per_move, 95))} / **{ms(percentile(per_move, 99))}** / "
            f"{ms(max(per_move) if per_move else float('nan'))} | "
            f"{ms(percentile(per_seat, 50))} / {ms(percentile(per_seat, 99))} | {missing} |"
        )
    for name in ("open", "crowd"):
        if name in stats.window:
            _, after, _ = deliveries(stats.moves, stats.arrivals, name, from_answer=True)
            print(
                f"\n- {name}: from the action's answer to every other seat (the fan-out's own "
                f"part): p50 {ms(percentile(after, 50))} / p99 {ms(percentile(after, 99))} ms"
            )
    return p99s


def count_requests(stats: Stats, phase: str, kind: str, status: int | None = None) -> int:
    return sum(
        n
        for (p, k, st, _), n in stats.codes.items()
        if p == phase and k == kind and (status is None or st == status)
    )


def report_pgbench(bench: Pgbench | None) -> None:
    print("\n## The database's ceiling: pgbench\n")
    if bench is not None and not bench.error:
        print(
            f"`{bench.command}` (scale {bench.scale}) on the same PostgreSQL, before the games, "
            f"the service's processes idle: **{bench.tps:,.1f} transactions/s**"
            f" ({bench.failed} failed)."
        )
    elif bench is not None:
        print(f"pgbench FAILED: {bench.error}")


def report_closed_loop(args: argparse.Namespace, stats: Stats) -> float:
    """The closed loop's table; returns the accepted moves per second."""
    closed = stats.window["closed"]
    bench = stats.pgbench
    print("\n## Throughput, closed loop\n")
    print(f"{args.games} tables of {args.players} players, {args.duration:g} s.\n")
    print(
        "| request | requests | per second | accepted (200) per second | p50 ms | p95 ms | p99 ms |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    rows = [
        ("action", "game actions (POST actions/)"),
        ("catch", "catches racing a move (POST actions/)"),
        ("view", "game view of the seat to move (GET, If-None-Match)"),
    ]
    for kind, label in rows:
        lat = stats.latency[("closed", kind)]
        n = count_requests(stats, "closed", kind)
        print(
            f"| {label} | {n:,} | {n / closed:,.1f}"
            f" | {count_requests(stats, 'closed', kind, 200) / closed:,.1f}"
            f" | {ms(percentile(lat, 50))} | {ms(percentile(lat, 95))}"
            f" | {ms(percentile(lat, 99))} |"
        )
    moves_rate = accepted_moves(stats, "closed") / closed
    ratio = moves_rate / bench.tps if bench and bench.tps == bench.tps and bench.tps else math.nan
    print(f"\n- accepted moves/s (actions and catches, closed loop): **{moves_rate:,.1f}**")
    print(f"- ratio moves/s ÷ pgbench transactions/s: **{ratio:.3f}**")
    views = count_requests(stats, "closed", "view")
    print(
        f"- view requests per accepted move: {views / max(accepted_moves(stats, 'closed'), 1):.2f}"
    )
    return moves_rate


def report_open_loop(args: argparse.Namespace, stats: Stats) -> tuple[float, dict[str, float]]:
    """The open loop's latencies; returns the action p99 (ms) and delivery p99 per phase."""
    rate = stats.open_rate
    print(f"\n## Latency at a fixed arrival rate (open loop, {rate:.1f} actions/s)\n")
    print(
        f"Poisson arrivals at {args.rate_fraction:g} × the closed loop's action rate; no polling:"
    )
    if args.stream_views:
        print("the seat to move acts on the view its stream brings with the version it waits for.")
    else:
        print("the seat to move reloads its view when its stream brings the version it waits for.")
    for name in ("open", "crowd"):
        if name in stats.window:
            print(f"Arrivals that found no player ready ({name}): {stats.missed_arrivals[name]}.")
    print("\n| phase | request | requests | per second | p50 ms | p95 ms | p99 ms | max ms |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for name in ("open", "crowd"):
        if name not in stats.window:
            continue
        for kind, label in (("action", "game action"), ("view", "game view"), ("catch", "catch")):
            lat = stats.latency[(name, kind)]
            print(
                f"| {name} | {label} | {len(lat):,} | {len(lat) / stats.window[name]:,.1f} | "
                f"{ms(percentile(lat, 50))} | {ms(percentile(lat, 95))} | "
                f"{ms(percentile(lat, 99))} | {ms(max(lat) if lat else float('nan'))} |"
            )
    return percentile(stats.latency[("open", "action")], 99) * 1000, delivery_rows(stats)


def report_crowd(args: argparse.Namespace, stats: Stats, tables: list[Table]) -> None:
    print("\n## Open live connections\n")
    opens = stats.latency[("crowd ramp", "idle stream")]
    print(
        f"- {stats.crowd_opened:,} idle streams (of {args.idle_streams:,} asked) held by "
        f"the {args.live_processes} live process(es) for "
        f"{stats.window['crowd']:.0f} s while the games played at {stats.open_rate:.1f} "
        f"actions/s, besides the {sum(len(t.players) for t in tables)} seats' own streams"
    )
    print(
        f"- opened in {stats.crowd_open_seconds:.1f} s, 50 at a time: time to the first "
        f"event p50 {ms(percentile(opens, 50))} ms, p99 {ms(percentile(opens, 99))} ms"
    )
    for when in ("before", "after"):
        memory = stats.rss.get(when)
        if memory:
            total = sum(rss for rss, _ in memory.values())
            each = ", ".join(f"{mib(rss)} ({threads} threads)" for rss, threads in memory.values())
            print(f"- RSS of the live process tree {when} the idle streams: {mib(total)}: {each}")
    if stats.rss.get("before") and stats.rss.get("after") and stats.crowd_opened:
        grown = sum(r for r, _ in stats.rss["after"].values()) - sum(
            r for r, _ in stats.rss["before"].values()
        )
        print(f"- per idle stream: {grown / stats.crowd_opened / 1024:,.1f} KiB")


def report_answers(stats: Stats, failures: list[str]) -> int:
    """Every answer and the exactly-once checks; returns the number of unexpected answers."""
    print("\n## Answers (every phase)\n")
    print("| phase | request | status | code | count | expected |")
    print("|---|---|---:|---|---:|---|")
    for (phase_, kind, status, code), n in sorted(stats.codes.items()):
        ok = "yes" if expected(kind, status, code) else "**NO**"
        print(f"| {phase_} | {kind} | {status} | {code} | {n:,} | {ok} |")
    print("\n## Events and exactly-once checks\n")
    for (phase_, what), n in sorted(stats.events.items()):
        print(f"- {phase_}: {what}: {n:,}")
    games = sum(1 for _ in stats.applied)
    print(f"- games played: {games}; accepted actions: {sum(stats.applied.values()):,}")
    print(
        f"- versions announced on Redis (`<prefix>game:*`, what a live process may hear): "
        f"{stats.announcements:,}"
    )
    for line in stats.errors[:30]:
        print(f"- error: {line}")
    for line in failures[:30]:
        print(f"- check FAILED: {line}")
    print("- every accepted action is one move, every timeout after its deadline, every measured")
    print(f"  move on every other seat's stream: {'yes' if not failures else 'NO'}")
    print(f"- load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return stats.unexpected()


def report(args: argparse.Namespace, stats: Stats, failures: list[str], tables: list[Table]) -> int:
    """Print the run's report (markdown) and its verdicts; the exit status of the run."""
    bench = stats.pgbench
    report_pgbench(bench)
    report_closed_loop(args, stats)
    p99_action, delivery_p99 = report_open_loop(args, stats)
    if "crowd" in stats.window:
        report_crowd(args, stats, tables)
    cpu_report(stats)
    unexpected = report_answers(stats, failures)

    print("\n## Targets\n")
    verdicts = [
        (
            f"action p99 < {TARGET_ACTION_P99_MS:g} ms at half the maximum rate",
            p99_action < TARGET_ACTION_P99_MS,
            f"{p99_action:.1f} ms",
        ),
    ]
    for name, label in (("open", "open loop"), ("crowd", f"{args.idle_streams:,} idle streams")):
        if name in delivery_p99:
            verdicts.append(
                (
                    f"move to every other screen p99 < {TARGET_DELIVERY_P99_MS:g} ms ({label})",
                    delivery_p99[name] < TARGET_DELIVERY_P99_MS,
                    f"{delivery_p99[name]:.1f} ms",
                )
            )
    verdicts += [
        ("no errors but the intended 409s", unexpected == 0, f"{unexpected} unexpected"),
        ("exactly-once and delivery checks", not failures, f"{len(failures)} failed"),
    ]
    for label, ok, value in verdicts:
        print(f"- {label}: {value} {'ok' if ok else 'MISSED'}")
    if unexpected or failures or stats.errors or (bench is not None and bench.error):
        return 1
    if args.check_targets and not all(ok for _, ok, _ in verdicts):
        return 1
    return 0


# ---------------------------------------------------------------------------------------------
# Main


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument(
        "--live-processes",
        type=int,
        default=1,
        help="live processes (compose's live service), each game's streams on one of them",
    )
    p.add_argument("--games", type=int, default=50, help="concurrent games (tables)")
    p.add_argument("--players", type=int, default=3, choices=range(2, 11), metavar="2..10")
    p.add_argument("--duration", type=float, default=60, help="seconds of each measured phase")
    p.add_argument("--warmup", type=float, default=5)
    p.add_argument("--rate-fraction", type=float, default=0.5, help="open loop: × max rate")
    p.add_argument(
        "--idle-streams",
        type=int,
        default=2000,
        help="idle live connections of the last phase (0: no such phase)",
    )
    p.add_argument(
        "--watchers", type=int, default=100, help="users holding the idle streams, a lobby each"
    )
    p.add_argument(
        "--pgbench-seconds",
        type=float,
        help="length of the pgbench run (default: --duration; 0: none)",
    )
    p.add_argument("--idle-fraction", type=float, default=0.1, help="games with an idle player")
    p.add_argument("--idle-turn-seconds", type=int, default=5, help="their turn clock")
    p.add_argument("--turn-seconds", type=int, default=3600, help="clock of the other games")
    p.add_argument("--target-score", type=int, default=0, help="0: one-round matches")
    p.add_argument("--retry-fraction", type=float, default=0.02, help="actions sent twice")
    p.add_argument(
        "--no-stream-views",
        dest="stream_views",
        action="store_false",
        help="streams without ?view=true: the seat to move reloads its view (GET) every turn",
    )
    p.add_argument(
        "--web-workers", type=int, help="gunicorn workers (default: compose's, gunicorn.conf.py)"
    )
    p.add_argument(
        "--web-threads", type=int, help="threads per gunicorn worker (default: compose's)"
    )
    p.add_argument("--celery-concurrency", type=int, help="worker processes (default: compose's)")
    p.add_argument(
        "--pg",
        help="an existing PostgreSQL server (URL, no database name; e.g. " + DEFAULT_PG + ") to "
        "create the databases on; default: a private cluster in a temporary directory",
    )
    p.add_argument("--conn-max-age", type=int, help="CONN_MAX_AGE of web (default: compose's)")
    p.add_argument(
        "--db-pool",
        type=int,
        help="DATABASE_POOL_SIZE of live, worker and beat (default: compose's)",
    )
    p.add_argument(
        "--no-prepared-statements",
        dest="prepared_statements",
        action="store_false",
        help="DATABASE_PREPARED_STATEMENTS=false for every process (docker-compose.yml: true)",
    )
    p.add_argument("--redis-url", help="use this Redis instead of a private redis-server")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--keep-db", action="store_true", help="do not drop the database")
    p.add_argument("--check-targets", action="store_true", help="exit 1 when a target is missed")
    args = p.parse_args(argv)
    if args.games < 1 or args.duration <= 0:
        p.error("--games and --duration must be positive")
    if args.idle_streams < 0 or args.watchers < 1:
        p.error("--idle-streams must be 0 or more and --watchers positive")
    if args.live_processes < 1:
        p.error("--live-processes must be positive")
    if args.pgbench_seconds is None:
        args.pgbench_seconds = args.duration
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
        redis_server_command(binary, port, tmp),
        dict(os.environ),
    )
    import redis

    client = redis.Redis(host="127.0.0.1", port=port, socket_timeout=1)
    wait_for(client.ping, "redis-server", 15)
    yield f"redis://127.0.0.1:{port}/0"


@contextlib.contextmanager
def private_postgres(tmp: Path, procs: Processes, url: str | None) -> Iterator[str]:
    """A throwaway PostgreSQL cluster of this machine's PostgreSQL (default), or ``url``.

    Private because the service under load holds many connections (pools, persistent ones,
    pgbench's clients), and a shared server's max_connections belongs to everyone else too.
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
        [*as_user, *initdb_command(binary.parent / "initdb", data)],
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


@dataclass(frozen=True)
class Server:
    name: str  # "web", "live0", "live1", …
    argv: list[str]
    env: dict[str, str]
    port: int

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


COMPOSE_FILE = ROOT / "docker-compose.yml"
# The port each HTTP service listens on in docker-compose.yml, moved to a free one here.
COMPOSE_PORTS = {"web": "8000", "live": "8001"}


def compose_service(name: str) -> dict[str, Any]:
    import yaml

    with COMPOSE_FILE.open() as file:
        service: dict[str, Any] = yaml.safe_load(file)["services"][name]
    return service


def compose_argv(name: str, port: int | None = None) -> list[str]:
    """The service's ``command`` as compose runs it, on 127.0.0.1 and ``port`` instead of
    compose's address and port; ``python``, ``gunicorn`` and ``celery`` are this virtualenv's
    (first on the ``PATH`` of service_env)."""
    command = compose_service(name)["command"]
    argv = command.split() if isinstance(command, str) else [str(part) for part in command]
    if port is not None:
        old = COMPOSE_PORTS[name]
        argv = [part.replace(f"0.0.0.0:{old}", f"127.0.0.1:{port}") for part in argv]
        argv = [str(port) if part == old else part for part in argv]
    return ["127.0.0.1" if part == "0.0.0.0" else part for part in argv]


def service_env(
    args: argparse.Namespace, name: str, database_url: str, redis_url: str, tmp: Path
) -> dict[str, str]:
    """The service's ``environment`` from docker-compose.yml, on this run's database and Redis,
    with what a load run needs beside it and the knobs given on the command line; nothing of
    this shell's environment but ``PATH`` (this virtualenv first, as in the image)."""
    service = compose_service(name)
    env = {str(k): str(v) for k, v in (service.get("environment") or {}).items()}
    env.update(
        DATABASE_URL=database_url,
        REDIS_URL=redis_url,
        THROTTLE_AUTH="1000000/s",
        THROTTLE_ACTIONS="1000000/s",
        THROTTLE_GAMES="1000000/s",
        TURN_SECONDS_MIN="1",
        STATIC_ROOT=str(tmp / "static"),
        PYTHONPATH=str(ROOT),
        PYTHONUNBUFFERED="1",
        PATH=os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")]),
        HOME=str(tmp),
        TMPDIR=str(tmp),
    )
    # What a container has of its own: a fresh directory for each tmpfs mount (the worker's
    # metrics directory), its own scrape port.
    for mount in service.get("tmpfs", []):
        directory = tempfile.mkdtemp(prefix="tmpfs-", dir=tmp)
        env.update({key: directory for key, value in env.items() if value == mount})
    if "WORKER_METRICS_PORT" in env:
        env["WORKER_METRICS_PORT"] = str(free_port())
    if name == "web" and args.conn_max_age is not None:
        env["CONN_MAX_AGE"] = str(args.conn_max_age)
    if name != "web" and args.db_pool is not None:
        env["DATABASE_POOL_SIZE"] = str(args.db_pool)
    if not args.prepared_statements:
        env["DATABASE_PREPARED_STATEMENTS"] = "false"
    return env


def servers(args: argparse.Namespace, database_url: str, redis_url: str, tmp: Path) -> list[Server]:
    """web, then ``--live-processes`` live processes, each on a free port."""
    web_port = free_port()
    web = compose_argv("web", web_port)
    if args.web_workers is not None:
        web += ["--workers", str(args.web_workers)]
    if args.web_threads is not None:
        web += ["--threads", str(args.web_threads)]
    out = [Server("web", web, service_env(args, "web", database_url, redis_url, tmp), web_port)]
    for index in range(args.live_processes):
        port = free_port()
        env = service_env(args, "live", database_url, redis_url, tmp)
        out.append(Server(f"live{index}", compose_argv("live", port), env, port))
    return out


def describe(args: argparse.Namespace, http: list[Server]) -> str:
    web, live = http[0], http[1]
    keys = ("CONN_MAX_AGE", "DATABASE_POOL_SIZE", "DATABASE_PREPARED_STATEMENTS", "LOG_FORMAT")
    return (
        f"web `{' '.join(web.argv)}` ({', '.join(f'{k}={web.env.get(k)}' for k in keys)}); "
        f"{args.live_processes} × live `{' '.join(live.argv)}` "
        f"({', '.join(f'{k}={live.env.get(k)}' for k in keys)})"
    )


def print_header(args: argparse.Namespace) -> None:
    print("# API load\n")
    print(f"- date: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC")
    print(f"- command: python {' '.join(['bench/load.py', *sys.argv[1:]])}")
    print(f"- machine: {cpu_model()}, nproc {os.cpu_count()}, {platform.system()}")
    print(f"- python: {platform.python_implementation()} {platform.python_version()}")
    print(f"- load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(flush=True)


def start_services(
    args: argparse.Namespace, procs: Processes, database_url: str, redis_url: str, tmp: Path
) -> list[Server]:
    """Start web, the live processes, the Celery worker and beat as compose does; return the
    HTTP servers once they answer."""
    http = servers(args, database_url, redis_url, tmp)
    for server in http:
        procs.start(server.name, server.argv, server.env)
    for name in ("worker", "beat"):
        argv = compose_argv(name)
        if name == "worker" and args.celery_concurrency is not None:
            argv += ["--concurrency", str(args.celery_concurrency)]
        procs.start(name, argv, service_env(args, name, database_url, redis_url, tmp))
    for server in http:

        def ready(port: int = server.port) -> bool:
            procs.check_alive()
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz", timeout=2) as r:
                return bool(r.status == 200)

        wait_for(ready, server.name, 60)
    print(f"- shape (docker-compose.yml): {describe(args, http)}")
    print(
        "- also: celery worker `"
        + " ".join(compose_argv("worker"))
        + "` and beat, PostgreSQL and Redis, all on this machine",
        flush=True,
    )
    return http


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
    nofile = raise_fd_limit()
    if nofile < args.idle_streams + 1000:
        print(f"open files limited to {nofile}: too few for the idle streams", file=sys.stderr)
        return 2
    tmp = Path(tempfile.mkdtemp(prefix="uaw-load-"))
    procs = Processes(tmp)
    db = f"uaw_load_{os.getpid()}"
    bench_db = f"uaw_pgbench_{os.getpid()}"
    created: str | None = None
    keep_logs = True  # until the run has passed
    print_header(args)
    try:
        with (
            private_postgres(tmp, procs, args.pg) as pg,
            private_redis(tmp, procs, args.redis_url) as redis_url,
        ):
            admin_sql(pg, f'CREATE DATABASE "{db}"')
            created = pg
            # pgbench's tables are made meanwhile (the measurement itself waits for an idle
            # service, below).
            pgbench_init = None
            if args.pgbench_seconds > 0:
                pgbench_init = concurrent.futures.ThreadPoolExecutor(1).submit(
                    init_pgbench, pg, bench_db
                )
            # This process sets up the data with web's settings.
            os.environ.update(service_env(args, "web", f"{pg}/{db}", redis_url, tmp))
            os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
            started = time.perf_counter()
            tables, watchers = setup_data(args)
            print(
                f"- setup: {len(tables)} games, {len(tables) * args.players} players, "
                f"{len(watchers)} watchers' lobbies ({time.perf_counter() - started:.1f} s)",
                flush=True,
            )
            http = start_services(args, procs, f"{pg}/{db}", redis_url, tmp)
            for name, proc in procs.started:
                CPU_ROOTS.setdefault(name.rstrip("0123456789"), []).append(proc.pid)
            CPU_ROOTS["client"] = [os.getpid()]
            stats = Stats()
            if pgbench_init is not None:
                stats.phase = "pgbench"
                seconds = max(1, math.ceil(args.pgbench_seconds))
                print(f"  pgbench: {seconds} s, {args.games} clients", flush=True)
                stats.pgbench = run_pgbench(pgbench_init.result(), args.games, seconds)
            lives = [server.url for server in http[1:]]
            asyncio.run(drive(args, http[0].url, lives, redis_url, tables, watchers, stats))
            procs.check_alive()
            procs.stop("beat")
            procs.stop("worker")
            failures = verify(tables, stats)
            status = report(args, stats, failures, tables)
            if status == 0:
                keep_logs = False
            return status
    finally:
        for name, _ in procs.started:
            if name not in ("postgres", "redis"):
                procs.stop(name)
        with contextlib.suppress(Exception):
            from django.db import connections

            connections.close_all()
        if created and args.pg and not args.keep_db:
            admin_sql(args.pg, f'DROP DATABASE IF EXISTS "{db}" WITH (FORCE)')
            admin_sql(args.pg, f'DROP DATABASE IF EXISTS "{bench_db}" WITH (FORCE)')
        procs.stop()  # PostgreSQL and Redis last
        if keep_logs:
            print(f"\nlogs kept in {tmp}", file=sys.stderr)
        else:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
