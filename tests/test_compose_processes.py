"""The services of docker-compose.yml start as compose starts them, and their health checks work.

There is no Docker here, so each service's own ``command`` and ``healthcheck`` run as processes,
with the service's environment from the file (pointed at a private Redis and a SQLite file
instead of the compose network's hosts): the one-shot ``migrate`` on a fresh database, beat as an
unprivileged user in a working directory it may not write to (as the image's ``uno`` user in
``/app``), and the worker with its ``inspect ping`` health check.
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from config.healthcheck import check_beat
from tests import celery_procs
from tests.child_python import run_text, stop_process
from tests.test_serve import ROOT

RUN_FOR_SECONDS = 5


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    with (ROOT / "docker-compose.yml").open() as file:
        loaded: dict[str, Any] = yaml.safe_load(file)
    return loaded


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("compose")


@pytest.fixture(scope="module")
def redis_url(workdir: Path) -> Iterator[str]:
    with celery_procs.redis_server(workdir / "redis") as url:
        yield url


def service_env(
    compose: dict[str, Any], name: str, workdir: Path, redis_url: str
) -> dict[str, str]:
    """The service's environment as compose sets it, on this machine's private services, and
    nothing of this test run's own environment but PATH (this venv first, as the image's)."""
    environ = {str(k): str(v) for k, v in compose["services"][name]["environment"].items()}
    del environ["DATABASE_URL"]
    environ.update(
        SQLITE_PATH=str(workdir / "compose.sqlite3"),
        REDIS_URL=redis_url,
        STATIC_ROOT=str(workdir / "static"),
        PATH=os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")]),
        # The image installs the project; here the checkout is the project, from any directory.
        PYTHONPATH=str(ROOT),
        PYTHONDONTWRITEBYTECODE="1",
        PYTHONUNBUFFERED="1",
        TMPDIR=str(workdir / "tmp"),
    )
    if environ.get("PROMETHEUS_MULTIPROC_DIR"):
        # A tmpfs of the container's (docs/deploy.md, "Watching it run"); here the test's own.
        metrics_dir = workdir / f"metrics-{name}"
        metrics_dir.mkdir(exist_ok=True)
        environ["PROMETHEUS_MULTIPROC_DIR"] = str(metrics_dir)
    return environ


def words(command: str | list[str]) -> list[str]:
    return command.split() if isinstance(command, str) else list(command)


def healthcheck_argv(service: dict[str, Any]) -> list[str]:
    """The health check's command as the container runs it. Compose first turns ``$$`` into
    ``$``; CMD-SHELL then goes through ``sh -c``."""
    test = [part.replace("$$", "$") for part in service["healthcheck"]["test"]]
    kind, rest = test[0], test[1:]
    if kind == "CMD-SHELL":
        return ["sh", "-c", " ".join(rest)]
    assert kind == "CMD", test
    return rest


def as_unprivileged_user() -> list[str]:
    """A prefix that runs a command as ``nobody`` when the tests run as root (CI does), and
    nothing otherwise (a directory the user may not write to is read-only for them anyway)."""
    if os.geteuid() != 0:
        return []
    nobody = pwd.getpwnam("nobody")
    setpriv = shutil.which("setpriv")
    assert setpriv, "setpriv (util-linux) is needed to run beat as an unprivileged user"
    return [
        setpriv,
        f"--reuid={nobody.pw_uid}",
        f"--regid={nobody.pw_gid}",
        "--clear-groups",
        # Reading (never writing) past permissions: the venv's interpreter may live under a
        # directory only root may enter (/root/.pyenv), where the image's is readable by all.
        "--inh-caps=+dac_read_search",
        "--ambient-caps=+dac_read_search",
    ]


def start(
    argv: list[str], environ: dict[str, str], cwd: Path, log: Path
) -> subprocess.Popen[bytes]:
    with log.open("ab") as out:
        return subprocess.Popen(argv, cwd=cwd, env=environ, stdout=out, stderr=subprocess.STDOUT)


@pytest.fixture(scope="module")
def migrated(compose: dict[str, Any], workdir: Path, redis_url: str) -> Path:
    """A fresh SQLite database migrated by the ``migrate`` service's own command."""
    environ = service_env(compose, "migrate", workdir, redis_url)
    (workdir / "tmp").mkdir(exist_ok=True)
    for attempt in ("fresh", "again"):
        done = run_text(words(compose["services"]["migrate"]["command"]), env=environ, timeout=180)
        assert done.returncode == 0, f"migrate ({attempt}) failed:\n{done.stdout}{done.stderr}"
    return workdir / "compose.sqlite3"


def test_migrate_runs_on_a_fresh_database_and_again_as_a_no_op(migrated: Path) -> None:
    assert migrated.is_file()


def wait_for_line(process: subprocess.Popen[bytes], log: Path, text: str, name: str) -> None:
    """Until ``text`` is in ``log``: ``name`` must neither exit nor take longer than a Celery
    process may to start."""
    deadline = time.monotonic() + celery_procs.STARTUP_TIMEOUT
    while text not in log.read_text(errors="replace"):
        assert process.poll() is None, f"{name} exited:\n{log.read_text()}"
        assert time.monotonic() < deadline, f"{name} did not start:\n{log.read_text()}"
        time.sleep(0.2)


