"""Scale: the game view, the my-games list and the timer sweep on a small and a large database.

Run from the repository root (PostgreSQL on 127.0.0.1:5432, user postgres, trust)::

    python bench/scale.py                # 1,000 games vs 100,000 finished + 10,000 running
    python bench/scale.py --large 10000:1000 --runs 50   # a quicker look
    python bench/scale.py --keep         # keep the two databases (then --reuse skips building)

It creates one database per size (``uaw_scale_<finished>_<running>``), migrates it, fills it
with ``build`` below (bulk inserts of users, games with real engine states, seats and moves),
runs ``VACUUM ANALYZE``, then times each query set ``--runs`` times per size (100; at least 50),
in ``--rounds`` rounds that alternate between the two databases so that a busy spell of a shared
machine weighs on both alike. It prints the median wall time of each call, PostgreSQL's own
execution time of its statements (``EXPLAIN ANALYZE``), the ratios large / small, and the
``EXPLAIN (ANALYZE, BUFFERS)`` plans of the large run. The databases are dropped at the end
unless ``--keep``. Exit status 1 when a wall-time ratio is above ``--max-ratio`` (1.5).

What is timed (each the code the API runs, called in-process through the ORM):

* **game view**: ``selectors.game_with_seats`` (the game's seats, each joined to the game and
  its user: one query) for one running game of the probe user (the engine's rendering of the
  view, which does not touch the database, is left out);
* **my games**: ``selectors.my_games(user).prefetch_related("seats__user")[:200]``, as
  ``GameListView`` runs it, for the probe user (a fixed 20 finished + 5 running games at every
  size, so only the database around them grows);
* **timer sweep**: ``services.sweep_expired_turns(now)``, its due-games query. Running games'
  deadlines lie ahead (a sweep that keeps up leaves nothing overdue), so the sweep finds
  nothing to do, which is what almost every one of its runs every second looks like.

``tests/test_query_plans.py`` imports ``build`` and ``QUERIES`` from here and checks the plans at
1/100 scale in CI.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.common import cpu_model  # noqa: E402  (the checkout on the path first)

DEFAULT_PG = "postgres://postgres@127.0.0.1:5432"
SMALL = (900, 100)  # 1,000 games
LARGE = (100_000, 10_000)
PROBE_FINISHED = 20
PROBE_RUNNING = 5
MOVES_PER_GAME = 10
GAMES_PER_USER = 10  # on average, over all games ever played
WATCHED = ("games_game", "games_seat")


# ---------------------------------------------------------------------------------------------
# Building a database (Django must be set up by the caller)


@dataclass(frozen=True)
class Probe:
    """The user whose queries are timed, and one running game of theirs."""

    user_id: int
    game_id: str
    now: datetime  # the time the data was built for: every running game's deadline is after it


class StatePools:
    """Real engine states, a few per player count, reused across games (dealing and playing
    100,000 rounds would take minutes and change nothing the queries see)."""

    def __init__(self, rng: random.Random, size: int = 24) -> None:
        self.rng = rng
        self.size = size
        self._finished: dict[int, list[dict[str, Any]]] = {}
        self._running: dict[int, list[dict[str, Any]]] = {}

    def _play(self, players: int, *, to_end: bool) -> dict[str, Any]:
        from games.engine.uno.actions import NEXT_ROUND, Action
        from games.engine.uno.allwild.legal import legal_actions
        from games.engine.uno.allwild.rules import apply, new_game
        from games.engine.uno.state import MATCH_OVER, ROUND_OVER

        state, _ = new_game(players=players, rng=self.rng, preset="standard", target_score=0)
        steps = 10**6 if to_end else self.rng.randint(5, 60)
        for _ in range(steps):
            if state.phase == MATCH_OVER:
                break
            if state.phase == ROUND_OVER:
                state, _ = apply(state, Action(NEXT_ROUND), self.rng)
                continue
            state, _ = apply(state, self.rng.choice(legal_actions(state, state.current)), self.rng)
        if not to_end and state.phase in (ROUND_OVER, MATCH_OVER):
            return self._play(players, to_end=False)  # a running game needs a running state
        return state.to_dict()

    def finished(self, players: int) -> dict[str, Any]:
        return self._pick(self._finished.setdefault(players, []), players, to_end=True)

    def running(self, players: int) -> dict[str, Any]:
        return self._pick(self._running.setdefault(players, []), players, to_end=False)

    def _pick(self, pool: list[dict[str, Any]], players: int, *, to_end: bool) -> dict[str, Any]:
        # A new state until the pool is full, then one of the pool's at random.
        if len(pool) < self.size:
            pool.append(self._play(players, to_end=to_end))
            return pool[-1]
        return self.rng.choice(pool)


def _batches(items: Iterable[Any], size: int) -> Iterable[list[Any]]:
    batch: list[Any] = []
    for item in items:
        batch.append(item)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def build(
    finished: int,
    running: int,
    *,
    seed: int = 0,
    probe_finished: int = PROBE_FINISHED,
    probe_running: int = PROBE_RUNNING,
    moves_per_game: int = MOVES_PER_GAME,
    batch_size: int = 2000,
    now: datetime | None = None,
    progress: Callable[[str], None] | None = None,
) -> Probe:
    """Insert ``finished`` finished and ``running`` running games with their seats, moves and
    players; return the probe user (``probe_finished`` + ``probe_running`` games of their own).

    Running games' deadlines are all in the future. Usernames start with ``scale-<seed>-`` so the
    rows do not collide with other data in the same database.
    """
    from django.db import transaction
    from django.utils import timezone

    from games.models import Game, Move, Seat

    if probe_finished > finished or probe_running > running or probe_running < 1:
        raise ValueError("the probe needs at least one running game, and no more than exist")
    say = progress or (lambda _msg: None)
    rng = random.Random(seed)
    now = now or timezone.now()
    total = finished + running
    n_users = max(20, round(total * 3 / GAMES_PER_USER))
    probe_id, users = _create_users(seed, n_users, batch_size)
    say(f"{n_users + 1} users")

    rows = _GameRows(
        rng,
        StatePools(rng),
        users,
        probe_id,
        now,
        finished,
        probe_finished,
        probe_running,
        moves_per_game,
    )
    probe_game: str | None = None
    done = 0
    for start in range(0, total, batch_size):
        games: list[Game] = []
        seats: list[Seat] = []
        moves: list[Move] = []
        for index in range(start, min(start + batch_size, total)):
            game, its_seats, its_moves, probe_plays_it = rows.make(index)
            if probe_plays_it and probe_game is None:
                probe_game = str(game.pk)
            games.append(game)
            seats += its_seats
            moves += its_moves
        with transaction.atomic():
            Game.objects.bulk_create(games)
            Seat.objects.bulk_create(seats)
            Move.objects.bulk_create(moves)
        done += len(games)
        if done % 20_000 < batch_size or done == total:
            say(f"{done:,} / {total:,} games")
    assert probe_game is not None
    return Probe(user_id=probe_id, game_id=probe_game, now=now)


def _create_users(seed: int, count: int, batch_size: int) -> tuple[int, list[int]]:
    """The probe user and ``count`` others; their ids."""
    from django.db import transaction

    from players.models import User

    with transaction.atomic():
        probe = User.objects.create(
            username=f"scale-{seed}-probe", display_name="Probe", password="!"
        )
        users: list[int] = []
        for batch in _batches(
            (
                User(username=f"scale-{seed}-{i:07d}", display_name=f"Player {i}", password="!")
                for i in range(count)
            ),
            batch_size,
        ):
            users.extend(u.pk for u in User.objects.bulk_create(batch))
    return probe.pk, users


@dataclass
class _GameRows:
    """Makes the rows of one game (the game, its seats, its last moves) for ``build``: games
    ``0 .. finished - 1`` are finished, the rest running; the probe sits at the first
    ``probe_finished`` finished and ``probe_running`` running ones."""

    rng: random.Random
    pools: StatePools
    users: list[int]
    probe_id: int
    now: datetime
    finished: int
    probe_finished: int
    probe_running: int
    moves_per_game: int

    def make(self, index: int) -> tuple[Any, list[Any], list[Any], bool]:
        """Game ``index``, its seats and moves, and whether it is a running game of the
        probe's."""
        from games.models import Game

        rng = self.rng
        is_running = index >= self.finished
        players = rng.choice((2, 3, 4))
        seated = rng.sample(self.users, players)
        if is_running:
            mine = index - self.finished < self.probe_running
        else:
            mine = index < self.probe_finished
        if mine:
            seated[rng.randrange(players)] = self.probe_id
        if is_running:
            state = self.pools.running(players)
            created = self.now - timedelta(days=rng.uniform(0, 30))
        else:
            state = self.pools.finished(players)
            created = self.now - timedelta(days=rng.uniform(1, 365))
        started = created + timedelta(minutes=rng.uniform(1, 600))
        version = rng.randint(max(self.moves_per_game, 30), 400)
        game = Game(
            host_id=seated[0],
            preset="standard",
            max_players=players,
            target_score=0,
            turn_seconds=24 * 3600,
            status=Game.ACTIVE if is_running else Game.FINISHED,
            version=version,
            state=state,
            created_at=created,
            started_at=started,
            invite_expires_at=started,
            lobby_expires_at=created + timedelta(days=7),
        )
        if is_running:
            game.current_user_id = seated[state["current"]]
            game.turn_deadline = self.now + timedelta(seconds=rng.uniform(60, 24 * 3600))
        else:
            game.finished_at = min(self.now, started + timedelta(hours=rng.uniform(1, 24 * 7)))
        seats = self._seats(game, seated, state, created)
        return game, seats, self._moves(game, players, started), mine and is_running

    def _seats(
        self, game: Any, seated: list[int], state: dict[str, Any], joined: datetime
    ) -> list[Any]:
        """Everyone seated; in a finished game, with final scores and places (shuffled)."""
        from games.models import Game, Seat

        places = list(range(1, len(seated) + 1))
        self.rng.shuffle(places)
        over = game.status == Game.FINISHED
        return [
            Seat(
                game=game,
                user_id=user_id,
                position=position,
                joined_at=joined,
                final_score=state["seats"][position]["score"] if over else None,
                place=places[position] if over else None,
            )
            for position, user_id in enumerate(seated)
        ]

    def _moves(self, game: Any, players: int, started: datetime) -> list[Any]:
        """The last ``moves_per_game`` moves up to the game's version: a Wild each."""
        from games.models import Move

        moves = []
        for number in range(game.version - self.moves_per_game + 1, game.version + 1):
            seat = number % players
            moves.append(
                Move(
                    game=game,
                    number=number,
                    seat=seat,
                    action={"type": "play", "seat": seat, "card": "wild-7"},
                    events=[
                        {"type": "played", "seat": seat, "card": "wild-7"},
                        {"type": "turn", "seat": (seat + 1) % players},
                    ],
                    created_at=started + timedelta(seconds=number * 30),
                )
            )
        return moves


