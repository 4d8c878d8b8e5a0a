"""The services of docker-compose.yml as processes on this machine, as Compose would run them.

There is no Docker here. Every app service (``migrate``, ``web``, ``live``, ``worker``, ``beat``)
runs its own ``command`` with its own ``environment`` from docker-compose.yml and waits on its own
``healthcheck`` (polled more often than Compose's interval, given up after Compose's
``start_period + interval × retries``). What differs is only where things are:

- PostgreSQL is this machine's (``STACK_POSTGRES_URL``, by default ``postgres@127.0.0.1:5432``),
  in a fresh database of the stack's own that is dropped at the end;
- Redis is a private ``redis-server`` on a free port (the broker's queues, the cache and pub/sub
  are then the stack's alone, also when several stacks run at once);
- the proxy is Debian's ``nginx`` with deploy/nginx.conf, its upstream addresses and its port
  substituted (a free port, never 80 or 8000);
- ports are free ones, and the image's build steps (``collectstatic``) run once, as root;
- the app processes and nginx run as ``nobody`` (when the tests run as root, as CI does), with the
  checkout as their working directory, which stands for the image's read-only ``/app``: a process
  that writes where the image's user may not fails here too.

Several ``web``, ``live`` and ``worker`` processes may run at once (two of everything); each
worker gets a node name of its own, as each container has a host name of its own.
"""

from __future__ import annotations

import os
import pwd
import re
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from tests import celery_procs
from tests.child_python import run_text
from tests.databases import fresh_database
from tests.test_compose_processes import as_unprivileged_user, healthcheck_argv, on_port, words
from tests.test_serve import ROOT, free_port

COMPOSE_FILE = ROOT / "docker-compose.yml"
NGINX_CONF = ROOT / "deploy" / "nginx.conf"
POSTGRES_ADMIN_URL = os.environ.get(
    "STACK_POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/postgres"
)
SUPERUSER = {"username": "operator", "password": "a-long-Operator-passw0rd"}
STOP_TIMEOUT = 20


def load_compose() -> dict[str, Any]:
    with COMPOSE_FILE.open() as file:
        loaded: dict[str, Any] = yaml.safe_load(file)
    return loaded


def seconds(duration: str | int | float | None, default: float) -> float:
    """A Compose duration ("10s", "1m30s", "500ms") in seconds."""
    if duration is None:
        return default
    if isinstance(duration, int | float):
        return float(duration)
    units = {"ms": 0.001, "s": 1, "m": 60, "h": 3600}
    parts = re.findall(r"(\d+(?:\.\d+)?)(ms|s|m|h)", duration)
    assert parts, f"not a Compose duration: {duration!r}"
    return sum(float(n) * units[u] for n, u in parts)


def health_deadline(service: dict[str, Any]) -> float:
    """How long Compose would wait before it calls the service unhealthy."""
    check = service.get("healthcheck", {})
    return seconds(check.get("start_period"), 0) + seconds(check.get("interval"), 30) * check.get(
        "retries", 3
    )


# What a started service gives back: its address (or name), and a wait for its health check.
Waiting = tuple[str, Callable[[], None]]


@dataclass
class Process:
    name: str
    popen: subprocess.Popen[bytes]
    log: Path

    def tail(self, chars: int = 4000) -> str:
        return f"--- {self.log.name} ---\n" + self.log.read_text(errors="replace")[-chars:]


@dataclass
class Stack:
    """A running stack: where its parts answer, and their processes."""

    workdir: Path
    database_url: str
    redis_url: str
    proxy_url: str = ""
    web_urls: list[str] = field(default_factory=list)
    live_urls: list[str] = field(default_factory=list)
    processes: list[Process] = field(default_factory=list)

    def logs(self) -> str:
        return "\n".join(p.tail() for p in self.processes)

    def check_alive(self) -> None:
        for process in self.processes:
            assert process.popen.poll() is None, f"{process.name} exited:\n{process.tail()}"