def test_beat_runs_as_an_unprivileged_user_in_a_read_only_directory(
    compose: dict[str, Any], workdir: Path, redis_url: str
) -> None:
    environ = service_env(compose, "beat", workdir, redis_url)
    tmp = workdir / "tmp"
    tmp.mkdir(exist_ok=True)
    app_dir = workdir / "app"  # stands for the image's /app
    app_dir.mkdir()
    app_dir.chmod(0o555)
    prefix = as_unprivileged_user()
    if prefix:
        # Only the temp dir is the unprivileged user's, as /tmp is in the image.
        nobody = pwd.getpwnam("nobody")
        os.chown(tmp, nobody.pw_uid, nobody.pw_gid)
        denied = subprocess.run([*prefix, "touch", str(app_dir / "probe")], capture_output=True)
        assert denied.returncode != 0, "the working directory must be read-only for beat's user"
    celery_procs.flush(redis_url)
    log = workdir / "beat.log"
    beat = start([*prefix, *words(compose["services"]["beat"]["command"])], environ, app_dir, log)
    try:
        wait_for_line(beat, log, "beat: Starting...", "beat")
        time.sleep(RUN_FOR_SECONDS)
        assert beat.poll() is None, f"beat exited:\n{log.read_text()}"
        # It sends: the sweep (every second) is waiting in the broker for a worker.
        sent = {m["headers"]["task"] for m in celery_procs.broker_messages(redis_url)}
        assert "games.tasks.sweep_expired_turns" in sent, log.read_text()

        # Its schedule is in the temp dir, nothing in the working directory, and the service's
        # health check (run as beat's user, in the same environment) says it is healthy.
        assert list(tmp.glob("unoallwild-celerybeat-schedule*")), list(tmp.iterdir())
        assert list(app_dir.iterdir()) == []
        check = run_text(
            [*prefix, *healthcheck_argv(compose["services"]["beat"])],
            env=environ,
            timeout=60,
            cwd=app_dir,
        )
        assert check.returncode == 0, check.stderr
        assert "PermissionError" not in log.read_text()
        # Quiet: the sweep's sends every second are not logged at INFO.
        assert "Sending due task sweep-expired-turns" not in log.read_text()
    finally:
        stop_process(beat)
        app_dir.chmod(0o755)


def test_the_beat_health_check_fails_without_a_fresh_schedule(tmp_path: Path) -> None:
    schedule = tmp_path / "beat-schedule"
    assert check_beat(str(schedule), max_age=300) is not None  # no file: beat never ran

    schedule.with_name("beat-schedule.dat").write_bytes(b"")
    assert check_beat(str(schedule), max_age=300) is None
    old = time.time() - 600
    os.utime(schedule.with_name("beat-schedule.dat"), (old, old))
    assert "600 s ago" in (check_beat(str(schedule), max_age=300) or "")


def test_the_worker_answers_its_health_check(
    compose: dict[str, Any], workdir: Path, redis_url: str, migrated: Path
) -> None:
    environ = service_env(compose, "worker", workdir, redis_url)
    log = workdir / "worker.log"
    worker = start(words(compose["services"]["worker"]["command"]), environ, ROOT, log)
    try:
        wait_for_line(worker, log, " ready.", "the worker")
        # In a container HOSTNAME is the container's host name, the worker's default node name.
        check = run_text(
            healthcheck_argv(compose["services"]["worker"]),
            env={**environ, "HOSTNAME": socket.gethostname()},
            timeout=60,
        )
        assert check.returncode == 0, check.stdout + check.stderr
        assert "pong" in check.stdout
    finally:
        stop_process(worker)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def on_port(argv: list[str], old: str, new: int) -> list[str]:
    """The command with its listening port moved off compose's fixed one (which may be taken
    here): ``--bind 0.0.0.0:8000`` or ``--port 8001``."""
    moved = [part.replace(f"0.0.0.0:{old}", f"127.0.0.1:{new}") for part in argv]
    return [str(new) if part == old else part for part in moved]


@pytest.mark.parametrize(("name", "port"), [("web", "8000"), ("live", "8001")])
def test_the_api_and_the_live_process_start_and_answer_their_health_checks(
    compose: dict[str, Any], workdir: Path, redis_url: str, migrated: Path, name: str, port: str
) -> None:
    service = compose["services"][name]
    environ = service_env(compose, name, workdir, redis_url)
    # The image collected the static files at build time (Dockerfile).
    environ["STATIC_ROOT"] = str(workdir / "static")
    here = free_port()
    log = workdir / f"{name}.log"
    process = start(on_port(words(service["command"]), port, here), environ, ROOT, log)
    check_argv = [part.replace(f":{port}/", f":{here}/") for part in healthcheck_argv(service)]
    try:
        deadline = time.monotonic() + 60
        while True:
            assert process.poll() is None, f"{name} exited:\n{log.read_text()}"
            check = subprocess.run(check_argv, cwd=ROOT, env=environ, capture_output=True)
            if check.returncode == 0:
                break
            assert time.monotonic() < deadline, f"{name} never became healthy:\n{log.read_text()}"
            time.sleep(0.3)
        # Django answers behind it: an API route without a token is refused in the JSON shape.
        answer = subprocess.run(
            [
                sys.executable,
                "-c",
                "import urllib.request, urllib.error\n"
                "try:\n"
                f"    urllib.request.urlopen('http://127.0.0.1:{here}/api/v1/games/')\n"
                "except urllib.error.HTTPError as e:\n"
                "    print(e.code, e.read().decode())\n",
            ],
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert answer.stdout.startswith("401") and '"error"' in answer.stdout, answer.stdout
    finally:
        stop_process(process, timeout=30)