def analyze() -> None:
    """Fresh planner statistics (VACUUM too on PostgreSQL outside a transaction, for the
    visibility map that index-only scans rely on)."""
    from django.db import connection

    with connection.cursor() as cursor:
        if connection.vendor == "postgresql" and connection.get_autocommit():
            cursor.execute("VACUUM ANALYZE")
        else:
            cursor.execute("ANALYZE")


# ---------------------------------------------------------------------------------------------
# The query sets, run through the code the API runs


def game_view(probe: Probe) -> None:
    from games import selectors
    from players.models import User

    user = User(pk=probe.user_id)
    # What GameDetailView reads (the rest of it renders the engine's view in memory).
    found = selectors.game_with_seats(user, probe.game_id)
    assert found is not None
    assert any(s.user_id == probe.user_id for s in found[1])


def my_games(probe: Probe) -> None:
    from games import selectors
    from players.models import User

    user = User(pk=probe.user_id)
    # Exactly GameListView.get's query set.
    games = list(selectors.my_games(user).prefetch_related("seats__user")[:200])
    assert games


def timer_sweep(probe: Probe) -> None:
    from games import services

    # Every deadline lies ahead of probe.now: the due-games query, and nothing to time out.
    assert services.sweep_expired_turns(now=probe.now) == 0


