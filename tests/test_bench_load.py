"""bench/load.py: its arithmetic and parsing (pure, on the SQLite pass), and one short run of the
whole benchmark in the chosen shape on a private cluster (the PostgreSQL pass).

The short run proves the plumbing, not the speed: every phase runs, every answer is one the
client expects, every accepted action is one move, every measured move reaches the other seats'
streams, and the report carries the figures docs/performance.md records. Its numbers are those
of a loaded CI machine and are not checked.
"""

from __future__ import annotations

import argparse
import math
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bench import load

ROOT = Path(__file__).resolve().parent.parent

pure = pytest.mark.pure

PGBENCH_15 = """\
pgbench (15.8 (Debian 15.8-0+deb12u1))
transaction type: <builtin: simple update>
scaling factor: 1
query mode: simple
number of clients: 50
number of threads: 2
maximum number of tries: 1
duration: 60 s
number of transactions actually processed: 61234
number of failed transactions: 3 (0.005%)
latency average = 48.981 ms
initial connection time = 83.211 ms
tps = 1020.812345 (without initial connection time)
"""

PGBENCH_12 = """\
number of transactions actually processed: 6000
latency average = 10.000 ms
tps = 998.123456 (including connections establishing)
tps = 1001.654321 (excluding connections establishing)
"""


@pure
def test_pgbench_output_gives_tps_without_connecting_and_the_failures() -> None:
    assert load.parse_pgbench(PGBENCH_15) == (1020.812345, 3)


@pure
def test_pgbench_output_of_an_older_server_reads_the_excluding_line() -> None:
    assert load.parse_pgbench(PGBENCH_12) == (1001.654321, 0)


@pure
def test_pgbench_output_without_a_rate_is_an_error() -> None:
    with pytest.raises(ValueError, match="tps"):
        load.parse_pgbench("pgbench: error: connection to server failed\n")


@pure
def test_percentile_interpolates_between_ranks() -> None:
    values = [0.4, 0.1, 0.3, 0.2, 0.5]
    assert load.percentile(values, 50) == 0.3
    assert load.percentile(values, 0) == 0.1
    assert load.percentile(values, 100) == 0.5
    assert load.percentile(values, 99) == pytest.approx(0.496)
    assert math.isnan(load.percentile([], 99))


@pure
def test_sse_parser_gives_events_and_skips_comments() -> None:
    parser = load.SSEParser()
    lines = [
        b"retry: 3000\n",
        b"\n",
        b"id: 17\n",
        b"event: version\n",
        b'data: {"version": 17}\n',
        b"\n",
        b": keep-alive\n",
        b"\n",
        b"event: end\r\n",
        b'data: {"reason": "finished"}\r\n',
        b"\r\n",
    ]
    events = [e for e in (parser.feed(line) for line in lines) if e is not None]
    assert events == [
        ("version", '{"version": 17}', "17"),
        ("end", '{"reason": "finished"}', "17"),
    ]


def sent(phase: str, version: int, at: float, others: tuple[int, ...] = (2, 3)) -> load.Sent:
    return load.Sent(phase=phase, game_id="g", version=version, sent_at=at, others=others)


@pure
def test_delivery_is_to_the_first_event_at_or_after_the_moves_version() -> None:
    moves = [sent("open", 5, 10.0), sent("open", 6, 11.0), sent("closed", 4, 9.0)]
    arrivals = {
        # seat 2 got 5 and 6 in one event (a coalesced page), seat 3 each on its own
        ("g", 2): [(4, 9.5), (6, 11.25)],
        ("g", 3): [(4, 9.5), (5, 10.125), (6, 11.0625)],
    }
    per_seat, per_move, missing = load.deliveries(moves, arrivals, "open")
    assert per_seat == [1.25, 0.125, 0.25, 0.0625]
    assert per_move == [1.25, 0.25]  # to the last of the other seats
    assert missing == 0


@pure
def test_the_fan_outs_own_part_counts_from_the_answer_and_may_be_negative() -> None:
    move = load.Sent("open", "g", 5, 10.0, (2, 3), answered_at=10.5)
    arrivals = {("g", 2): [(5, 10.25)], ("g", 3): [(5, 10.375)]}
    per_seat, per_move, missing = load.deliveries([move], arrivals, "open", from_answer=True)
    assert per_seat == [-0.25, -0.125]  # both streams had it before the answer was read
    assert per_move == [-0.125] and missing == 0
    _, from_request, _ = load.deliveries([move], arrivals, "open")
    assert from_request == [0.375]


@pure
def test_a_move_some_seat_never_saw_is_missing() -> None:
    moves = [sent("open", 7, 10.0)]
    arrivals = {("g", 2): [(7, 10.5)], ("g", 3): [(6, 9.0)]}
    per_seat, per_move, missing = load.deliveries(moves, arrivals, "open")
    assert per_seat == [0.5]
    assert per_move == []
    assert missing == 1


@pure
def test_proc_stat_is_read_past_a_command_name_with_parentheses() -> None:
    # pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime
    # stime cutime cstime ...
    raw = "4242 (postgres: a) b) S 17 4242 4242 0 -1 4194560 10 0 0 0 120 30 7 3 20 0 1 0\n"
    assert load.parse_stat(raw) == (17, 150, 10)


@pure
def test_a_trees_cpu_counts_live_members_and_the_reaped_ones_once() -> None:
    procs = {
        1: (0, 1000, 0),  # not ours
        10: (1, 100, 40),  # the root: 40 ticks of children that exited
        11: (10, 50, 0),
        12: (11, 5, 2),
        20: (1, 300, 0),  # another tree
    }
    assert load.descendants(procs, 10) == [10, 11, 12]
    assert load.tree_ticks(procs, 10) == 100 + 40 + 50 + 5 + 2
    assert load.tree_ticks(procs, 99) == 0  # gone


