"""Private backing services and a real server for the fault tests.

Nothing here touches the shared PostgreSQL (5432) or Redis (6379): every fault test starts its own
``redis-server`` or PostgreSQL cluster (``initdb`` + ``pg_ctl``) on a free port in a temporary
folder, stops and restarts that one, and removes it at the end.

- ``PrivatePostgres``: a throw-away cluster. PostgreSQL refuses to run as root, so when the tests
  run as root its commands run as the ``postgres`` user (``runuser``) in a folder that user owns.
- ``PrivateRedis``: a non-persistent ``redis-server`` that can be stopped and started again on the
  same port.
- ``Server``: ``manage.py serve`` (uvicorn) in a subprocess with its own environment.
- ``http``: one HTTP request with the standard library, answering (status, headers, body) for any
  status rather than raising.
"""

from __future__ import annotations

import json
import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.common import initdb_command, redis_server_command
from tests.child_python import stop_process
from tests.test_serve import ROOT, free_port

PG_BIN = Path("/usr/lib/postgresql/15/bin")
STARTUP_TIMEOUT = 90  # seconds; `serve` migrates a fresh database first
STOP_TIMEOUT = 20


def _pg_binary(name: str) -> str:
    for candidate in (PG_BIN / name, *sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"))):
        if candidate.exists():
            return str(candidate)
    found = shutil.which(name)
    if found is None:
        # Never a skip: under CI=true a skip fails the run anyway, and .ci/run installs it.
        raise AssertionError(
            f"PostgreSQL's {name} is not installed: the fault tests start a private cluster "
            "(apt-get install postgresql; .ci/run does this)"
        )
    return found


def refuses_connections(port: int) -> bool:
    """True when nothing listens on 127.0.0.1:``port`` (the connection is refused)."""
    with socket.socket() as sock:
        sock.settimeout(1)
        try:
            sock.connect(("127.0.0.1", port))
        except ConnectionRefusedError:
            return True
        except OSError:
            return False
    return False


def wait_for(
    condition: Any, seconds: float, what: str, interval: float = 0.05, detail: Any = None
) -> float:
    """Poll ``condition`` for up to ``seconds``; how long it took, or AssertionError with
    ``detail()`` (e.g. the processes' logs)."""
    started = time.monotonic()
    while not condition():
        if time.monotonic() - started > seconds:
            raise AssertionError(
                f"{what}: not within {seconds} s" + (f"\n{detail()}" if detail else "")
            )
        time.sleep(interval)
    return time.monotonic() - started


class PrivatePostgres:
    """A PostgreSQL cluster of one test, on a free port in a temporary folder."""

    def __init__(self) -> None:
        self.port = free_port()
        self.as_user: list[str] = []
        self.dir = Path(tempfile.mkdtemp(prefix="uaw-fault-pg-"))
        if os.geteuid() == 0:
            # initdb refuses root: the cluster belongs to the postgres user.
            postgres = pwd.getpwnam("postgres")
            os.chown(self.dir, postgres.pw_uid, postgres.pw_gid)
            self.as_user = ["runuser", "-u", "postgres", "--"]
        self.data = self.dir / "data"
        self.log = self.dir / "postgres.log"
        self._run(*initdb_command(_pg_binary("initdb"), self.data))

    def _run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(
            [*self.as_user, *args], capture_output=True, text=True, timeout=120, cwd=self.dir
        )
        if check and done.returncode != 0:
            raise AssertionError(f"{args[0]} failed:\n{done.stdout}\n{done.stderr}\n{self.logs()}")
        return done

    def logs(self) -> str:
        try:
            return self.log.read_text(errors="replace")[-4000:]
        except OSError:
            return ""

    def start(self) -> None:
        options = (
            f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off "
            "-c max_connections=50"
        )
        self._run(
            _pg_binary("pg_ctl"),
            "-D",
            str(self.data),
            "-o",
            options,
            "-l",
            str(self.log),
            "-w",
            "-t",
            "60",
            "start",
        )
        wait_for(self.accepting, 30, "private PostgreSQL accepting connections")

    def stop(self, mode: str = "fast") -> None:
        self._run(_pg_binary("pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "stop")

    def accepting(self) -> bool:
        import psycopg

        try:
            with psycopg.connect(self.url("postgres"), connect_timeout=2):
                return True
        except psycopg.OperationalError:
            return False

    def url(self, database: str = "unoallwild") -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{database}"

    def create_database(self, name: str = "unoallwild") -> str:
        import psycopg

        with psycopg.connect(self.url("postgres"), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def destroy(self) -> None:
        if (self.data / "postmaster.pid").exists():
            self._run(
                _pg_binary("pg_ctl"),
                "-D",
                str(self.data),
                "-m",
                "immediate",
                "-w",
                "stop",
                check=False,
            )
        shutil.rmtree(self.dir, ignore_errors=True)


class PrivateRedis:
    """A non-persistent redis-server of one test; ``stop()`` and ``start()`` keep the port."""

    def __init__(self, directory: Path) -> None:
        from tests.celery_procs import require_redis_server

        self.binary = require_redis_server()
        self.dir = directory
        self.dir.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.url = f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        import redis

        with (self.dir / "redis.log").open("ab") as log:
            self.process = subprocess.Popen(
                redis_server_command(self.binary, self.port, self.dir),
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        client = redis.Redis.from_url(self.url, socket_timeout=1)

        def answers() -> bool:
            assert self.process is not None and self.process.poll() is None, self.logs()
            try:
                return bool(client.ping())
            except redis.ConnectionError:
                return False

        wait_for(answers, 15, "private redis-server answering PING")
        client.close()

    def stop(self) -> None:
        """Stop it the hard way (SIGKILL): whatever it held is gone, as after a crash."""
        assert self.process is not None
        self.process.kill()
        self.process.wait(timeout=STOP_TIMEOUT)
        self.process = None

    def logs(self) -> str:
        try:
            return (self.dir / "redis.log").read_text(errors="replace")[-3000:]
        except OSError:
            return ""

    def destroy(self) -> None:
        if self.process is not None:
            self.stop()


def server_env(extra: dict[str, str]) -> dict[str, str]:
    """The environment of a subprocess of the service: the caller's, minus the backing-service
    settings of the surrounding test run, plus ``extra``."""
    environ = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DATABASE_URL", "REDIS_URL", "SQLITE_PATH", "CELERY_TASK_ALWAYS_EAGER"}
    }
    environ.update(
        DEBUG="false",
        SECRET_KEY="fault-tests-secret",
        PYTHONUNBUFFERED="1",
        LOG_LEVEL="INFO",
        # The tests send bursts that real players would not: no throttling.
        THROTTLE_AUTH="100000/min",
        THROTTLE_ACTIONS="100000/min",
        THROTTLE_GAMES="100000/min",
        THROTTLE_REPORTS="100000/min",
    )
    environ.update(extra)
    return environ


class Server:
    """``manage.py serve`` in a subprocess; its output goes to a log file."""

    def __init__(self, environ: dict[str, str], log_path: Path, *, migrate: bool = True) -> None:
        self.port = free_port()
        self.log_path = log_path
        self.base = f"http://127.0.0.1:{self.port}"
        args = [sys.executable, "manage.py", "serve", "--port", str(self.port)]
        if not migrate:
            args.append("--no-migrate")
        with log_path.open("ab") as log:
            self.process = subprocess.Popen(
                args, cwd=ROOT, env=environ, stdout=log, stderr=subprocess.STDOUT
            )
        deadline = time.monotonic() + STARTUP_TIMEOUT
        while True:
            assert self.process.poll() is None, f"serve exited:\n{self.logs()}"
            try:
                status, _, _ = http("GET", self.base + "/healthz", timeout=2)
                if status == 200:
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline, f"serve never answered:\n{self.logs()}"
            time.sleep(0.2)

    def logs(self) -> str:
        return self.log_path.read_text(errors="replace")

    def stop(self) -> None:
        stop_process(self.process, timeout=STOP_TIMEOUT)


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


def http(
    method: str,
    url: str,
    body: Any = None,
    *,
    token: str | None = None,
    headers: dict[str, str] | None = None,
    timeout: float = 15,
) -> tuple[int, dict[str, str], bytes]:
    """One request; any HTTP status is an answer. Connection failures raise OSError."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if token is not None:
        request.add_header("Authorization", f"Bearer {token}")
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return (
                response.status,
                {k.lower(): v for k, v in response.headers.items()},
                (response.read()),
            )
    except urllib.error.HTTPError as error:
        with error:
            return error.code, {k.lower(): v for k, v in error.headers.items()}, error.read()


@dataclass
class Received:
    """One message an SMTP client sent, and whether the sink acknowledged it."""

    message: Any  # email.message.Message
    confirmed: bool


class SMTPSink:
    """A minimal SMTP server in a thread of the test process, for the service's e-mail.

    ``hold()`` makes it take the next message in full and then never acknowledge it (as a server
    that hangs after DATA); ``held`` is set once it has that message. Everything else is
    acknowledged at once. ``messages`` keeps every message received, acknowledged or not.
    """

    def __init__(self) -> None:
        self.port = free_port()
        self.messages: list[Received] = []
        self.held = threading.Event()
        self._hold_next = False
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._listener = socket.create_server(("127.0.0.1", self.port))
        self._listener.settimeout(0.2)
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def hold(self) -> None:
        self._hold_next = True
        self.held.clear()

    def confirmed(self) -> list[Any]:
        with self._lock:
            return [r.message for r in self.messages if r.confirmed]

    def close(self) -> None:
        self._stop.set()
        self._thread.join(5)
        self._listener.close()

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self._listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            threading.Thread(target=self._session, args=(conn,), daemon=True).start()

    def _session(self, conn: socket.socket) -> None:
        import email as email_module

        with conn, conn.makefile("rb") as reader:

            def reply(line: str) -> None:
                conn.sendall(line.encode() + b"\r\n")

            try:
                reply("220 sink ESMTP")
                while not self._stop.is_set():
                    line = reader.readline()
                    if not line:
                        return
                    command = line.decode(errors="replace").strip().upper()
                    if command.startswith(("EHLO", "HELO")):
                        reply("250 sink")
                    elif command.startswith("DATA"):
                        reply("354 go ahead")
                        data = b""
                        while True:
                            chunk = reader.readline()
                            if not chunk or chunk == b".\r\n":
                                break
                            data += chunk[1:] if chunk.startswith(b"..") else chunk
                        message = email_module.message_from_bytes(data)
                        with self._lock:
                            holding = self._hold_next
                            self._hold_next = False
                            received = Received(message, confirmed=not holding)
                            self.messages.append(received)
                        if holding:
                            self.held.set()
                            # Never acknowledge: wait until the client goes away.
                            while not self._stop.is_set() and reader.readline():
                                pass
                            return
                        reply("250 queued")
                    elif command.startswith("QUIT"):
                        reply("221 bye")
                        return
                    else:  # MAIL, RCPT, RSET, NOOP
                        reply("250 ok")
            except OSError:
                return


def two_player_game(server: Server, host: str, guest: str) -> str:
    """A game started through the API: ``host``'s lobby (a day a turn), joined by ``guest``
    (tokens); its id."""
    status, _, body = http(
        "POST",
        server.base + "/api/v1/games/",
        {"max_players": 2, "target_score": 500, "turn_seconds": 86400},
        token=host,
    )
    assert status == 201, body
    lobby = json.loads(body)
    status, _, body = http(
        "POST",
        server.base + "/api/v1/games/join/",
        {"invite_code": lobby["invite_code"]},
        token=guest,
    )
    assert status == 200, body
    return str(lobby["id"])