QUERIES: dict[str, Callable[[Probe], None]] = {
    "game view": game_view,
    "my games": my_games,
    "timer sweep": timer_sweep,
}


def capture(fn: Callable[[Probe], None], probe: Probe) -> list[str]:
    """The SQL statements ``fn`` runs, parameters inlined (executable as they are)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as ctx:
        fn(probe)
    return [q["sql"] for q in ctx.captured_queries]


def explain(sql: str, *, analyze: bool = False) -> str:
    """The plan of one statement: PostgreSQL's EXPLAIN (ANALYZE, BUFFERS when ``analyze``),
    SQLite's EXPLAIN QUERY PLAN."""
    from django.db import connection

    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            options = "ANALYZE, BUFFERS, " if analyze else ""
            cursor.execute(f"EXPLAIN ({options}COSTS true) {sql}")
            return "\n".join(row[0] for row in cursor.fetchall())
        cursor.execute(f"EXPLAIN QUERY PLAN {sql}")
        return "\n".join(str(row[-1]) for row in cursor.fetchall())


def plan_scans(sql: str, *, force_index: bool = False) -> list[tuple[str, str]]:
    """(relation, how it is read) for every table access in the plan of ``sql``.

    PostgreSQL: the node type ("Seq Scan", "Index Scan", "Index Only Scan", "Bitmap Heap Scan"
    with its "Bitmap Index Scan", ...) of each node that names a relation. SQLite: "SCAN" or
    "SEARCH" with the index clause, from EXPLAIN QUERY PLAN.

    ``force_index`` plans with ``enable_seqscan = off`` (PostgreSQL): a sequential scan then
    remains only where no index can serve the statement at all. On small tables the planner
    rightly prefers reading a few pages to probing an index; this asks whether it *could*.
    """
    from django.db import connection

    out: list[tuple[str, str]] = []
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            if force_index:
                cursor.execute("SET enable_seqscan = off")
            try:
                cursor.execute(f"EXPLAIN (FORMAT JSON) {sql}")
                raw = cursor.fetchone()[0]
            finally:
                if force_index:
                    cursor.execute("RESET enable_seqscan")
            plan = raw if isinstance(raw, list) else json.loads(raw)

            def walk(node: dict[str, Any]) -> None:
                if "Relation Name" in node:
                    how = node["Node Type"]
                    if "Index Name" in node:
                        how += f" using {node['Index Name']}"
                    out.append((node["Relation Name"], how))
                elif node["Node Type"] == "Bitmap Index Scan":
                    out.append((f"(index {node['Index Name']})", node["Node Type"]))
                for child in node.get("Plans", []):
                    walk(child)

            walk(plan[0]["Plan"])
        else:
            cursor.execute(f"EXPLAIN QUERY PLAN {sql}")
            for row in cursor.fetchall():
                detail = str(row[-1])
                words = detail.split()
                if words and words[0] in ("SCAN", "SEARCH") and len(words) > 1:
                    out.append((words[1], detail))
    return out