@pure
def test_a_child_that_exited_is_still_in_its_parents_cpu() -> None:
    tick = os.sysconf("SC_CLK_TCK")
    before = load.tree_ticks(load.read_procs(), os.getpid())
    subprocess.run(
        [
            sys.executable,
            "-c",
            "import time\nt = time.process_time() + 0.3\nwhile time.process_time() < t: pass",
        ],
        check=True,
    )
    after = load.tree_ticks(load.read_procs(), os.getpid())
    assert (after - before) / tick >= 0.25


@pure
def test_the_open_file_limit_is_raised_for_thousands_of_streams() -> None:
    assert load.raise_fd_limit(4096) >= 4096


def args(*argv: str) -> argparse.Namespace:
    return load.parse_args(list(argv))


@pure
def test_web_and_live_run_composes_commands_on_free_ports(tmp_path: Path) -> None:
    web, live = load.servers(args(), "postgres://u@h/db", "redis://h/0", tmp_path)
    assert web.argv[:3] == ["gunicorn", "--config", "config/gunicorn.conf.py"]
    assert f"127.0.0.1:{web.port}" in web.argv and "config.wsgi:application" in web.argv
    assert live.argv == [
        "python", "-m", "config.asgi_server", "--host", "127.0.0.1", "--port", str(live.port)
    ]  # fmt: skip
    assert web.url == f"http://127.0.0.1:{web.port}"


@pure
def test_each_process_gets_its_compose_environment_and_not_the_shells(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DEBUG", "true")
    web, live = load.servers(args(), "postgres://u@h/db", "redis://h/0", tmp_path)
    assert web.env["CONN_MAX_AGE"] == "60" and web.env["DATABASE_POOL_SIZE"] == "0"
    assert live.env["CONN_MAX_AGE"] == "0" and live.env["DATABASE_POOL_SIZE"] == "10"
    for server in (web, live):
        assert (server.env["DEBUG"], server.env["LOG_FORMAT"]) == ("false", "json")
        assert server.env["DATABASE_URL"] == "postgres://u@h/db"
        assert server.env["REDIS_URL"] == "redis://h/0"


@pure
def test_the_workers_metrics_directory_and_port_are_its_own(tmp_path: Path) -> None:
    env = load.service_env(args(), "worker", "postgres://u@h/db", "redis://h/0", tmp_path)
    directory = Path(env["PROMETHEUS_MULTIPROC_DIR"])
    assert directory.is_dir() and directory.parent == tmp_path
    assert env["WORKER_METRICS_PORT"] != "9100"


@pure
def test_two_live_processes_each_listen_on_a_port_of_their_own(tmp_path: Path) -> None:
    web, *lives = load.servers(args("--live-processes", "2"), "postgres://u@h/db", "r", tmp_path)
    assert [s.name for s in lives] == ["live0", "live1"]
    assert len({web.port, *(s.port for s in lives)}) == 3


@pure
def test_every_stream_of_a_game_goes_to_one_live_process() -> None:
    client = load.Client(None, "http://web", ["http://a", "http://b"], load.Stats(), None)  # type: ignore[arg-type]
    games = [f"00000000-0000-0000-0000-{n:012d}" for n in range(40)]
    chosen = [client.live_for(game) for game in games]
    assert chosen == [client.live_for(game) for game in games]
    assert set(chosen) == {"http://a", "http://b"}


@pure
def test_the_knobs_change_composes_values(tmp_path: Path) -> None:
    knobs = args("--conn-max-age", "0", "--db-pool", "4", "--no-prepared-statements")
    web, live = load.servers(knobs, "postgres://u@h/db", "redis://h/0", tmp_path)
    assert web.env["CONN_MAX_AGE"] == "0" and live.env["DATABASE_POOL_SIZE"] == "4"
    assert web.env["DATABASE_PREPARED_STATEMENTS"] == live.env["DATABASE_PREPARED_STATEMENTS"]
    assert live.env["DATABASE_PREPARED_STATEMENTS"] == "false"
    web, _ = load.servers(args("--web-workers", "8"), "postgres://u@h/db", "r", tmp_path)
    assert web.argv[web.argv.index("--workers") + 1] == "8"


@pytest.mark.services
def test_a_short_run_passes_every_check() -> None:
    """The whole benchmark with two live processes, a few seconds a phase (about 40 s on a quiet
    machine).

    Runs on the PostgreSQL pass of .ci/run only: it starts a private cluster and Redis of its
    own either way, and once per CI run is enough; on the SQLite pass the tests above cover what
    needs no servers."""
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        return
    started = time.monotonic()
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    done = subprocess.run(
        [
            sys.executable,
            "bench/load.py",
            "--games",
            "2",
            "--duration",
            "2",
            "--warmup",
            "1",
            "--pgbench-seconds",
            "1",
            "--idle-streams",
            "20",
            "--watchers",
            "2",
            "--idle-fraction",
            "0",
            "--live-processes",
            "2",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
    )
    report = done.stdout
    assert done.returncode == 0, f"{report[-6000:]}\n{done.stderr[-3000:]}"
    for heading in (
        "## The database's ceiling: pgbench",
        "ratio moves/s ÷ pgbench transactions/s",
        "## Move to the other players' screens",
        "## Open live connections",
        "RSS of the live process tree after the idle streams",
        "versions announced on Redis",
        "## CPU per process, from /proc",
        "| closed | ms/move |",
        "every accepted action is one move",
    ):
        assert heading in report
    assert "20 idle streams (of 20 asked) held by the 2 live process(es)" in report
    print(f"short run: {time.monotonic() - started:.0f} s")
