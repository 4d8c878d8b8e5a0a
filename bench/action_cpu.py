"""CPU per request, in one process: a keyed game action against bench/load.py's baseline.

Run from the repository root (PostgreSQL on 127.0.0.1:5432, user postgres, trust; Redis)::

    python bench/action_cpu.py                      # 1,000 of each, about a minute

A scratch database ``uaw_cpu_<pid>`` is made on ``--pg``, migrated and dropped at the end; Redis
is ``--redis-url`` (keys with a lifetime only: throttles, the fast path's caches). One game of
three players is played, action after action, each the next player's, a random legal one with
``expected_version`` and a fresh ``Idempotency-Key`` (a new game when one ends); after each
action the bench baseline (``POST /bench/baseline/<game>/``, config/bench_views.py) is called
once, so drift in the machine's speed touches both alike. Both go through Django's ASGI handler
(``django.test.AsyncClient``): the project's middleware, bearer-token authentication and throttle.

Measured per request: this process's CPU time (``time.process_time``, the view's thread
included) and the CPU time of the PostgreSQL backend that served it (from /proc, in clock ticks:
only the mean over many requests means anything). Prints medians, means and the ratio baseline /
action: the in-process counterpart of bench/load.py's throughput ratio, without the client, the
game views, the HTTP server and the scheduling between them, and far less noisy.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

DEFAULT_PG = "postgres://postgres@127.0.0.1:5432"


def configure(args: argparse.Namespace, db: str, static: str) -> None:
    os.environ.update(
        {
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DATABASE_URL": f"{args.pg}/{db}",
            "REDIS_URL": args.redis_url,
            "BENCH_BASELINE": "true",
            "DEBUG": "false",
            "SECRET_KEY": "bench-action-cpu-not-a-secret",
            "ALLOWED_HOSTS": "testserver",
            "CONN_MAX_AGE": "0",
            # Pooled, as in production: a request's backend is one of a few, all of them this
            # database's (whose CPU time /proc gives, summed).
            "DATABASE_POOL_SIZE": "4",
            "THROTTLE_AUTH": "1000000/s",
            "THROTTLE_ACTIONS": "1000000/s",
            "THROTTLE_GAMES": "1000000/s",
            "LOG_LEVEL": "WARNING",
            # An empty folder: WhiteNoise scans it at start-up, and nothing static is asked for.
            "STATIC_ROOT": static,
        }
    )


def backend_ticks(admin: Any, db: str) -> int:
    """CPU clock ticks (user + system) of the backends connected to ``db``; ``admin`` is an open
    connection to another database (the pool may open a backend at any request)."""
    pids = [
        row[0]
        for row in admin.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = %s", (db,)
        ).fetchall()
    ]
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # pragma: no cover - a backend that just ended
            continue
        total += int(fields[11]) + int(fields[12])
    return total


def setup() -> tuple[list[Any], list[str], str]:
    from games.models import Game
    from players.models import ApiToken, User

    users, tokens = [], []
    for i in range(3):
        user = User.objects.create_user(username=f"cpu-{i}", display_name=f"P{i}")
        users.append(user)
        tokens.append(ApiToken.issue(user, name="bench", scope=ApiToken.SCOPE_PLAY)[1])
    baseline = Game.objects.create(host=users[0], status=Game.ABORTED)
    return users, tokens, str(baseline.pk)


def new_game(users: list[Any]) -> str:
    from games import services

    game = services.create_game(host=users[0], max_players=3, target_score=0)
    for user in users[1:]:
        services.join_game(user=user, invite_code=game.invite_code)
    return str(game.pk)


def next_action(game_id: str, users: list[Any], rng: random.Random) -> tuple[int, dict] | None:
    """Who moves next (an index into ``users``) and a random legal action of theirs."""
    from games import engine
    from games.engine import State
    from games.models import Game

    game = Game.objects.get(pk=game_id)
    if game.status != Game.ACTIVE:
        return None
    state = State.from_dict(game.state)
    action = rng.choice(engine.legal_actions(state, state.current)).to_dict()
    action.pop("seat")
    if "choose" in action:  # a house rule's template: none is on in these games
        return None
    mover = [u.pk for u in users].index(game.current_user_id)
    return mover, {**action, "expected_version": game.version}


async def run(args: argparse.Namespace, db: str, admin: Any) -> None:
    from asgiref.sync import sync_to_async
    from django.test import AsyncClient

    users, tokens, baseline = await sync_to_async(setup)()
    game = await sync_to_async(new_game)(users)
    client = AsyncClient()
    rng = random.Random(args.seed)
    cpu: dict[str, list[float]] = {"action": [], "baseline": []}
    pg: dict[str, list[int]] = {"action": [], "baseline": []}

    async def measure(kind: str, path: str, body: dict, headers: dict[str, str]) -> None:
        ticks = backend_ticks(admin, db)
        started = time.process_time()
        response = await client.post(path, body, content_type="application/json", headers=headers)
        cpu[kind].append(time.process_time() - started)
        pg[kind].append(backend_ticks(admin, db) - ticks)
        if response.status_code != 200:
            raise SystemExit(f"{kind}: {response.status_code} {response.content[:300]!r}")

    while len(cpu["action"]) < args.requests + args.warmup:
        found = await sync_to_async(next_action)(game, users, rng)
        if found is None:
            game = await sync_to_async(new_game)(users)
            continue
        mover, body = found
        headers = {"Authorization": f"Bearer {tokens[mover]}", "Idempotency-Key": uuid.uuid4().hex}
        await measure("action", f"/api/v1/games/{game}/actions/", body, headers)
        auth = {"Authorization": f"Bearer {tokens[0]}"}
        await measure("baseline", f"/bench/baseline/{baseline}/", {}, auth)

    tick_ms = 1000 / os.sysconf("SC_CLK_TCK")
    print(f"\n{args.requests} of each after {args.warmup} warm-up pairs; CPU ms per request:\n")
    print("| request | this process, median | mean | PostgreSQL backend, mean |")
    print("|---|---:|---:|---:|")
    summary = {}
    for kind in ("action", "baseline"):
        own = [1000 * x for x in cpu[kind][args.warmup :]]
        backend = tick_ms * statistics.mean(pg[kind][args.warmup :])
        summary[kind] = (statistics.median(own), statistics.mean(own), backend)
        median, mean, _ = summary[kind]
        print(f"| {kind} | {median:.2f} | {mean:.2f} | {backend:.2f} |")
    action, base = summary["action"], summary["baseline"]
    print(f"\n- ratio baseline / action, this process (medians): **{base[0] / action[0]:.2f}**")
    print(
        "- ratio baseline / action, this process and PostgreSQL (means): "
        f"**{(base[1] + base[2]) / (action[1] + action[2]):.2f}**"
    )


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--requests", type=int, default=1000, help="measured requests of each kind")
    p.add_argument("--warmup", type=int, default=50)
    p.add_argument("--pg", default=DEFAULT_PG, help="PostgreSQL server URL, without a database")
    p.add_argument("--redis-url", default="redis://127.0.0.1:6379/15")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    db = f"uaw_cpu_{os.getpid()}"

    import psycopg
    from django.db import connections  # reads the settings only when first used

    from bench.load import admin_sql

    admin_sql(args.pg, f'CREATE DATABASE "{db}"')
    static = tempfile.mkdtemp(prefix="uaw-cpu-static-")
    try:
        configure(args, db, static)
        import django

        django.setup()
        from django.core.management import call_command

        call_command("migrate", interactive=False, verbosity=0)
        connections.close_all()  # back to the pool
        print("# In-process CPU: a keyed action and the bench baseline\n")
        print(f"- command: python {' '.join(sys.argv)}")
        print(f"- load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        with psycopg.connect(f"{args.pg}/postgres", autocommit=True) as admin:
            asyncio.run(run(args, db, admin))
    finally:
        connections.close_all()
        os.rmdir(static)
        admin_sql(args.pg, f'DROP DATABASE IF EXISTS "{db}" WITH (FORCE)')


if __name__ == "__main__":
    main()