def full_scans(
    sql: str, relations: Sequence[str] = WATCHED, *, force_index: bool = False
) -> list[tuple[str, str]]:
    """Accesses of ``relations`` in the plan of ``sql`` that read the whole table (or the whole
    of an index) instead of looking rows up through an index."""
    bad = []
    for relation, how in plan_scans(sql, force_index=force_index):
        if relation not in relations:
            continue
        if how.startswith("Seq Scan") or how.startswith("SCAN"):
            bad.append((relation, how))
    return bad


# ---------------------------------------------------------------------------------------------
# Timing (worker process, one database)


def server_ms(sql: str) -> float:
    """PostgreSQL's own execution time of one statement (EXPLAIN ANALYZE), in ms."""
    for line in explain(sql, analyze=True).splitlines():
        if line.startswith("Execution Time:"):
            return float(line.split()[2])
    return float("nan")


def time_queries(
    probe: Probe, runs: int, *, warmup: int = 5, plans: bool = False
) -> dict[str, dict[str, Any]]:
    """Per query set: ``runs`` wall-clock times of the call (ms), PostgreSQL's execution time of
    its statements added up (ms, ``runs`` EXPLAIN ANALYZE rounds), and optionally the plans."""
    results: dict[str, dict[str, Any]] = {}
    for name, fn in QUERIES.items():
        for _ in range(warmup):
            fn(probe)
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            fn(probe)
            times.append((time.perf_counter() - start) * 1000)
        statements = capture(fn, probe)
        results[name] = {
            "times_ms": times,
            "server_ms": [sum(server_ms(sql) for sql in statements) for _ in range(runs)],
            "queries": len(statements),
            "plans": [explain(sql, analyze=True) for sql in statements] if plans else [],
            "sql": statements,
        }
    return results


