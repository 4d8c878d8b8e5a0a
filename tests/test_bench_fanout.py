"""bench/fanout.py, one short run with two live processes on Redis (the PostgreSQL + Redis pass;
defined only when REDIS_URL is set, rather than skipped, because a skip fails a CI=true run).

It proves the plumbing, and the fan-out itself through the real service: each live process
received exactly the messages of the games its streams watch (the bench exits 1 otherwise),
and every stream received every move. Its timings are a loaded CI machine's and are not checked.
"""

from __future__ import annotations

import os

import pytest

from tests.child_python import run_bench

REDIS_URL = os.environ.get("REDIS_URL", "").strip()
# Redis without the database: never "pure", so the PostgreSQL + Redis pass runs it.
pytestmark = pytest.mark.services

if REDIS_URL:

    def test_each_live_process_receives_the_moves_of_the_games_it_watches_only() -> None:
        result = run_bench("fanout.py", "--processes", "2", "--moves", "4", redis_url=REDIS_URL)
        table = [line for line in result.stdout.splitlines() if line.startswith("| ")]
        # The header, its rule, then per process: | index | watched | received | budget | CPU |
        processes = [row.split("|")[1:-1] for row in table[2:]]
        assert len(processes) == 2
        for _, watched, received, budget, _ in processes:
            # Its own game, its half's game, the game everyone watches.
            assert int(watched) == 3 and int(received) == int(budget) > 0
        assert "received by no process" in result.stdout
