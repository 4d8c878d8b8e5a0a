"""Real Celery processes for tests: a private Redis, workers and beat as subprocesses.

Nothing here touches the shared Redis on 6379: every module gets its own ``redis-server`` on a
free port, and the subprocesses get ``REDIS_URL`` pointing at it plus the test database the
calling test sees (a SQLite file or the ``test_…`` PostgreSQL database).

The test process keeps ``task_always_eager`` (tests/conftest.py sets it on the project's app);
``probe_app`` is a separate Celery app bound to the private broker, so tasks sent from the test
reach the worker without changing what other tests see.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

import redis
from celery import Celery

from bench.common import redis_server_command
from tests.child_python import python_json, stop_process
from tests.test_serve import ROOT, free_port

STARTUP_TIMEOUT = 45  # seconds for a worker or beat to come up (imports Django, connects)
STOP_TIMEOUT = 15


def require_redis_server() -> str:
    path = shutil.which("redis-server")
    if path is None:
        # Never a skip: under CI=true a skip fails the run anyway, and .ci/run installs it.
        raise AssertionError(
            "redis-server is not installed: these tests start a private Redis for a real Celery "
            "worker and beat (apt-get install redis-server; .ci/run does this)"
        )
    return path


@contextmanager
def redis_server(directory: Path) -> Iterator[str]:
    """A private, non-persistent Redis; yields its URL (database 0)."""
    binary = require_redis_server()
    directory.mkdir(parents=True, exist_ok=True)
    port = free_port()
    log_path = directory / "redis.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            redis_server_command(binary, port, directory),
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    url = f"redis://127.0.0.1:{port}/0"
    try:
        client = redis.Redis.from_url(url, socket_timeout=1)
        deadline = time.monotonic() + 15
        while True:
            assert process.poll() is None, "redis-server exited:\n" + log_path.read_text()
            try:
                if client.ping():
                    break
            except redis.ConnectionError:
                pass
            assert time.monotonic() < deadline, "redis-server never answered PING"
            time.sleep(0.05)
        client.close()
        yield url
    finally:
        stop_process(process, timeout=STOP_TIMEOUT)


def database_env(settings_dict: dict[str, Any]) -> dict[str, str]:
    """Environment variables that point config.settings at the database the test uses."""
    engine = settings_dict["ENGINE"]
    if engine == "django.db.backends.sqlite3":
        name = str(settings_dict["NAME"])
        # An in-memory database cannot be shared with another process.
        assert Path(name).is_file(), f"the SQLite test database is not a file: {name!r}"
        return {"SQLITE_PATH": name}
    assert "postgresql" in engine, f"unsupported database engine {engine}"
    user = quote(settings_dict.get("USER") or "", safe="")
    password = settings_dict.get("PASSWORD") or ""
    credentials = user + (":" + quote(password, safe="") if password else "")
    host = settings_dict.get("HOST") or "localhost"
    port = settings_dict.get("PORT") or 5432
    name = quote(str(settings_dict["NAME"]), safe="")
    return {"DATABASE_URL": f"postgres://{credentials}@{host}:{port}/{name}"}


def subprocess_env(redis_url: str, settings_dict: dict[str, Any]) -> dict[str, str]:
    environ = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DATABASE_URL", "REDIS_URL", "SQLITE_PATH", "CELERY_TASK_ALWAYS_EAGER"}
    }
    environ.update(database_env(settings_dict))
    environ.update(
        REDIS_URL=redis_url,
        DJANGO_SETTINGS_MODULE="config.settings",
        TURN_SECONDS_MIN="1",
        LOG_LEVEL="INFO",
        # Tests follow the sweep through Celery's "received" and "Sending due task" lines.
        LOG_PERIODIC_JOBS="true",
        PYTHONUNBUFFERED="1",
    )
    return environ


def subprocess_config(environ: dict[str, str]) -> dict[str, Any]:
    """What config.settings and the Celery app resolve to in a process with ``environ``."""
    script = (
        "import json, django; django.setup()\n"
        "from django.conf import settings\n"
        "from config.celery import app\n"
        "print(json.dumps({\n"
        "    'CELERY_TASK_ALWAYS_EAGER': settings.CELERY_TASK_ALWAYS_EAGER,\n"
        "    'task_always_eager': bool(app.conf.task_always_eager),\n"
        "    'broker_url': app.conf.broker_url,\n"
        "    'database': str(settings.DATABASES['default']['NAME']),\n"
        "    'TURN_SECONDS_MIN': settings.TURN_SECONDS_MIN,\n"
        "}))\n"
    )
    config: dict[str, Any] = python_json(script, env=environ)
    return config


def probe_app(redis_url: str) -> Celery:
    """A Celery app of the test process that really sends to the private broker."""
    app = Celery("celery-timers-probe", broker=redis_url, backend=redis_url, set_as_current=False)
    app.conf.task_always_eager = False
    app.conf.broker_connection_retry_on_startup = True
    return app


class CeleryProcess:
    """A ``celery -A config …`` subprocess with its output in a log file."""

    def __init__(self, args: list[str], environ: dict[str, str], log_path: Path) -> None:
        self.args = args
        self.log_path = log_path
        log_path.parent.mkdir(parents=True, exist_ok=True)
        with log_path.open("ab") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "celery", "-A", "config", *args],
                cwd=ROOT,
                env=environ,
                stdout=log,
                stderr=subprocess.STDOUT,
            )

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def wait_for_log(self, predicate: Callable[[str], bool], what: str) -> None:
        deadline = time.monotonic() + STARTUP_TIMEOUT
        while not predicate(self.log()):
            assert self.process.poll() is None, f"{what}: the process exited:\n{self.log()}"
            assert time.monotonic() < deadline, f"{what}: timed out:\n{self.log()[-4000:]}"
            time.sleep(0.1)

    def stop(self, sig: int = signal.SIGTERM) -> None:
        stop_process(self.process, sig, timeout=STOP_TIMEOUT)


class Worker(CeleryProcess):
    def __init__(
        self,
        name: str,
        environ: dict[str, str],
        log_dir: Path,
        *,
        pool: str = "solo",
        concurrency: int = 1,
        log_name: str | None = None,
    ) -> None:
        self.name = f"{name}@celery-timers"
        super().__init__(
            [
                "worker",
                "-l",
                "info",
                f"--pool={pool}",
                f"--concurrency={concurrency}",
                "-n",
                self.name,
                # Mingle and gossip only share revokes and clocks between workers: skip their
                # wait at startup.
                "--without-mingle",
                "--without-gossip",
            ],
            environ,
            log_dir / f"{log_name or name}.log",
        )

    def wait_ready(self, probe: Celery) -> None:
        self.wait_for_log(lambda text: f"{self.name} ready." in text, f"worker {self.name}")
        # Ready in its log, and answering on the private broker's control channel.
        deadline = time.monotonic() + STARTUP_TIMEOUT
        while not probe.control.ping(destination=[self.name], timeout=0.5):
            assert self.process.poll() is None, self.log()
            assert time.monotonic() < deadline, f"{self.name} never answered ping:\n{self.log()}"


class Beat(CeleryProcess):
    def __init__(self, environ: dict[str, str], log_dir: Path) -> None:
        super().__init__(
            [
                "beat",
                "-l",
                "info",
                "--schedule",
                str(log_dir / "beat-schedule"),
                "--pidfile=",
            ],
            environ,
            log_dir / "beat.log",
        )

    def wait_sending(self, task: str) -> None:
        self.wait_for_log(lambda text: "Sending due task" in text and task in text, "beat")


# A log record starts with "[2026-01-31 12:00:00,000: LEVEL/Process]"; tracebacks follow it.
_RECORD = re.compile(r"\n(?=\[\d{4}-\d\d-\d\d )")


def problems(*processes: CeleryProcess, task: str) -> list[str]:
    """Log records that show ``task`` failed, a unique constraint broke or a lock timed out.

    Other tasks' failures (other apps' periodic jobs) are their tests' business, unless they are
    a crash of the process itself (CRITICAL).
    """
    found = []
    for process in processes:
        for record in _RECORD.split(process.log()):
            first = record.partition("\n")[0]
            if (
                "IntegrityError" in record
                or "database is locked" in record
                or "CRITICAL/" in first
                or ("ERROR/" in first and f"{task}[" in first)
            ):
                found.append(f"{process.log_path.name}: {record[:2000]}")
    return found


def broker_messages(redis_url: str, queue: str = "celery") -> list[dict[str, Any]]:
    """Every task message the Redis broker holds: waiting in ``queue`` or delivered, unacked."""
    client = redis.Redis.from_url(redis_url)
    try:
        waiting = [json.loads(raw) for raw in client.lrange(queue, 0, -1)]
        # kombu keeps delivered, not yet acknowledged messages as [message, exchange, key].
        unacked = [json.loads(raw)[0] for raw in client.hvals("unacked")]
    finally:
        client.close()
    return waiting + unacked


def queue_length(redis_url: str, queue: str = "celery") -> int:
    client = redis.Redis.from_url(redis_url)
    try:
        return int(client.llen(queue))
    finally:
        client.close()


def flush(redis_url: str) -> None:
    client = redis.Redis.from_url(redis_url)
    try:
        client.flushall()
    finally:
        client.close()


class CeleryFactory:
    """Makes a test's workers and beat with the (dataclass) subclass's ``environ`` and
    ``log_dir``; each joins ``processes``, which the test's fixture stops (``stop_all``) at its
    end."""

    environ: dict[str, str]
    log_dir: Path
    probe: Celery
    processes: list[Any]

    def stop_all(self) -> None:
        """Every process stopped, the last started first; then the probe's connections closed."""
        try:
            for process in reversed(self.processes):
                process.stop()
        finally:
            self.probe.close()

    def worker(self, name: str, **options: Any) -> Worker:
        worker = Worker(name, self.environ, self.log_dir, **options)
        self.processes.append(worker)
        return worker

    def beat(self) -> Beat:
        beat = Beat(self.environ, self.log_dir)
        self.processes.append(beat)
        return beat