def worker(args: argparse.Namespace) -> int:
    """Runs inside a database-specific process: DATABASE_URL is set by the parent."""
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    from django.db import connection

    if args.build:
        started = time.perf_counter()
        probe = build(
            args.finished,
            args.running,
            seed=args.seed,
            progress=lambda msg: print(f"  [{args.finished}+{args.running}] {msg}", flush=True),
        )
        analyze()
        seconds = time.perf_counter() - started
        Path(args.probe_file).write_text(
            json.dumps(
                {
                    "user_id": probe.user_id,
                    "game_id": probe.game_id,
                    "now": probe.now.isoformat(),
                    "seconds": seconds,
                }
            )
        )
        return 0
    saved = json.loads(Path(args.probe_file).read_text())
    probe = Probe(saved["user_id"], saved["game_id"], datetime.fromisoformat(saved["now"]))
    results = time_queries(probe, args.runs, plans=args.plans)
    with connection.cursor() as cursor:
        sizes = {}
        for table in ("games_game", "games_seat", "games_move", "players_user"):
            cursor.execute(
                "SELECT count(*), pg_size_pretty(pg_total_relation_size(%s)) FROM " + table,
                [table],
            )
            sizes[table] = cursor.fetchone()
    Path(args.json).write_text(json.dumps({"results": results, "sizes": sizes}))
    return 0


# ---------------------------------------------------------------------------------------------
# Orchestration (parent process)


def _admin(pg: str, sql: str) -> None:
    import psycopg

    with psycopg.connect(f"{pg}/postgres", autocommit=True) as conn:
        conn.execute(sql)  # type: ignore[arg-type]


def _exists(pg: str, name: str) -> bool:
    import psycopg

    with psycopg.connect(f"{pg}/postgres", autocommit=True) as conn:
        row = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
    return row is not None


def _child(url: str, *extra: str) -> None:
    env = {**os.environ, "DATABASE_URL": url, "DEBUG": "false", "SECRET_KEY": "bench-scale"}
    env.pop("REDIS_URL", None)
    subprocess.run([sys.executable, *extra], cwd=ROOT, env=env, check=True)


def prepare(pg: str, finished: int, running: int, *, reuse: bool, seed: int, probe: Path) -> str:
    name = f"uaw_scale_{finished}_{running}"
    url = f"{pg}/{name}"
    if reuse and _exists(pg, name) and probe.exists():
        print(f"- reusing database {name}")
        return name
    _admin(pg, f'DROP DATABASE IF EXISTS "{name}"')
    _admin(pg, f'CREATE DATABASE "{name}"')
    print(f"- building {name}: {finished:,} finished + {running:,} running games", flush=True)
    _child(url, "manage.py", "migrate", "-v", "0")
    _child(
        url,
        "bench/scale.py",
        "--worker",
        "--build",
        f"--finished={finished}",
        f"--running={running}",
        f"--seed={seed}",
        f"--probe-file={probe}",
    )
    print(f"  built in {json.loads(probe.read_text())['seconds']:.0f} s", flush=True)
    return name


