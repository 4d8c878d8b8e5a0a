"""bench/spectators.py, one short run with a few spectators on Redis (the PostgreSQL + Redis
pass; defined only when REDIS_URL is set, rather than skipped, because a skip fails a CI=true
run).

It proves the plumbing through the real service and the live process started as compose does:
every spectator's stream received every move (the bench exits 1 otherwise), and the table
counts every spectator. Its timings are a loaded machine's and are not checked.
"""

from __future__ import annotations

import os

import pytest

from tests.child_python import run_bench

REDIS_URL = os.environ.get("REDIS_URL", "").strip()
# Redis without the database: never "pure", so the PostgreSQL + Redis pass runs it.
pytestmark = pytest.mark.services

if REDIS_URL:

    def test_every_spectator_stream_receives_every_move_and_is_counted() -> None:
        result = run_bench(
            "spectators.py", "--spectators", "5", "--moves", "3", redis_url=REDIS_URL
        )
        lines = result.stdout.splitlines()
        assert "- moves: 3; spectators' streams: 5" in lines, result.stdout
        assert any(line.startswith("- move request to spectator's event: 15 ") for line in lines)
        assert "- spectators the table shows (games_watch_retrieve): 5" in lines
        assert any("KiB per spectator" in line for line in lines)