class Runner:
    """Starts the services; knows their environment, user and ports."""

    def __init__(
        self, workdir: Path, database_url: str, redis_url: str, extra_env: dict[str, str]
    ) -> None:
        self.compose = load_compose()
        self.workdir = workdir
        self.extra_env = extra_env
        self.prefix = as_unprivileged_user()
        self.tmp = workdir / "tmp"
        self.tmp.mkdir(parents=True, exist_ok=True)
        self._give_to_unprivileged_user(self.tmp)
        self.stack = Stack(workdir, database_url, redis_url)

    def _give_to_unprivileged_user(self, path: Path) -> None:
        if self.prefix:
            nobody = pwd.getpwnam("nobody")
            os.chown(path, nobody.pw_uid, nobody.pw_gid)

    def service(self, name: str) -> dict[str, Any]:
        service: dict[str, Any] = self.compose["services"][name]
        return service

    def env(self, name: str) -> dict[str, str]:
        """The service's environment as Compose sets it, on the stack's database and Redis, and
        nothing of the test run's own environment but PATH (this venv first, as in the image)."""
        environ = {str(k): str(v) for k, v in self.service(name)["environment"].items()}
        environ.update(
            DATABASE_URL=self.stack.database_url,
            REDIS_URL=self.stack.redis_url,
            # The image collected its static files at build time (Dockerfile).
            STATIC_ROOT=str(self.workdir / "static"),
            PATH=os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")]),
            # The image installs the project; here the checkout is the project.
            PYTHONPATH=str(ROOT),
            # As the Dockerfile sets them (and nothing may write .pyc files into /app).
            PYTHONDONTWRITEBYTECODE="1",
            PYTHONUNBUFFERED="1",
            TMPDIR=str(self.tmp),
            HOME=str(self.tmp),
            **self.extra_env,
        )
        self._emulate_container(self.service(name), environ)
        return environ

    def _emulate_container(self, service: dict[str, Any], environ: dict[str, str]) -> None:
        """What each container has of its own: a fresh directory for each ``tmpfs`` mount (the
        worker's metrics directory) and, with several on one machine, its own scrape port."""
        for mount in service.get("tmpfs", []):
            directory = Path(tempfile.mkdtemp(prefix="tmpfs-", dir=self.workdir))
            self._give_to_unprivileged_user(directory)
            for key, value in environ.items():
                if value == mount:
                    environ[key] = str(directory)
        if "WORKER_METRICS_PORT" in environ:
            environ["WORKER_METRICS_PORT"] = str(free_port())

    def run_once(self, name: str, argv: list[str], environ: dict[str, str], *, user: bool) -> None:
        done = run_text([*(self.prefix if user else []), *argv], env=environ, timeout=300)
        assert done.returncode == 0, f"{name} failed:\n{done.stdout}{done.stderr}"

    def build(self) -> None:
        """The image's build step: collectstatic, as root, with the build's own settings."""
        environ = self.env("web")
        environ.update(SECRET_KEY="collectstatic-only", DEBUG="false")
        self.run_once(
            "collectstatic",
            [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
            environ,
            user=False,
        )

    def migrate(self) -> None:
        """The one-shot ``migrate`` service, then the operator's first admin (README)."""
        environ = self.env("migrate")
        self.run_once("migrate", words(self.service("migrate")["command"]), environ, user=True)
        environ.update(
            DJANGO_SUPERUSER_USERNAME=SUPERUSER["username"],
            DJANGO_SUPERUSER_PASSWORD=SUPERUSER["password"],
            DJANGO_SUPERUSER_EMAIL="operator@example.org",
        )
        self.run_once(
            "createsuperuser",
            ["python", "manage.py", "createsuperuser", "--noinput"],
            environ,
            user=True,
        )

    def start(self, label: str, argv: list[str], environ: dict[str, str]) -> Process:
        log = self.workdir / f"{label}.log"
        with log.open("ab") as out:
            popen = subprocess.Popen(
                [*self.prefix, *argv],
                cwd=ROOT,
                env=environ,
                stdout=out,
                stderr=subprocess.STDOUT,
                # Its own process group: stopping it stops its children (gunicorn's and the
                # worker's forks) and nothing else.
                start_new_session=True,
            )
        process = Process(label, popen, log)
        self.stack.processes.append(process)
        return process

    def wait_healthy(
        self,
        process: Process,
        service: dict[str, Any],
        argv: list[str],
        environ: dict[str, str],
        *,
        after_line: str = "",
    ) -> None:
        """Run the service's health check until it passes, as Compose does (but more often).
        ``after_line``: start checking once the log shows it (a check that costs a process
        start, the worker's ``celery inspect ping``, is not run every half second meanwhile)."""
        deadline = time.monotonic() + health_deadline(service)
        while after_line and after_line not in process.log.read_text(errors="replace"):
            assert process.popen.poll() is None, f"{process.name} exited:\n{process.tail()}"
            assert time.monotonic() < deadline, f"{process.name} never logged {after_line!r}"
            time.sleep(0.2)
        while True:
            assert process.popen.poll() is None, f"{process.name} exited:\n{process.tail()}"
            check = run_text([*self.prefix, *argv], env=environ, timeout=60)
            if check.returncode == 0:
                return
            assert time.monotonic() < deadline, (
                f"{process.name} never became healthy: {check.stdout}{check.stderr}\n"
                + process.tail()
            )
            time.sleep(0.5)

    def start_http(self, name: str, index: int) -> Waiting:
        """``web`` or ``live`` on a free port: its address, and how to wait for its health."""
        service = self.service(name)
        compose_port = {"web": "8000", "live": "8001"}[name]
        port = free_port()
        environ = self.env(name)
        process = self.start(
            f"{name}{index}", on_port(words(service["command"]), compose_port, port), environ
        )
        check = [
            part.replace(f":{compose_port}/", f":{port}/") for part in healthcheck_argv(service)
        ]
        url = f"http://127.0.0.1:{port}"
        return url, lambda: self.wait_healthy(process, service, check, environ)

    def start_worker(self, index: int) -> Waiting:
        # In a container the node name is celery@<its host name>; here each worker is given one.
        host = f"stack-worker{index}"
        service = self.service("worker")
        environ = self.env("worker")
        process = self.start(
            f"worker{index}", [*words(service["command"]), "-n", f"celery@{host}"], environ
        )
        check_env = {**environ, "HOSTNAME": host}
        return host, lambda: self.wait_healthy(
            process, service, healthcheck_argv(service), check_env, after_line=" ready."
        )

    def start_beat(self) -> Waiting:
        service = self.service("beat")
        environ = self.env("beat")
        process = self.start("beat", words(service["command"]), environ)
        return "beat", lambda: self.wait_healthy(
            process, service, healthcheck_argv(service), environ, after_line="beat: Starting..."
        )

    def start_proxy(self, nginx_conf: Path) -> None:
        """Debian's nginx with the file Compose mounts, upstreams and port substituted."""
        directory = self.workdir / "nginx"
        directory.mkdir()
        self._give_to_unprivileged_user(directory)
        port = free_port()
        site = nginx_conf.read_text()
        for name, urls in (("web:8000", self.stack.web_urls), ("live:8001", self.stack.live_urls)):
            assert f"server {name};" in site, f"{nginx_conf} has no upstream {name}"
            servers = " ".join(f"server {url.removeprefix('http://')};" for url in urls)
            site = site.replace(f"server {name};", servers)
        assert "listen 80;" in site
        site = site.replace("listen 80;", f"listen 127.0.0.1:{port};")
        nginx = nginx_argv(directory, site)
        process = self.start("proxy", [*nginx, "-g", "daemon off;"], self.env("web"))
        service = self.service("proxy")
        check = [
            part.replace("nginx -t", " ".join(["nginx", *nginx[1:], "-t"])).replace(
                "/var/run/nginx.pid", str(directory / "nginx.pid")
            )
            for part in healthcheck_argv(service)
        ]
        self.wait_healthy(process, service, check, self.env("web"))
        self.stack.proxy_url = f"http://localhost:{port}"
        # The health check says nginx runs; a request through it says it reaches web.
        deadline = time.monotonic() + 30
        while not answers(f"http://127.0.0.1:{port}/healthz"):
            assert time.monotonic() < deadline, "the proxy never answered /healthz"
            time.sleep(0.2)


def nginx_argv(directory: Path, site: str) -> list[str]:
    """``nginx`` with ``site`` (a file for conf.d, as Compose mounts deploy/nginx.conf) in a main
    configuration whose pid, logs and temp files are all in ``directory``; without ``-g``."""
    (directory / "default.conf").write_text(site)
    temp_paths = "\n".join(
        f"    {kind}_temp_path {directory / kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    main = directory / "nginx.conf"
    main.write_text(
        "worker_processes 1;\n"
        f"pid {directory / 'nginx.pid'};\n"
        f"error_log {directory / 'error.log'} warn;\n"
        "events { worker_connections 1024; }\n"
        "http {\n"
        f"    access_log {directory / 'access.log'};\n"
        f"{temp_paths}\n"
        f"    include {directory / 'default.conf'};\n"
        "}\n"
    )
    return ["nginx", "-p", str(directory), "-e", str(directory / "error.log"), "-c", str(main)]


def answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return bool(response.status == 200)
    except (urllib.error.URLError, OSError):
        return False


def stop_all(processes: list[Process]) -> None:
    """SIGTERM to every process's own group (it and its forks) at once, as ``docker compose
    down`` stops the services; SIGKILL to a group still there after STOP_TIMEOUT."""
    for process in processes:
        if process.popen.poll() is None:
            os.killpg(process.popen.pid, signal.SIGTERM)
    deadline = time.monotonic() + STOP_TIMEOUT
    for process in processes:
        try:
            process.popen.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            os.killpg(process.popen.pid, signal.SIGKILL)
            process.popen.wait(timeout=STOP_TIMEOUT)
        # Forks that outlived their parent (a gunicorn worker, a prefork child) go too.
        with suppress(ProcessLookupError):
            os.killpg(process.popen.pid, signal.SIGKILL)


@contextmanager
def running_stack(
    workdir: Path,
    *,
    webs: int = 1,
    lives: int = 1,
    workers: int = 1,
    extra_env: dict[str, str] | None = None,
    nginx_conf: Path = NGINX_CONF,
) -> Iterator[Stack]:
    """Every service of docker-compose.yml, in Compose's order (``depends_on``): the database
    and Redis, the one-shot ``migrate``, then web, live, worker, beat, and the proxy last."""
    with ExitStack() as cleanup:
        database_url = cleanup.enter_context(fresh_database(POSTGRES_ADMIN_URL, "stack"))
        redis_url = cleanup.enter_context(celery_procs.redis_server(workdir / "redis"))
        runner = Runner(workdir, database_url, redis_url, extra_env or {})
        stack = runner.stack
        cleanup.callback(lambda: stop_all(stack.processes))
        if runner.prefix:
            # The working directory stands for the image's /app: its user may not write there.
            probe = subprocess.run([*runner.prefix, "touch", str(ROOT / ".stack-probe")])
            assert probe.returncode != 0, "the checkout must be read-only for the services' user"
        runner.build()
        runner.migrate()
        # Compose starts the services that wait on the same things together, then each waits
        # on its own health check; the proxy waits for web and live to be healthy.
        webs_up = [runner.start_http("web", i) for i in range(1, webs + 1)]
        lives_up = [runner.start_http("live", i) for i in range(1, lives + 1)]
        others = [runner.start_worker(i) for i in range(1, workers + 1)] + [runner.start_beat()]
        for _, wait in [*webs_up, *lives_up, *others]:
            wait()
        stack.web_urls = [url for url, _ in webs_up]
        stack.live_urls = [url for url, _ in lives_up]
        runner.start_proxy(nginx_conf)
        yield stack
