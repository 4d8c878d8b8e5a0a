"""docker-compose.yml stays in step with the settings it configures."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

import config.settings  # noqa: F401  (reading the settings fills the registry)
from config.env import registered_names

ROOT = Path(__file__).resolve().parent.parent
APP_SERVICES = ("web", "worker", "beat")
# Every service that runs the project's code, the one-shot migrate too.
PROJECT_SERVICES = ("migrate", *APP_SERVICES)


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    with (ROOT / "docker-compose.yml").open() as file:
        loaded: dict[str, Any] = yaml.safe_load(file)
    return loaded


def environment_names(service: dict[str, Any]) -> set[str]:
    """Variable names from either compose syntax: a mapping, or a list of NAME=value."""
    environment = service.get("environment") or {}
    if isinstance(environment, dict):
        return set(environment)
    return {entry.split("=", 1)[0] for entry in environment}


def test_it_defines_the_app_and_its_backing_services(compose: dict[str, Any]) -> None:
    assert {"web", "worker", "beat", "postgres", "redis"} <= set(compose["services"])


@pytest.mark.parametrize("name", PROJECT_SERVICES)
def test_every_variable_set_on_an_app_service_is_read_by_settings(
    compose: dict[str, Any], name: str
) -> None:
    # A variable that settings never read is a typo or a leftover, and would be silently ignored.
    unknown = environment_names(compose["services"][name]) - registered_names()
    assert not unknown, f"{name} sets variables settings.py never reads: {sorted(unknown)}"


@pytest.mark.parametrize("name", PROJECT_SERVICES)
def test_app_services_use_postgres_and_redis(compose: dict[str, Any], name: str) -> None:
    assert {"DATABASE_URL", "REDIS_URL"} <= environment_names(compose["services"][name])


LONG_RUNNING = ("web", "worker", "beat", "postgres", "redis")


@pytest.mark.parametrize("name", LONG_RUNNING)
def test_every_long_running_service_has_a_healthcheck(compose: dict[str, Any], name: str) -> None:
    healthcheck = compose["services"][name]["healthcheck"]
    assert healthcheck["test"][0] in {"CMD", "CMD-SHELL"} and len(healthcheck["test"]) > 1


def test_the_healthchecks_check_what_each_process_does(compose: dict[str, Any]) -> None:
    services = compose["services"]
    assert any("/healthz" in part for part in services["web"]["healthcheck"]["test"])
    worker = " ".join(services["worker"]["healthcheck"]["test"][1:])
    # $$: compose would otherwise substitute HOSTNAME from the host's environment.
    assert "inspect ping" in worker and "celery@$$HOSTNAME" in worker
    assert services["beat"]["healthcheck"]["test"][1:5] == [
        "python",
        "-m",
        "config.healthcheck",
        "beat",
    ]


def test_a_one_shot_migrate_service_runs_before_the_app(compose: dict[str, Any]) -> None:
    migrate = compose["services"]["migrate"]
    command = migrate["command"]
    words = command.split() if isinstance(command, str) else command
    assert words[:3] == ["python", "manage.py", "migrate"] and "--noinput" in words
    assert migrate["depends_on"]["postgres"]["condition"] == "service_healthy"
    # A restart policy would run it again after it exited successfully.
    assert migrate.get("restart", "no") == "no"
    assert "healthcheck" not in migrate and "ports" not in migrate
    assert environment_names(migrate) == environment_names(compose["services"]["web"])


@pytest.mark.parametrize("name", APP_SERVICES)
def test_app_services_wait_for_the_migrations(compose: dict[str, Any], name: str) -> None:
    depends_on = compose["services"][name]["depends_on"]
    assert depends_on["migrate"]["condition"] == "service_completed_successfully"


@pytest.mark.parametrize("name", APP_SERVICES)
def test_app_services_wait_for_healthy_backing_services(compose: dict[str, Any], name: str) -> None:
    depends_on = compose["services"][name]["depends_on"]
    for backing in ("postgres", "redis"):
        assert depends_on[backing]["condition"] == "service_healthy"


def test_worker_and_beat_run_celery_for_this_project(compose: dict[str, Any]) -> None:
    for name, role in (("worker", "worker"), ("beat", "beat")):
        command = compose["services"][name]["command"]
        words = command.split() if isinstance(command, str) else command
        assert words[:4] == ["celery", "-A", "config", role]
