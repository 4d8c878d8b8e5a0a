"""Fan-out: with several live processes on one Redis, a move reaches the processes that watch its
game, and no other (live/announce.py, "Subscriptions").

Run from the repository root (Redis on 127.0.0.1:6379; give it a database number of its own,
the moves queue Celery tasks there that no worker takes)::

    python bench/fanout.py                          # 4 live processes, 8 games, 30 moves each
    python bench/fanout.py --processes 6 --moves 60 --redis-url redis://127.0.0.1:6379/9

It migrates a fresh SQLite file, creates a two-player game per watch plan below, and starts
``--processes`` uvicorn processes serving ``config.asgi`` (wrapped by ``app`` here, which adds
one route, ``/bench/fanout/``, answering the process's count of messages received from Redis and
of its subscriptions). The game's host opens one stream (``games/{id}/stream/``, bearer token) on
each process that watches it:

* game *k* < ``--processes``: on process *k* only;
* then a game watched by the first half of the processes, one by the second half, one by all;
* and one game that nobody watches live.

This process stands for the API: it plays random legal moves round robin through the real API
(DRF's test client, in process), each committed move announced on Redis after commit as the web
tier does. It prints, per live process, the messages it received from Redis during the moves
beside the moves of the games it watches (the budget: exactly those), what one pattern
subscription per process (the design before) would have delivered, each live process's CPU time,
and the time from each move's request to its event on every stream that watches it (budget: p99
< 150 ms, the latency goal of docs/performance.md). Exit status 1 when a process received a
message it was not watching for, missed one, or a stream missed a move.

The live processes use a channel prefix of this run's own (``LIVE_CHANNEL_PREFIX``), so other
users of the same Redis neither disturb the counts nor hear the moves.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import platform
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.common import sse_data  # noqa: E402  (the checkout on the path first)

COUNTS_PATH = "/bench/fanout/"
LATENCY_BUDGET_MS = 150.0
STARTUP_TIMEOUT = 90


# ---------------------------------------------------------------------------------------------
# The live process: config.asgi with one more route


_django_app: Callable[..., Any] | None = None


async def app(scope: dict[str, Any], receive: Callable[..., Any], send: Callable[..., Any]) -> None:
    """``config.asgi.application``, plus ``GET /bench/fanout/``: this process's counts."""
    global _django_app
    if _django_app is None:
        from config.asgi import application

        _django_app = application
    if scope["type"] == "http" and scope["path"] == COUNTS_PATH:
        from live import announce

        notifier = announce.notifier()
        body = json.dumps(
            {"received": notifier.received, "subscriptions": len(notifier.subscriptions())}
        ).encode()
        headers = [(b"content-type", b"application/json")]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": body})
        return
    await _django_app(scope, receive, send)


# ---------------------------------------------------------------------------------------------
# The bench


@dataclass
class Live:
    """One live process."""

    index: int
    base: str
    process: subprocess.Popen[bytes]
    log: Path

    def counts(self) -> dict[str, int]:
        with urllib.request.urlopen(self.base + COUNTS_PATH, timeout=5) as answer:
            counts: dict[str, int] = json.loads(answer.read())
            return counts

    def cpu_seconds(self) -> float:
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass
class Game:
    game_id: str
    watchers: tuple[int, ...]  # indexes of the live processes with a stream open on it
    moves: int = 0
    over: bool = False
    moved_at: dict[int, float] = field(default_factory=dict)  # version -> request started
    published_at: dict[int, float] = field(default_factory=dict)  # version -> sent to Redis


class Stream(threading.Thread):
    """One Server-Sent Events stream; records when each version arrived."""

    def __init__(self, live: Live, game: Game, token: str) -> None:
        super().__init__(daemon=True)
        self.live, self.game, self.token = live, game, token
        self.arrived: dict[int, float] = {}
        self.opened = threading.Event()
        self.ended = False
        self.connection: http.client.HTTPConnection | None = None

    def run(self) -> None:
        host, port = self.live.base.removeprefix("http://").split(":")
        self.connection = http.client.HTTPConnection(host, int(port), timeout=120)
        self.connection.request(
            "GET",
            f"/api/v1/games/{self.game.game_id}/stream/",
            headers={"Authorization": f"Bearer {self.token}", "Accept": "text/event-stream"},
        )
        response = self.connection.getresponse()
        try:
            for event, data in sse_data(response):
                if event == "version":
                    self.arrived.setdefault(json.loads(data)["version"], time.monotonic())
                    self.opened.set()
                elif event == "end":
                    self.ended = True
                    return
        except OSError:
            return  # closed at the end of the run

    def close(self) -> None:
        if self.connection is not None and self.connection.sock is not None:
            self.connection.sock.shutdown(socket.SHUT_RDWR)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


# Set by this run (its own SQLite file, Redis and prefix), never inherited.
NOT_INHERITED = frozenset({"DATABASE_URL", "REDIS_URL", "CI", "LIVE_CHANNEL_PREFIX"})


