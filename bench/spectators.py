"""Spectators: one game watched by many spectators' streams on one live process
(``games/{id}/watch/stream/``, games/spectators.py). A move must reach every spectator's stream
with p99 < 150 ms, and so must a message in the spectators' chat (docs/performance.md); the live
process's memory per spectator is reported.

Run from the repository root (Redis on 127.0.0.1:6379; give it a database number of its own,
the moves queue Celery tasks there that no worker takes)::

    python bench/spectators.py                          # 200 spectators, 30 moves
    python bench/spectators.py --spectators 400 --moves 60 --redis-url redis://127.0.0.1:6379/8

It migrates a fresh SQLite file, creates a two-player game that anyone may watch and one account
(with a bearer token) per spectator, and starts the live process as docker-compose.yml does
(``python -m config.asgi_server``: uvicorn with the project's options). Each spectator opens
its stream; the live process's resident memory is read (``/proc``) with one stream open and
with all of them, and the difference divided by the others is the memory per spectator. This
process stands for the web tier: it plays random legal moves through the real API (DRF's test
client, in process), each committed move announced on Redis after commit as the web tier does,
one move at a time: the next once every stream has the last (or after 10 s); after each move a
spectator (another each time, so that no one meets the chat's rate limit) posts a message to the
spectators' chat through the API, and the next move waits until every stream has it. It prints
the time from each move's request, and from its PUBLISH, to its event on every spectator's
stream, the time from each chat message's request to its ``chat`` event on every stream, and
the spectator count the table shows (``games_watch_retrieve``: live.presence). Exit status 1
when a stream missed a move or the count is wrong; the latency budget is reported, not enforced
(a shared machine's figure is "measured under load").
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.fanout import (  # noqa: E402  (after the path is set)
    LATENCY_BUDGET_MS,
    STARTUP_TIMEOUT,
    Game,
    add_redis_and_seed,
    environment,
    free_port,
    in_a_folder,
    move,
    percentile,
    set_up,
    time_publishing,
)

DELIVERY_TIMEOUT = 10.0
HEARTBEAT_SECONDS = 15.0  # live.driver's


class Spectator:
    """One spectator's Server-Sent Events stream, read by a coroutine on the readers' one event
    loop (a thread per stream would put 200 threads of this process between an event's arrival
    and its timestamp); records when each version arrived."""

    def __init__(self, base: str, game: Game, token: str) -> None:
        self.base, self.game, self.token = base, game, token
        self.arrived: dict[int, float] = {}
        self.chat_arrived: dict[int, float] = {}
        self.opened = threading.Event()
        self.writer: asyncio.StreamWriter | None = None

    async def run(self) -> None:
        host, port = self.base.removeprefix("http://").split(":")
        reader, self.writer = await asyncio.open_connection(host, int(port), limit=2**20)
        # HTTP/1.0: the body is the stream as written, with no chunk framing to undo.
        request = (
            f"GET /api/v1/games/{self.game.game_id}/watch/stream/?chat_after=0 HTTP/1.0\r\n"
            f"Host: {host}\r\nAuthorization: Bearer {self.token}\r\n"
            "Accept: text/event-stream\r\n\r\n"
        )
        self.writer.write(request.encode())
        await self.writer.drain()
        event = ""
        try:
            while raw := await reader.readline():
                line = raw.decode().rstrip("\r\n")
                if line.startswith("event: "):
                    event = line.removeprefix("event: ")
                elif line.startswith("data: ") and event == "version":
                    self.arrived.setdefault(json.loads(line[6:])["version"], time.monotonic())
                    self.opened.set()
                elif line.startswith("data: ") and event == "chat":
                    for message in json.loads(line[6:])["messages"]:
                        self.chat_arrived.setdefault(message["id"], time.monotonic())
                elif line.startswith("data: ") and event == "end":
                    return
        except (OSError, asyncio.CancelledError):
            return  # closed at the end of the run


class Readers:
    """The event loop, on a thread of its own, that reads every spectator's stream."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.running: list[Any] = []

    def start(self, spectator: Spectator) -> None:
        self.running.append(asyncio.run_coroutine_threadsafe(spectator.run(), self.loop))

    def stop(self) -> None:
        for future in self.running:
            future.cancel()
        time.sleep(0.5)  # the readers' cancellations run on their loop
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)


