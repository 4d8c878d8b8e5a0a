"""Ratings at scale (issue 32): a leaderboard and a profile with 100,000 rated players and
1,000,000 rating changes, on SQLite and on PostgreSQL, and ``manage.py recompute_ratings``.

Run from the repository root::

    python bench/ratings_scale.py                          # SQLite, 100,000 / 1,000,000
    python bench/ratings_scale.py --postgres               # PostgreSQL on 127.0.0.1:5432
    python bench/ratings_scale.py --players 10000 --changes 100000 --runs 200   # quicker
    python bench/ratings_scale.py --sqlite ratings.sqlite3 --keep   # build once, keep the file
    python bench/ratings_scale.py --sqlite ratings.sqlite3 --reuse --keep   # time it again
    python bench/ratings_scale.py --postgres --keep / --reuse       # the same, its database
    python bench/ratings_scale.py --changes 2000000 --recompute     # 1,000,000 matches recomputed

It builds a fresh database (SQLite in a temporary directory or ``--sqlite PATH``, or a PostgreSQL
database of its own, ``uaw_ratings_scale``), migrated, then filled by ``bench.rows``
(``executemany`` on SQLite, ``COPY`` on PostgreSQL: a few minutes where ``bulk_create`` took 25
to 40): the players, one rating row each in Uno Splash (ratings spread like a real pool, most
players with enough rated games to be listed and active in the last 30 days), and ``--changes``
rating changes of two-player matches (one finished rated game with its two seats per match), of
which the probe player's are ``--probe-matches`` (1,000). The database is dropped at the end
unless ``--keep``; ``--reuse`` times a kept one without building. First it times the rating
update of a 10-player match (the model's CPU work at a match end; budget 2 ms). Then it times,
in-process through the ORM, the code the API runs: ``ratings.selectors.leaderboard`` for the
probe and ``ratings.selectors.profile`` of the probe, ``--runs`` times each, and prints the
queries of one call, the p50 / p99 wall and CPU times and the load average; on PostgreSQL also
the server's execution time of the statements (EXPLAIN ANALYZE; ``--plans`` prints the plans)
and the backend's own CPU time per call (from /proc, when the server runs on this machine).
``--recompute`` then times ``manage.py recompute_ratings`` twice (``time_recompute``). Exit
status 1 when the update's CPU p99 is 2 ms or more, a p99 wall time is above ``--budget-ms``
(50), or a call takes more queries than its budget (leaderboard 2 + the token's 1 = 3, profile
2 + the token, the player and the blocks = 5: the selectors here run without the request's own
queries, so their budgets are 2 and 2).
"""

from __future__ import annotations

import argparse
import logging
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.common import add_budget_arguments, timed  # noqa: E402  (the checkout on the path first)
from bench.rows import Rows  # noqa: E402

BATCH = 5000
KIND = "uno_splash"
PG_NAME = "uaw_ratings_scale"
# Queries of the selectors alone (the request adds the token's; the profile's view adds the
# player and the blocks): docs/ratings.md's 3 and 5.
LEADERBOARD_QUERIES = 2
PROFILE_QUERIES = 2


def setup_django(*, sqlite: Path | None, postgres: str | None) -> None:
    if postgres:
        os.environ["DATABASE_URL"] = postgres
    else:
        os.environ.pop("DATABASE_URL", None)
        os.environ["SQLITE_PATH"] = str(sqlite)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def _admin_sql(url: str, statement: str) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(statement)