def environment(folder: Path, redis_url: str) -> dict[str, str]:
    environ = {k: v for k, v in os.environ.items() if k not in NOT_INHERITED}
    environ.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        SQLITE_PATH=str(folder / "fanout.sqlite3"),
        REDIS_URL=redis_url,
        LIVE_CHANNEL_PREFIX=f"bench-fanout-{uuid.uuid4().hex[:8]}:",
        LOG_LEVEL="WARNING",
        THROTTLE_AUTH="1000000/s",
        THROTTLE_ACTIONS="1000000/s",
        THROTTLE_GAMES="1000000/s",
        PYTHONUNBUFFERED="1",
        PYTHONPATH=str(ROOT),
    )
    return environ


def start_live(index: int, folder: Path, environ: dict[str, str]) -> Live:
    port = free_port()
    log = folder / f"live-{index}.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "bench.fanout:app", "--host", "127.0.0.1"]
            + ["--port", str(port), "--lifespan", "off", "--log-level", "warning"],
            cwd=ROOT,
            env=environ,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    return Live(index, f"http://127.0.0.1:{port}", process, log)


def wait_until_up(live: Live) -> None:
    deadline = time.monotonic() + STARTUP_TIMEOUT
    while time.monotonic() < deadline and live.process.poll() is None:
        try:
            live.counts()
            return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            time.sleep(0.2)
    raise SystemExit(f"live process {live.index} never answered:\n{live.log.read_text()}")


def watch_plan(processes: int) -> list[tuple[int, ...]]:
    everyone = tuple(range(processes))
    half = processes // 2
    return [(k,) for k in everyone] + [everyone[:half], everyone[half:], everyone, ()]


def two_players() -> tuple[Any, Any, dict[int, Any]]:
    """alice and bob, and by user id an API client (as 127.0.0.1) with a token of each."""
    from rest_framework.test import APIClient

    from players.models import ApiToken, User

    players = [
        User.objects.create_user(username=name, display_name=name.title())
        for name in ("alice", "bob")
    ]
    clients: dict[int, Any] = {}
    for user in players:
        client = APIClient(SERVER_NAME="127.0.0.1")
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {ApiToken.issue(user, name='bench')[1]}")
        clients[user.pk] = client
    return players[0], players[1], clients


def create_games(plans: list[tuple[int, ...]]) -> tuple[list[Game], dict[int, Any], str]:
    """Two players, a token for the host, and a started game per plan."""
    from games import services
    from players.models import ApiToken

    alice, bob, clients = two_players()
    host_token = ApiToken.issue(alice, name="streams", scope=ApiToken.SCOPE_PLAY)[1]
    games = []
    for watchers in plans:
        game = services.create_game(host=alice, max_players=2, target_score=0)
        services.join_game(user=bob, invite_code=game.invite_code)
        games.append(Game(str(game.pk), watchers))
    return games, clients, host_token


def move(game: Game, clients: dict[int, Any], rng: random.Random) -> None:
    """One random legal move of ``game`` by the seat to move, through the API."""
    from bench.per_move import pick
    from games.models import Game as GameRow

    status, mover = GameRow.objects.values_list("status", "current_user_id").get(pk=game.game_id)
    if status != GameRow.ACTIVE:
        game.over = True
        return
    url = f"/api/v1/games/{game.game_id}/"
    view = clients[mover].get(url).json()
    started = time.monotonic()
    answer = clients[mover].post(url + "actions/", pick(view, rng), format="json")
    if answer.status_code != 200:
        raise SystemExit(f"move refused: {answer.status_code} {answer.content!r}")
    game.moved_at[answer.json()["version"]] = started
    game.moves += 1


def time_publishing(games: list[Game]) -> None:
    """Note when each version is handed to Redis (after its commit, inside the move's request),
    so that delivery is timed apart from the move's own work."""
    from live import announce

    by_id = {g.game_id: g for g in games}
    real = announce.Notifier._publish_redis

    def publish(self: Any, game_id: str, version: int, news: Any = None) -> None:
        game = by_id.get(str(game_id))
        if game is not None:
            game.published_at[version] = time.monotonic()
        real(self, game_id, version, news)

    announce.Notifier._publish_redis = publish  # type: ignore[method-assign]


def await_subscriptions(lives: list[Live], games: list[Game]) -> None:
    """Until every process confirmed a subscription per game it watches (polled: the bench
    reads another process's state)."""
    wanted = {live.index: sum(live.index in g.watchers for g in games) for live in lives}
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if all(live.counts()["subscriptions"] == wanted[live.index] for live in lives):
            return
        time.sleep(0.05)
    raise SystemExit(f"subscriptions never settled: {[live.counts() for live in lives]}")


