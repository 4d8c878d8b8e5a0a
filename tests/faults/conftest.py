"""Fixtures of the fault tests: a private Redis, and real Celery workers, beat and a web server
on it and on the test database (see tests/faults/infra.py and tests/celery_procs.py).

The processes share the database the test sees (the SQLite file or the ``test_…`` PostgreSQL
database), so tests set up and check with the ORM; ``transactional_db`` makes the test's rows
visible to them, and every process is stopped before the database is flushed.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from celery import Celery
from django.db import connection

from games import services
from tests import celery_procs
from tests.celery_procs import CeleryProcess
from tests.faults.infra import PrivateRedis, Server, SMTPSink, server_env


@pytest.fixture
def redis_service(tmp_path: Path) -> Iterator[PrivateRedis]:
    """This test's own redis-server, which the test may stop and start again."""
    service = PrivateRedis(tmp_path / "redis")
    service.start()
    try:
        yield service
    finally:
        service.destroy()


@pytest.fixture
def smtp_sink() -> Iterator[SMTPSink]:
    """Where the service's processes send e-mail (a real SMTP conversation)."""
    sink = SMTPSink()
    try:
        yield sink
    finally:
        sink.close()


@dataclass
class Processes(celery_procs.CeleryFactory):
    """The service's processes of one test, all on the private Redis and the test database."""

    redis: PrivateRedis
    smtp: SMTPSink
    environ: dict[str, str]
    log_dir: Path
    probe: Celery
    processes: list[CeleryProcess | Server] = field(default_factory=list)

    def server(self) -> Server:
        server = Server(self.environ, self.log_dir / "serve.log", migrate=False)
        self.processes.append(server)
        return server

    def logs(self) -> str:
        parts = []
        for process in self.processes:
            path = process.log_path
            parts.append(f"--- {path.name}\n{path.read_text(errors='replace')[-3000:]}")
        return "\n".join(parts)


@pytest.fixture
def processes(
    transactional_db: None,
    redis_service: PrivateRedis,
    smtp_sink: SMTPSink,
    tmp_path: Path,
    tmp_path_factory: pytest.TempPathFactory,
    monkeypatch: pytest.MonkeyPatch,
) -> Iterator[Processes]:
    """A factory of workers, beat and a web server for the test; all stopped at its end."""
    monkeypatch.setattr(services.lobby, "MIN_TURN_SECONDS", 1)
    environ = server_env(
        {
            **celery_procs.subprocess_env(redis_service.url, connection.settings_dict),
            "STATIC_ROOT": str(tmp_path_factory.getbasetemp() / "fault-static"),
            "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "EMAIL_HOST": "127.0.0.1",
            "EMAIL_PORT": str(smtp_sink.port),
            "EMAIL_USE_TLS": "false",
        }
    )
    resolved = celery_procs.subprocess_config(environ)
    assert resolved["CELERY_TASK_ALWAYS_EAGER"] is False, resolved
    assert resolved["broker_url"] == redis_service.url, resolved
    assert resolved["database"] == str(connection.settings_dict["NAME"]), resolved
    probe = celery_procs.probe_app(redis_service.url)
    run = Processes(redis_service, smtp_sink, environ, tmp_path / "logs", probe)
    run.log_dir.mkdir(parents=True, exist_ok=True)
    try:
        yield run
    finally:
        run.stop_all()
