"""``pip install .`` alone (no extras, none of the dev tools) runs every process of the service.

A fresh virtualenv gets the project as the Dockerfile installs it; web (gunicorn with
config/gunicorn.conf.py), live (uvicorn), the Celery worker and beat then start from the installed
package (not the checkout) and each reaches its health check or logs its ready line. A module the
runtime imports but pyproject.toml does not declare (kombu's Redis transport imports
``packaging``, which once arrived only with the dev tools) stops one of them here.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests import celery_procs
from tests.child_python import run_text, stop_process
from tests.stack.harness import answers
from tests.test_serve import ROOT, free_port

pytestmark = pytest.mark.stack

# What a build of the project needs from the checkout (.dockerignore leaves out the rest).
NOT_THE_PROJECT = shutil.ignore_patterns(
    ".git", ".venv", "test-artifacts", "tests", "bench", "docs", "build", "*.egg-info",
    "__pycache__", "db.sqlite3*", "staticfiles", "node_modules",
)  # fmt: skip


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A virtualenv with ``pip install .`` of a copy of the checkout (a build writes into the
    source tree, which must stay the tests' own)."""
    base = tmp_path_factory.mktemp("runtime")
    source = base / "src"
    shutil.copytree(ROOT, source, ignore=NOT_THE_PROJECT)
    subprocess.run([sys.executable, "-m", "venv", str(base / "venv")], check=True, timeout=120)
    pip = subprocess.run(
        # --no-compile: no .pyc files for every installed module (Django's are many); the
        # processes compile what they import.
        [str(base / "venv" / "bin" / "pip"), "install", "--quiet", "--no-compile", str(source)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert pip.returncode == 0, pip.stdout + pip.stderr
    return base / "venv"


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with celery_procs.redis_server(tmp_path_factory.mktemp("runtime-redis")) as url:
        yield url


def runtime_env(venv: Path, workdir: Path, redis_url: str) -> dict[str, str]:
    """Only the venv: no PYTHONPATH, nothing of the test run's environment but PATH's tools."""
    return {
        "PATH": os.pathsep.join([str(venv / "bin"), "/usr/local/bin", "/usr/bin", "/bin"]),
        "HOME": str(workdir),
        "TMPDIR": str(workdir),
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DEBUG": "false",
        "SECRET_KEY": "runtime-install-check-only-secret-key",
        "SQLITE_PATH": str(workdir / "db.sqlite3"),
        "STATIC_ROOT": str(workdir / "static"),
        "REDIS_URL": redis_url,
        "PYTHONUNBUFFERED": "1",
    }


def installed_config(venv: Path, environ: dict[str, str], workdir: Path) -> Path:
    """Where the venv's ``config`` package is: the installed one, never the checkout."""
    where = run_text(
        ["python", "-c", "import json, config; print(json.dumps(config.__file__))"],
        env=environ,
        timeout=60,
        cwd=workdir,
    )
    assert where.returncode == 0, where.stderr
    package = Path(json.loads(where.stdout)).parent
    assert package.is_relative_to(venv), package
    return package


def run(argv: list[str], environ: dict[str, str], cwd: Path) -> None:
    done = subprocess.run(argv, cwd=cwd, env=environ, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"{argv}:\n{done.stdout}{done.stderr}"


def wait_until(check: object, process: subprocess.Popen[bytes], log: Path, what: str) -> None:
    deadline = time.monotonic() + 60
    while not check():  # type: ignore[operator]
        assert process.poll() is None, f"{what} exited:\n{log.read_text(errors='replace')}"
        assert time.monotonic() < deadline, f"{what} never got ready:\n{log.read_text()[-4000:]}"
        time.sleep(0.2)


def test_a_runtime_only_install_starts_web_live_worker_and_beat(
    venv: Path, redis_url: str, tmp_path: Path
) -> None:
    environ = runtime_env(venv, tmp_path, redis_url)
    package = installed_config(venv, environ, tmp_path)
    run(["python", "-m", "django", "migrate", "--noinput", "-v", "0"], environ, tmp_path)
    run(["python", "-m", "django", "collectstatic", "--noinput", "-v", "0"], environ, tmp_path)
    web_port, live_port = free_port(), free_port()
    commands = {
        "web": [
            "gunicorn", "--config", str(package / "gunicorn.conf.py"), "--workers", "1",
            "--bind", f"127.0.0.1:{web_port}", "config.wsgi:application",
        ],
        "live": [
            "uvicorn", "config.asgi:application", "--host", "127.0.0.1",
            "--port", str(live_port), "--workers", "1", "--no-access-log",
        ],
        "worker": ["celery", "-A", "config", "worker", "-l", "info", "--pool", "solo"],
        "beat": ["celery", "-A", "config", "beat", "-l", "info"],
    }  # fmt: skip
    ready = {
        "web": lambda log: answers(f"http://127.0.0.1:{web_port}/healthz"),
        "live": lambda log: answers(f"http://127.0.0.1:{live_port}/healthz"),
        "worker": lambda log: " ready." in log.read_text(errors="replace"),
        "beat": lambda log: "beat: Starting..." in log.read_text(errors="replace"),
    }
    processes: list[subprocess.Popen[bytes]] = []
    try:
        logs = {name: tmp_path / f"{name}.log" for name in commands}
        started = {}
        for name, argv in commands.items():
            with logs[name].open("wb") as out:
                started[name] = subprocess.Popen(
                    argv, cwd=tmp_path, env=environ, stdout=out, stderr=subprocess.STDOUT
                )
            processes.append(started[name])
        for name, process in started.items():
            log = logs[name]
            wait_until(lambda log=log, name=name: ready[name](log), process, log, name)
        # The web client's page and its static files come from the installed package.
        assert answers(f"http://127.0.0.1:{web_port}/login")
        for process in processes:
            assert process.poll() is None
        for name in commands:
            text = (tmp_path / f"{name}.log").read_text(errors="replace")
            assert "ModuleNotFoundError" not in text and "Traceback" not in text, text
    finally:
        for process in reversed(processes):
            stop_process(process)