def await_delivery(streams: list[Stream], games: list[Game]) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if all(set(s.game.moved_at) <= set(s.arrived) for s in streams):
            return
        time.sleep(0.05)


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def report(
    lives: list[Live],
    games: list[Game],
    streams: list[Stream],
    figures: dict[str, dict[int, float]],
) -> int:
    failures = []
    moves = sum(g.moves for g in games)
    print(f"- moves: {moves} in {len(games)} games; live processes: {len(lives)}")
    print()
    print(
        "| live process | games watched | messages received | budget (its games' moves) | CPU ms |"
    )
    print("| --- | ---: | ---: | ---: | ---: |")
    total = 0
    for live in lives:
        watched = [g for g in games if live.index in g.watchers]
        budget = sum(g.moves for g in watched)
        received = int(figures["received"][live.index])
        total += received
        cpu = figures["cpu"][live.index] * 1000
        print(f"| {live.index} | {len(watched)} | {received} | {budget} | {cpu:.0f} |")
        if received != budget:
            failures.append(f"process {live.index} received {received}, budget {budget}")
    unwatched = sum(g.moves for g in games if not g.watchers)
    print()
    print(
        f"- messages sent to live processes: {total} for {moves} moves "
        f"({total / max(moves, 1):.2f} per move; one pattern subscription per process, as "
        f"before: {moves * len(lives)}, {len(lives)} per move)"
    )
    print(f"- moves of the game nobody watches: {unwatched}, received by no process")
    expected = sum(len(s.game.moved_at) for s in streams)
    for name, start in (
        ("move request to stream event", "moved_at"),
        ("PUBLISH to stream event", "published_at"),
    ):
        latencies = [
            (arrived - getattr(s.game, start)[version]) * 1000
            for s in streams
            for version, arrived in s.arrived.items()
            if version in s.game.moved_at
        ]
        if len(latencies) < expected:
            failures.append(f"streams received {len(latencies)} of {expected} moves")
            break
        p50, p99 = statistics.median(latencies), percentile(latencies, 0.99)
        print(
            f"- {name}: {len(latencies)} deliveries, p50 {p50:.1f} ms, p99 {p99:.1f} ms, "
            f"max {max(latencies):.1f} ms (budget: p99 < {LATENCY_BUDGET_MS:.0f} ms)"
        )
    for failure in failures:
        print(f"FAILED: {failure}")
    return 1 if failures else 0


def set_up(script: str, environ: dict[str, str], redis_url: str) -> None:
    """This process migrates and plays with the live processes' settings (``environ``); the
    run's first lines say how it was run and on what."""
    os.environ.clear()
    os.environ.update(environ)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", interactive=False, verbosity=0)
    print(f"- command: python {' '.join([script, *sys.argv[1:]])}")
    python = sys.version.split()[0]
    print(f"- machine: nproc {os.cpu_count()}, {platform.system()}, Python {python}")
    print(f"- load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"- Redis: {redis_url}, prefix {environ['LIVE_CHANNEL_PREFIX']}; SQLite")


def run(args: argparse.Namespace, folder: Path) -> int:
    environ = environment(folder, args.redis_url)
    set_up("bench/fanout.py", environ, args.redis_url)
    games, clients, token = create_games(watch_plan(args.processes))
    lives = [start_live(k, folder, environ) for k in range(args.processes)]
    streams: list[Stream] = []
    try:
        for live in lives:
            wait_until_up(live)
        streams = [Stream(lives[k], g, token) for g in games for k in g.watchers]
        for stream in streams:
            stream.start()
        for stream in streams:
            if not stream.opened.wait(30):
                raise SystemExit(f"a stream never opened:\n{stream.live.log.read_text()}")
        await_subscriptions(lives, games)
        before = {live.index: (live.counts()["received"], live.cpu_seconds()) for live in lives}
        rng = random.Random(args.seed)
        time_publishing(games)
        for _ in range(args.moves):
            for game in games:
                if not game.over:
                    move(game, clients, rng)
        await_delivery(streams, games)
        figures: dict[str, dict[int, float]] = {"received": {}, "cpu": {}}
        for live in lives:
            figures["received"][live.index] = live.counts()["received"] - before[live.index][0]
            figures["cpu"][live.index] = live.cpu_seconds() - before[live.index][1]
        return report(lives, games, streams, figures)
    finally:
        for stream in streams:
            stream.close()
        for live in lives:
            live.process.terminate()
        for live in lives:
            try:
                live.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                live.process.kill()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--processes", type=int, default=4, help="live processes (default 4)")
    parser.add_argument("--moves", type=int, default=30, help="moves per game (default 30)")
    add_redis_and_seed(parser)
    args = parser.parse_args()
    if args.processes < 2:
        parser.error("--processes must be at least 2")
    return in_a_folder("bench-fanout-", lambda folder: run(args, folder))


def add_redis_and_seed(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--redis-url",
        default=os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0",
        help="Redis (default: REDIS_URL, else redis://127.0.0.1:6379/0)",
    )
    parser.add_argument("--seed", type=int, default=1)


def in_a_folder(prefix: str, run: Callable[[Path], int]) -> int:
    """``run`` a bench in a temporary folder of its own (its SQLite file, logs), removed after."""
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    try:
        return run(folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