def start_live(folder: Path, environ: dict[str, str]) -> tuple[str, subprocess.Popen[bytes], Path]:
    """The live process, started as docker-compose.yml starts it."""
    port = free_port()
    log = folder / "live.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "config.asgi_server", "--host", "127.0.0.1"]
            + ["--port", str(port)],
            cwd=ROOT,
            env=environ,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + STARTUP_TIMEOUT
    while time.monotonic() < deadline and process.poll() is None:
        try:
            with urllib.request.urlopen(base + "/healthz", timeout=3):
                return base, process, log
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            time.sleep(0.2)
    raise SystemExit(f"the live process never answered:\n{log.read_text()}")


def cpu_seconds(pid: int) -> float:
    """The process's user and system CPU time so far (``/proc``): what a move costs the live
    process whatever the machine's load."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def resident_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise SystemExit("no VmRSS in /proc")


def create_game(spectators: int) -> tuple[Game, dict[int, Any], list[str], Any]:
    """A started game of alice and bob that anyone may watch, the players' API clients, a token
    per spectator (one that may post to the chat), and a spectator's client (to read the count
    the table shows)."""
    from rest_framework.test import APIClient

    from games import services
    from players.models import ApiToken, User

    alice = User.objects.create_user(username="alice", display_name="Alice")
    bob = User.objects.create_user(username="bob", display_name="Bob")
    clients: dict[int, Any] = {}
    for user in (alice, bob):
        client = APIClient(SERVER_NAME="127.0.0.1")
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {ApiToken.issue(user, name='bench')[1]}")
        clients[user.pk] = client
    game = services.create_game(host=alice, max_players=2, target_score=100_000)
    services.join_game(user=bob, invite_code=game.invite_code)
    tokens = []
    for n in range(spectators):
        user = User.objects.create_user(username=f"spectator{n}", display_name=f"Spectator {n}")
        tokens.append(ApiToken.issue(user, name="bench")[1])
    reader = APIClient(SERVER_NAME="127.0.0.1")
    reader.credentials(HTTP_AUTHORIZATION=f"Bearer {tokens[0]}")
    return Game(str(game.pk), ()), clients, tokens, reader


def open_all(readers: Readers, base: str, game: Game, tokens: list[str]) -> list[Spectator]:
    spectators = [Spectator(base, game, token) for token in tokens]
    for spectator in spectators:
        readers.start(spectator)
    for spectator in spectators:
        if not spectator.opened.wait(60):
            raise SystemExit("a spectator's stream never opened")
    return spectators


def await_delivery(spectators: list[Spectator], what: str, key: int) -> None:
    """Until every stream has had ``key`` among its ``what`` (``arrived`` for a version,
    ``chat_arrived`` for a message), or the delivery timeout."""
    deadline = time.monotonic() + DELIVERY_TIMEOUT
    while time.monotonic() < deadline:
        if all(key in getattr(s, what) for s in spectators):
            return
        time.sleep(0.005)


def chat(game: Game, token: str, posted: dict[int, float]) -> int:
    """One message to the spectators' chat by the spectator of ``token``, through the API."""
    from rest_framework.test import APIClient

    client = APIClient(SERVER_NAME="127.0.0.1")
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    started = time.monotonic()
    answer = client.post(
        f"/api/v1/games/{game.game_id}/chat/",
        {"channel": "spectators", "text": f"Message {len(posted) + 1}"},
        format="json",
    )
    if answer.status_code != 201:
        raise SystemExit(f"chat refused: {answer.status_code} {answer.content!r}")
    posted[answer.json()["id"]] = started
    return int(answer.json()["id"])


def latency_line(name: str, latencies: list[float]) -> str:
    p50, p99 = statistics.median(latencies), percentile(latencies, 0.99)
    return (
        f"- {name}: {len(latencies)} deliveries, p50 {p50:.1f} ms, p99 {p99:.1f} ms, "
        f"max {max(latencies):.1f} ms (budget: p99 < {LATENCY_BUDGET_MS:.0f} ms)"
    )


