"""The friends list with presence at scale: 100,000 players, one with 500 friends (SQLite).

Run from the repository root::

    python bench/social.py                      # 100,000 players, 500 friends, 1,000 runs
    python bench/social.py --players 10000 --runs 200   # a quicker look

It builds a fresh SQLite database in a temporary directory (migrated, then filled with bulk
inserts: the players with their profiles, ``--follows`` random follows per player, the probe's
``--friends`` mutual follows, some of them online, and a few blocks either way), then times
``social.selectors.friends`` (the code ``me/friends/`` runs, in-process through the ORM) with
its cache emptied before each call and as it is called again within the minute, and the whole
``me/friends/`` request through Django's test client, ``--runs`` times each. It prints the
queries of one call and the friends query's SQLite plan, then the p50 / p99 wall and CPU times
(the CPU time leaves out waiting for a core on a busy machine) with the load average; exit
status 1 when the selector's wall p99 is above ``--budget-ms`` (50) or it takes more than 3
queries. The database is deleted at the end. After building, the process settles its garbage
collector as a server process does after start-up (``config.gc_tuning``).
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
from datetime import timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.common import add_budget_arguments, timed  # noqa: E402  (the checkout on the path first)

BATCH = 5000


def setup_django(path: Path) -> None:
    os.environ.pop("DATABASE_URL", None)
    os.environ["SQLITE_PATH"] = str(path)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def build(players: int, friends: int, follows: int, seed: int) -> Any:
    """Fill the database; return the probe user (the one with ``friends`` friends)."""
    from django.db import transaction
    from django.utils import timezone

    from moderation.models import Block
    from players.models import User
    from social.models import Follow, Profile
    from social.search import search_key

    rng = random.Random(seed)
    now = timezone.now()
    with transaction.atomic():
        for start in range(0, players, BATCH):
            names = [f"player{i}" for i in range(start, min(players, start + BATCH))]
            users = User.objects.bulk_create(
                [User(username=n, display_name=n.title(), password="!") for n in names]
            )
            Profile.objects.bulk_create(
                [
                    Profile(
                        user=u,
                        search_name=search_key(u.display_name),
                        last_seen_at=now - timedelta(minutes=rng.randrange(0, 60 * 24 * 30)),
                        hide_presence=rng.random() < 0.05,
                    )
                    for u in users
                ]
            )
        ids = list(User.objects.order_by("pk").values_list("pk", flat=True))
        probe, others = ids[0], ids[1:]
        pairs: set[tuple[int, int]] = set()
        for follower in ids:
            for followee in rng.sample(others, follows):
                if followee != follower:
                    pairs.add((follower, followee))
        chosen = rng.sample(others, friends)
        for friend in chosen:
            pairs.add((probe, friend))
            pairs.add((friend, probe))
        rows = [Follow(follower_id=a, followee_id=b) for a, b in pairs]
        for start in range(0, len(rows), BATCH):
            Follow.objects.bulk_create(rows[start : start + BATCH])
        # Blocks between the probe and players who are not their friends: the list keeps 500.
        strangers = sorted(set(others) - set(chosen))
        blocked = rng.sample(strangers, 10)
        Block.objects.bulk_create(
            [Block(blocker_id=probe, blocked_id=b) for b in blocked[:5]]
            + [Block(blocker_id=b, blocked_id=probe) for b in blocked[5:]]
        )
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    return User.objects.get(pk=probe)


def plan_of(sql: str) -> list[str]:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN QUERY PLAN " + sql)
        return [row[-1] for row in cursor.fetchall()]


def p99(values: list[float]) -> float:
    return statistics.quantiles(values, n=100)[98]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--friends", type=int, default=500)
    parser.add_argument("--follows", type=int, default=5, help="random follows per player")
    add_budget_arguments(parser, runs=1000, budget_ms=50.0)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        setup_django(Path(tmp) / "social.sqlite3")
        from django.db import connection
        from django.test.utils import CaptureQueriesContext, setup_test_environment
        from rest_framework.test import APIClient

        setup_test_environment()  # the test client's host, "testserver", is allowed

        from social import selectors

        started = time.perf_counter()
        probe = build(args.players, args.friends, args.follows, args.seed)
        print(f"built {args.players:,} players in {time.perf_counter() - started:.0f} s")
        # As config/wsgi.py and config/asgi.py settle a server process after start-up: without
        # it, full collections of the whole start-up heap, set off by the objects of a
        # 500-friend answer, were the request's p99 (115 ms of CPU against a 13 ms median).
        from config.gc_tuning import settle_after_startup

        settle_after_startup()

        with CaptureQueriesContext(connection) as queries:
            found = selectors.friends(user=probe)
        online = sum(f.presence.status == selectors.ONLINE for f in found)
        print(f"friends: {len(found)} ({online} online), {len(queries)} queries")

        print("plan:", *plan_of(queries[-1]["sql"]), sep="\n  ")
        print(f"load average before: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
        from django.core.cache import cache

        key = selectors.friends_cache_key(probe.pk)

        def cold() -> Any:
            cache.delete(key)
            return selectors.friends(user=probe)

        cold_wall, cold_cpu = timed(cold, args.runs)
        selector, selector_cpu = timed(lambda: selectors.friends(user=probe), args.runs)
        client = APIClient()
        client.force_authenticate(probe)
        logging.getLogger("config.requests").setLevel(logging.WARNING)  # a line per request
        request, request_cpu = timed(lambda: client.get("/api/v1/me/friends/"), args.runs)
        for name, wall, cpu in (
            ("selector, cache cold", cold_wall, cold_cpu),
            ("selector", selector, selector_cpu),
            ("me/friends/ request", request, request_cpu),
        ):
            print(
                f"{name:>22}: wall p50 {statistics.median(wall):6.2f} ms, p99 {p99(wall):6.2f} ms;"
                f" CPU p50 {statistics.median(cpu):6.2f} ms, p99 {p99(cpu):6.2f} ms"
                f" ({args.runs} runs)"
            )
        print(f"load average after: {os.getloadavg()[0]:.1f}")
        ok = p99(selector) < args.budget_ms and len(queries) <= 3
        print("within budget" if ok else f"OVER BUDGET ({args.budget_ms} ms, 3 queries)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
