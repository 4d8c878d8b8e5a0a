"""What the benchmarks share (and the tests that start the same servers): the machine's name for
their reports, timing one call, the command lines of a private Redis server and of a throwaway
PostgreSQL cluster's initdb."""

from __future__ import annotations

import argparse
import platform
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def timed(call: Callable[[], Any], runs: int) -> tuple[list[float], list[float]]:
    """Wall and CPU milliseconds of each of ``runs`` calls, after one to warm up. On a shared
    machine the wall time includes waiting for a core; this process's CPU time does not (nor a
    database server's own work: a SQLite database, in this process, is counted)."""
    call()  # warm
    wall, cpu = [], []
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        call()
        cpu.append((time.process_time() - start_cpu) * 1000)
        wall.append((time.perf_counter() - start) * 1000)
    return wall, cpu


def redis_server_command(binary: str, port: int, directory: Path) -> list[str]:
    """A private redis-server on 127.0.0.1:``port`` that keeps nothing on disk."""
    return [
        binary,
        "--port",
        str(port),
        "--bind",
        "127.0.0.1",
        "--save",
        "",
        "--appendonly",
        "no",
        "--dir",
        str(directory),
    ]


def initdb_command(initdb: str | Path, data: Path) -> list[str]:
    """``initdb`` for a throwaway cluster in ``data``: user postgres, trust on every connection,
    UTF-8, and no fsync (nothing in it outlives the run)."""
    return [
        str(initdb),
        "-D",
        str(data),
        "-U",
        "postgres",
        "--auth=trust",
        "-E",
        "UTF8",
        "--no-sync",
    ]


def add_budget_arguments(parser: argparse.ArgumentParser, *, runs: int, budget_ms: float) -> None:
    """The options of a bench that times a query ``runs`` times against a p99 budget in ms, on
    data made from a seed."""
    parser.add_argument("--runs", type=int, default=runs)
    parser.add_argument("--budget-ms", type=float, default=budget_ms)
    parser.add_argument("--seed", type=int, default=1)


def sse_data(lines: Iterable[bytes]) -> Iterator[tuple[str, str]]:
    """(event, data) for each data line of a Server-Sent Events stream read line by line; the
    event is the one the last ``event:`` line named."""
    event = ""
    for raw in lines:
        line = raw.decode().rstrip("\r\n")
        if line.startswith("event: "):
            event = line.removeprefix("event: ")
        elif line.startswith("data: "):
            yield event, line.removeprefix("data: ")