def _size(text: str) -> tuple[int, int]:
    finished, _, running = text.partition(":")
    return int(finished), int(running or 0)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pg", default=DEFAULT_PG, help="server URL without database name")
    parser.add_argument(
        "--small", type=_size, default=SMALL, help="finished:running games (900:100)"
    )
    parser.add_argument(
        "--large", type=_size, default=LARGE, help="finished:running games (100000:10000)"
    )
    parser.add_argument("--runs", type=int, default=100, help="timed runs per query set (>= 50)")
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds (runs split)")
    parser.add_argument("--plans", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--max-ratio", type=float, default=1.5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--keep", action="store_true", help="keep the databases")
    parser.add_argument("--reuse", action="store_true", help="reuse databases kept by --keep")
    parser.add_argument(
        "--state-dir",
        default=str(Path(tempfile.gettempdir()) / "uaw-bench-scale"),
        help=argparse.SUPPRESS,
    )
    # Worker mode (internal).
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--build", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--finished", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--running", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--probe-file", help=argparse.SUPPRESS)
    parser.add_argument("--json", help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def print_header(args: argparse.Namespace) -> None:
    print("# Scale: game view, my games, timer sweep\n")
    print(f"- date: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC")
    print(f"- command: python {' '.join(['bench/scale.py', *sys.argv[1:]])}")
    print(f"- machine: {cpu_model()}, nproc {os.cpu_count()}, {platform.system()}")
    print(f"- python: {platform.python_implementation()} {platform.python_version()}")
    print(f"- timed runs per query set and size: {args.runs} (median)")
    print(f"- load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}\n", flush=True)


def measure_sizes(
    args: argparse.Namespace, sizes: dict[str, tuple[int, int]]
) -> dict[str, dict[str, Any]]:
    """Builds (or reuses) a database per size and times the query sets on each in worker
    processes; every run of every round kept, by size. Drops the databases unless ``--keep``."""
    state_dir = Path(args.state_dir)
    state_dir.mkdir(exist_ok=True)
    names: dict[str, str] = {}
    measured: dict[str, dict[str, Any]] = {}
    probes: dict[str, Path] = {}
    try:
        for label, (finished, running) in sizes.items():
            probes[label] = state_dir / f"probe-{finished}-{running}.json"
            names[label] = prepare(
                args.pg, finished, running, reuse=args.reuse, seed=args.seed, probe=probes[label]
            )
        # Rounds alternate between the two databases, so that a busy spell of the machine
        # weighs on both sizes alike; the medians are over every run of every round.
        per_round = -(-args.runs // args.rounds)
        print(
            f"- timing: {args.rounds} rounds x {per_round} runs per size, alternating", flush=True
        )
        for number in range(args.rounds):
            for label in sizes:
                with tempfile.NamedTemporaryFile(suffix=".json") as out:
                    _child(
                        f"{args.pg}/{names[label]}",
                        "bench/scale.py",
                        "--worker",
                        f"--probe-file={probes[label]}",
                        f"--runs={per_round}",
                        f"--json={out.name}",
                        *(["--plans"] if number == args.rounds - 1 else []),
                    )
                    got = json.loads(Path(out.name).read_text())
                if label not in measured:
                    measured[label] = got
                    continue
                for name, result in got["results"].items():
                    kept = measured[label]["results"][name]
                    kept["times_ms"] += result["times_ms"]
                    kept["server_ms"] += result["server_ms"]
                    kept["plans"] = result["plans"] or kept["plans"]
    finally:
        if not args.keep:
            for name in names.values():
                _admin(args.pg, f'DROP DATABASE IF EXISTS "{name}"')
    return measured


def print_sizes(measured: dict[str, dict[str, Any]]) -> None:
    print("\n## Database sizes\n")
    print("| table | " + " | ".join(f"{label} rows | {label} size" for label in measured) + " |")
    print("|---|" + "---:|---:|" * len(measured))
    for table in measured["small"]["sizes"]:
        cells = []
        for label in measured:
            rows, size = measured[label]["sizes"][table]
            cells += [f"{rows:,}", size]
        print(f"| {table} | " + " | ".join(cells) + " |")


def print_times(
    measured: dict[str, dict[str, Any]], small_label: str, large_label: str, max_ratio: float
) -> bool:
    """The median times, small against large; False when a query set's wall time grows by
    more than ``max_ratio``."""
    print("\n## Median time per query set\n")
    print(
        "Wall: the call through the ORM, as the API makes it (Python included). Server: "
        "PostgreSQL's execution time of its statements (EXPLAIN ANALYZE), added up.\n"
    )
    print(
        f"| query set | queries | runs | wall {small_label} (ms) | wall {large_label} (ms) | ratio"
        f" | server {small_label} (ms) | server {large_label} (ms) | ratio | verdict |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    ok_all = True
    for name in QUERIES:
        small = measured["small"]["results"][name]
        large = measured["large"]["results"][name]
        wall = [statistics.median(r["times_ms"]) for r in (small, large)]
        server = [statistics.median(r["server_ms"]) for r in (small, large)]
        ratio = wall[1] / wall[0]
        ok = ratio <= max_ratio
        ok_all = ok_all and ok
        print(
            f"| {name} | {large['queries']} | {len(large['times_ms'])} | {wall[0]:.3f}"
            f" | {wall[1]:.3f} | {ratio:.2f} | {server[0]:.3f} | {server[1]:.3f}"
            f" | {server[1] / server[0]:.2f} | {'ok' if ok else 'ABOVE'} {max_ratio:g} |"
        )
    return ok_all


def print_plans(measured: dict[str, dict[str, Any]], large_label: str) -> None:
    print(f"\n## Plans on the large database ({large_label}), EXPLAIN (ANALYZE, BUFFERS)\n")
    for name in QUERIES:
        large = measured["large"]["results"][name]
        for number, (sql, plan) in enumerate(zip(large["sql"], large["plans"], strict=True), 1):
            print(f"### {name}, query {number}\n\n```sql\n{sql}\n```\n\n```\n{plan}\n```\n")


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    if args.worker:
        return worker(args)
    print_header(args)
    measured = measure_sizes(args, {"small": args.small, "large": args.large})
    print_sizes(measured)
    small_label = f"{sum(args.small):,} games"
    large_label = f"{args.large[0]:,} + {args.large[1]:,} games"
    ok = print_times(measured, small_label, large_label, args.max_ratio)
    print_plans(measured, large_label)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