def build(players: int, changes: int, probe_matches: int, seed: int) -> Any:
    """Fill the database (``bench.rows``: executemany on SQLite, COPY on PostgreSQL); return
    the probe user."""
    from django.db import connection, transaction
    from django.utils import timezone

    from players.models import User

    rng = random.Random(seed)
    now = timezone.now()
    with transaction.atomic():
        users = Rows(User, {"password": "!"}, ["username", "display_name"])
        users.insert(users.row(f"player{i}", f"Player {i}") for i in range(players))
        ids = list(User.objects.order_by("pk").values_list("pk", flat=True))
        _ratings(ids, probe_matches, rng, now)
        _matches(ids, changes // 2, probe_matches, rng, now)
    with connection.cursor() as cursor:
        # PostgreSQL: VACUUM too, as autovacuum would soon after such a load, so that the
        # visibility map lets the board's place count read the index alone (an index-only
        # scan); a table never vacuumed since a bulk load is not what a live server has.
        cursor.execute("VACUUM ANALYZE" if connection.vendor == "postgresql" else "ANALYZE")
    return User.objects.get(pk=ids[0])


def _ratings(ids: list[int], probe_matches: int, rng: random.Random, now: Any) -> None:
    """One Uno Splash rating per player, spread like a real pool; the probe (the first) with
    ``probe_matches`` rated games."""
    from ratings.models import Rating

    varying = ["user_id", "mu", "sigma", "shown", "rated_games", "wins", "places_total"]
    rows = Rows(Rating, {"kind": KIND}, [*varying, "updated_at"])

    def row(user_id: int) -> list[Any]:
        mu, sigma = rng.gauss(25, 4), max(0.8, rng.gauss(3.5, 1.5))
        games = probe_matches if user_id == ids[0] else rng.randrange(0, 40)
        shown = round(1500 + 40 * (mu - 3 * sigma))
        at = now - timedelta(days=rng.randrange(0, 45))
        return rows.row(user_id, mu, sigma, shown, games, games // 2, games + games // 2, at)

    rows.insert(row(user_id) for user_id in ids)


def _matches(
    ids: list[int], matches: int, probe_matches: int, rng: random.Random, now: Any
) -> None:
    """``matches`` finished rated two-player games, a minute apart up to now, each with its two
    seats and rating changes; the probe plays the first ``probe_matches``."""
    from games.models import Game, Seat
    from ratings.models import RatingChange

    game = {"kind": KIND, "host_id": ids[0], "status": Game.FINISHED, "rated": True}
    games = Rows(Game, game, [])
    fields = ["game_id", "user_id", "place", "shown_before", "shown_after", "created_at"]
    template = {"kind": KIND, "mu_before": 25.0, "sigma_before": 4.0}
    changes = Rows(RatingChange, {**template, "mu_after": 25.5, "sigma_after": 3.9}, fields)
    seat_fields = ["game_id", "user_id", "position", "place", "rating_change"]
    seats = Rows(Seat, {"joined_at": now}, seat_fields)
    for start in range(0, matches, BATCH):
        made = [games.row() for _ in range(min(matches, start + BATCH) - start)]
        games.insert(made)
        rows, seated = [], []
        for number, game in enumerate(made, start):
            game_id = games.value("id", game)
            first = ids[0] if number < probe_matches else rng.choice(ids)
            second = rng.choice(ids)
            while second == first:
                second = rng.choice(ids)
            at = now - timedelta(minutes=matches - number)
            won = rng.choice((1, 2))
            for position, (user_id, place) in enumerate(((first, won), (second, 3 - won))):
                before = 1500 + rng.randrange(-300, 300)
                after = before + (12 if place == 1 else -12)
                rows.append(changes.row(game_id, user_id, place, before, after, at))
                seated.append(seats.row(game_id, user_id, position, place, after - before))
        changes.insert(rows)
        seats.insert(seated)


def p99(values: list[float]) -> float:
    return statistics.quantiles(values, n=100)[98]


def update_cpu(runs: int = 2000) -> list[float]:
    """CPU milliseconds of the rating update of a 10-player match (``formula.rate``, the
    model's work at a match end; the budget is 2 ms)."""
    from ratings import formula

    rng = random.Random(7)
    cpu = []
    for _ in range(runs):
        ratings = [(rng.gauss(25, 3), rng.uniform(2, 8)) for _ in range(10)]
        places = rng.sample(range(1, 11), 10)
        start = time.process_time()
        formula.rate(ratings, places)
        cpu.append((time.process_time() - start) * 1000)
    return cpu


def backend_cpu_ms() -> float | None:
    """CPU time (user + system, ms) this connection's PostgreSQL backend has used so far, from
    /proc (the server on this machine), or None when it cannot be read. Unlike a wall time it
    does not grow while the backend waits for a core on a busy machine."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    # utime and stime: the 14th and 15th fields, the 12th and 13th after the name.
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


def server_cpu(call: Callable[[], Any], runs: int) -> float | None:
    """The server's mean CPU time per call (ms) over ``runs`` calls: /proc counts in clock
    ticks (10 ms), so only a mean over many calls is meaningful."""
    before = backend_cpu_ms()
    for _ in range(runs):
        call()
    after = backend_cpu_ms()
    return None if before is None or after is None else (after - before) / runs


def server_times(statements: list[str], name: str, args: argparse.Namespace) -> None:
    """PostgreSQL's own execution time of a call's statements, added up (EXPLAIN ANALYZE, a
    tenth of ``--runs`` rounds): what the server spends, apart from this process's share of a
    busy machine's cores. With ``--plans``, each statement's plan."""
    from bench.scale import explain, server_ms

    rounds = [sum(server_ms(sql) for sql in statements) for _ in range(max(10, args.runs // 10))]
    print(
        f"{'':>12}  server p50 {statistics.median(rounds):6.2f} ms, p99 {p99(rounds):6.2f} ms "
        f"({len(rounds)} rounds)"
    )
    if args.plans:
        for sql in statements:
            print(f"--- {name}\n{sql}\n{explain(sql, analyze=True)}\n")


def run(args: argparse.Namespace) -> bool:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from ratings import selectors

    update = update_cpu()
    print(
        f"10-player rating update: CPU p50 {statistics.median(update):.3f} ms, "
        f"p99 {p99(update):.3f} ms (budget 2 ms)"
    )
    probe = _data(args)
    calls = {
        "leaderboard": (lambda: selectors.leaderboard(KIND, probe), LEADERBOARD_QUERIES),
        "profile": (lambda: selectors.profile(probe), PROFILE_QUERIES),
    }
    ok = p99(update) < 2.0
    print(f"load average before: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    for name, (call, budget) in calls.items():
        # The build's queries filled the log (it keeps the last 9,000): empty it, or the capture
        # counts nothing.
        connection.queries_log.clear()
        with CaptureQueriesContext(connection) as queries:
            result = call()
        size = (
            len(result["entries"])
            if name == "leaderboard"
            else len(result["ratings"][0]["history"])
        )
        wall, cpu = timed(call, args.runs)
        print(
            f"{name:>12}: {len(queries)} queries (budget {budget}), {size} rows; wall p50 "
            f"{statistics.median(wall):6.2f} ms, p99 {p99(wall):6.2f} ms; CPU p50 "
            f"{statistics.median(cpu):6.2f} ms, p99 {p99(cpu):6.2f} ms ({args.runs} runs)"
        )
        ok = ok and p99(wall) < args.budget_ms and len(queries) <= budget
        if connection.vendor == "postgresql":
            server_times([q["sql"] for q in queries.captured_queries], name, args)
            mean = server_cpu(call, args.runs)
            if mean is not None:
                print(f"{'':>12}  server CPU mean {mean:6.2f} ms per call ({args.runs} calls)")
    print(f"load average after: {os.getloadavg()[0]:.1f}")
    if args.recompute:
        time_recompute()
    print("within budget" if ok else f"OVER BUDGET ({args.budget_ms} ms p99, queries)")
    return ok


def _data(args: argparse.Namespace) -> Any:
    """The probe user: of the data built now, or (``--reuse``) of the data a ``--keep`` run
    left, counted again."""
    from django.db import connection

    from players.models import User
    from ratings.models import Rating, RatingChange

    if args.reuse:
        probe = User.objects.get(username="player0")
        players = Rating.objects.filter(kind=KIND).count()
        changes = RatingChange.objects.filter(kind=KIND).count()
        print(f"{connection.vendor}: reusing {players:,} players and {changes:,} rating changes")
        return probe
    started, cpu = time.perf_counter(), time.process_time()
    probe = build(args.players, args.changes, args.probe_matches, args.seed)
    print(
        f"{connection.vendor}: built {args.players:,} players and {args.changes:,} rating "
        f"changes in {time.perf_counter() - started:.0f} s, {time.process_time() - cpu:.0f} s "
        f"CPU (this process; load average {os.getloadavg()[0]:.1f})"
    )
    return probe


def time_recompute() -> None:
    """``manage.py recompute_ratings`` on the kind, twice: the first run writes nearly every
    rating change (the bench's made-up numbers are not the model's), the second finds the
    history as the model leaves it and writes none (a recompute of an untouched history)."""
    from io import StringIO

    from django.core.management import call_command

    for label in ("first run", "again"):
        out = StringIO()
        started, cpu = time.perf_counter(), time.process_time()
        call_command("recompute_ratings", "--game", KIND, stdout=out)
        print(
            f"recompute_ratings, {label}: {time.perf_counter() - started:.1f} s wall, "
            f"{time.process_time() - cpu:.1f} s CPU (this process), load average "
            f"{os.getloadavg()[0]:.1f}; {out.getvalue().strip()}"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--changes", type=int, default=1_000_000)
    parser.add_argument("--probe-matches", type=int, default=1000)
    add_budget_arguments(parser, runs=500, budget_ms=50.0)
    parser.add_argument("--plans", action="store_true", help="PostgreSQL: print each plan")
    parser.add_argument(
        "--postgres",
        nargs="?",
        const="postgres://postgres@127.0.0.1:5432",
        help="server URL (no database name); the bench makes and drops its own database",
    )
    parser.add_argument("--pg-name", default=PG_NAME, help="the database it makes and drops")
    parser.add_argument("--sqlite", type=Path, help="the SQLite file (default: a temporary one)")
    parser.add_argument(
        "--keep", action="store_true", help="keep the database built (SQLite: with --sqlite)"
    )
    parser.add_argument(
        "--reuse", action="store_true", help="time the database a --keep run left; no build"
    )
    parser.add_argument(
        "--recompute", action="store_true", help="also time manage.py recompute_ratings"
    )
    args = parser.parse_args()
    if (args.keep or args.reuse) and not (args.postgres or args.sqlite):
        parser.error("--keep and --reuse with SQLite need --sqlite PATH")
    logging.getLogger("config.requests").setLevel(logging.WARNING)
    if args.postgres:
        return 0 if _on_postgres(args) else 1
    if args.sqlite:
        if args.reuse != args.sqlite.exists():
            parser.error(f"{args.sqlite} {'is missing' if args.reuse else 'exists already'}")
        setup_django(sqlite=args.sqlite, postgres=None)
        try:
            return 0 if run(args) else 1
        finally:
            if not args.keep:
                from django.db import connections

                connections.close_all()
                for suffix in ("", "-wal", "-shm"):
                    Path(f"{args.sqlite}{suffix}").unlink(missing_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        setup_django(sqlite=Path(tmp) / "ratings.sqlite3", postgres=None)
        return 0 if run(args) else 1


def _on_postgres(args: argparse.Namespace) -> bool:
    """Run on a database of the bench's own: made (unless ``--reuse``), dropped (unless
    ``--keep``)."""
    server = args.postgres.rstrip("/")
    name = args.pg_name
    if not args.reuse:
        _admin_sql(f"{server}/postgres", f"DROP DATABASE IF EXISTS {name}")
        _admin_sql(f"{server}/postgres", f"CREATE DATABASE {name}")
    try:
        setup_django(sqlite=None, postgres=f"{server}/{name}")
        return run(args)
    finally:
        from django.db import connections

        connections.close_all()
        if not args.keep:
            _admin_sql(f"{server}/postgres", f"DROP DATABASE IF EXISTS {name}")


if __name__ == "__main__":
    sys.exit(main())