def report(
    game: Game,
    spectators: list[Spectator],
    memory: dict[str, float],
    shown: int,
    posted: dict[int, float],
) -> int:
    failures = []
    expected = len(game.moved_at) * len(spectators)
    print(f"- moves: {game.moves}; spectators' streams: {len(spectators)}")
    for name, start in (
        ("move request to spectator's event", game.moved_at),
        ("PUBLISH to spectator's event", game.published_at),
    ):
        latencies = [
            (arrived - start[version]) * 1000
            for s in spectators
            for version, arrived in s.arrived.items()
            if version in game.moved_at and version in start
        ]
        if len(latencies) < expected:
            failures.append(f"streams received {len(latencies)} of {expected} moves")
            break
        print(latency_line(name, latencies))
    said = [
        (s.chat_arrived[n] - at) * 1000
        for s in spectators
        for n, at in posted.items()
        if n in s.chat_arrived
    ]
    if len(said) < len(posted) * len(spectators):
        failures.append(f"streams received {len(said)} of {len(posted) * len(spectators)} messages")
    elif said:
        print(latency_line("chat message request to spectator's event", said))
    print(
        f"- live process memory: {memory['one'] / 1024:.1f} MiB with one stream, "
        f"{memory['all'] / 1024:.1f} MiB with {len(spectators)}: "
        f"{memory['per']:.1f} KiB per spectator"
    )
    per_move = memory["cpu_ms_per_move"]
    print(
        f"- live process CPU per move and its chat message: {per_move:.1f} ms "
        f"({per_move * 1000 / len(spectators):.0f} µs per spectator's stream)"
    )
    print(f"- spectators the table shows (games_watch_retrieve): {shown}")
    if shown != len(spectators):  # the reader is one of them
        failures.append(f"the table shows {shown} spectators, not {len(spectators)}")
    for failure in failures:
        print(f"FAILED: {failure}")
    return 1 if failures else 0


def run(args: argparse.Namespace, folder: Path) -> int:
    environ = environment(folder, args.redis_url)
    environ["SQLITE_PATH"] = str(folder / "spectators.sqlite3")
    environ["LIVE_CHANNEL_PREFIX"] = f"bench-spectators-{uuid.uuid4().hex[:8]}:"
    set_up("bench/spectators.py", environ, args.redis_url)
    game, clients, tokens, reader = create_game(args.spectators)
    base, process, log = start_live(folder, environ)
    spectators: list[Spectator] = []
    readers = Readers()
    try:
        spectators = open_all(readers, base, game, tokens[:1])
        time.sleep(1)
        one = resident_kib(process.pid)
        spectators += open_all(readers, base, game, tokens[1:])
        time.sleep(2)  # the subscription confirmed and the streams settled
        every = resident_kib(process.pid)
        memory = {"one": one, "all": every, "per": (every - one) / max(len(tokens) - 1, 1)}
        rng = random.Random(args.seed)
        time_publishing([game])
        cpu_before = cpu_seconds(process.pid)
        posted: dict[int, float] = {}
        for n in range(args.moves):
            move(game, clients, rng)
            if game.over:
                break
            await_delivery(spectators, "arrived", max(game.moved_at))
            said = chat(game, tokens[1 + n % (len(tokens) - 1)], posted)
            await_delivery(spectators, "chat_arrived", said)
        memory["cpu_ms_per_move"] = (cpu_seconds(process.pid) - cpu_before) * 1000 / game.moves
        # Marks written at the same instant may lose one another (live.presence): the streams'
        # keep-alives write them again, all at once, within a heartbeat.
        time.sleep(HEARTBEAT_SECONDS + 1)
        answer = reader.get(f"/api/v1/games/{game.game_id}/watch/")
        shown = int(answer.json()["spectators"]) if answer.status_code == 200 else -1
        print(f"- load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        return report(game, spectators, memory, shown, posted)
    finally:
        readers.stop()
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
        if args.keep_log:
            print(log.read_text()[-4000:])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--spectators", type=int, default=200, help="streams (default 200)")
    parser.add_argument("--moves", type=int, default=30, help="moves (default 30)")
    add_redis_and_seed(parser)
    parser.add_argument("--keep-log", action="store_true", help="print the live process's log")
    args = parser.parse_args()
    if args.spectators < 2:
        parser.error("--spectators must be at least 2")
    return in_a_folder("bench-spectators-", lambda folder: run(args, folder))


if __name__ == "__main__":
    sys.exit(main())
