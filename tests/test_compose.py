"""docker-compose.yml stays in step with the settings it configures."""

from __future__ import annotations

import re
import uuid
from pathlib import Path
from typing import Any

import pytest
import yaml
from django.urls import reverse
from django.urls.converters import UUIDConverter

import config.settings  # noqa: F401  (reading the settings fills the registry)
from config.env import registered_names
from games.api import urls as games_urls

ROOT = Path(__file__).resolve().parent.parent
APP_SERVICES = ("web", "live", "worker", "beat")
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
    assert {"proxy", "web", "live", "worker", "beat", "postgres", "redis"} <= set(
        compose["services"]
    )


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


LONG_RUNNING = ("proxy", "web", "live", "worker", "beat", "postgres", "redis")


@pytest.mark.parametrize("name", LONG_RUNNING)
def test_every_long_running_service_has_a_healthcheck(compose: dict[str, Any], name: str) -> None:
    healthcheck = compose["services"][name]["healthcheck"]
    assert healthcheck["test"][0] in {"CMD", "CMD-SHELL"} and len(healthcheck["test"]) > 1


def test_the_healthchecks_check_what_each_process_does(compose: dict[str, Any]) -> None:
    services = compose["services"]
    assert any("8000/healthz" in part for part in services["web"]["healthcheck"]["test"])
    assert any("8001/healthz" in part for part in services["live"]["healthcheck"]["test"])
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


def command_words(service: dict[str, Any]) -> list[str]:
    command = service["command"]
    return command.split() if isinstance(command, str) else list(command)


def test_the_api_runs_on_gunicorn_with_persistent_connections(compose: dict[str, Any]) -> None:
    web = compose["services"]["web"]
    words = command_words(web)
    assert words[0] == "gunicorn" and words[-1] == "config.wsgi:application"
    config = words[words.index("--config") + 1]
    assert (ROOT / config).is_file()
    assert "0.0.0.0:8000" in words and web["expose"] == ["8000"]
    # One persistent connection per worker, really reused under WSGI; Django's pool needs 0.
    assert int(web["environment"]["CONN_MAX_AGE"]) > 0
    assert web["environment"]["DATABASE_POOL_SIZE"] == "0"


def test_the_live_routes_run_on_one_uvicorn_process(compose: dict[str, Any]) -> None:
    live = compose["services"]["live"]
    words = command_words(live)
    # config.asgi_server runs config.asgi under uvicorn, one process, with the project's options.
    assert words[:3] == ["python", "-m", "config.asgi_server"]
    assert "--workers" not in words
    assert words[words.index("--port") + 1] == "8001" and live["expose"] == ["8001"]
    # Under ASGI a persistent connection per request thread is never reused: a pool instead.
    assert live["environment"]["CONN_MAX_AGE"] == "0"
    assert int(live["environment"]["DATABASE_POOL_SIZE"]) > 0


def test_every_app_service_prepares_statements_on_connections_it_keeps(
    compose: dict[str, Any],
) -> None:
    # Prepared statements live on a connection: each process keeps its own (web persistent ones,
    # the others a pool), and no pooler (PgBouncer in transaction mode) sits in between.
    assert "pgbouncer" not in compose["services"]
    for name in ("web", "live", "worker", "beat", "migrate"):
        service = compose["services"][name]
        assert service["environment"]["DATABASE_PREPARED_STATEMENTS"] == "true", name
        keeps = service["environment"]
        assert int(keeps["CONN_MAX_AGE"]) > 0 or int(keeps["DATABASE_POOL_SIZE"]) > 0, name


def test_only_the_proxy_is_published(compose: dict[str, Any]) -> None:
    published = {name for name, service in compose["services"].items() if service.get("ports")}
    assert published == {"proxy"}
    assert compose["services"]["proxy"]["ports"] == ["8000:80"]
    depends_on = compose["services"]["proxy"]["depends_on"]
    assert {name: dep["condition"] for name, dep in depends_on.items()} == {
        "web": "service_healthy",
        "live": "service_healthy",
    }


def nginx_locations(text: str) -> dict[str, str]:
    """Each ``location`` of the proxy's configuration (its pattern) and its block's body."""
    found = re.findall(r"location\s+(~\s+\S+|/)\s*\{(.*?)\n    \}", text, re.S)
    return {pattern.removeprefix("~").strip(): body for pattern, body in found}


@pytest.fixture(scope="module")
def nginx(compose: dict[str, Any]) -> dict[str, str]:
    (mount,) = compose["services"]["proxy"]["volumes"]
    source, target, mode = mount.split(":")
    assert target == "/etc/nginx/conf.d/default.conf" and mode == "ro"
    text = (ROOT / source).read_text()
    assert "server web:8000;" in text and "server live:8001;" in text
    return nginx_locations(text)


def test_the_proxy_sends_exactly_the_live_routes_to_live(nginx: dict[str, str]) -> None:
    (live_pattern,) = [pattern for pattern in nginx if pattern != "/"]
    assert "proxy_pass http://live;" in nginx[live_pattern]
    # A stream must reach the client as it is written, not when the answer is complete.
    assert "proxy_buffering off;" in nginx[live_pattern]
    assert "proxy_pass http://api;" in nginx["/"]
    # Every route of the games API, by whether the live process should answer it.
    for pattern in games_urls.urlpatterns:
        kwargs = {
            name: uuid.uuid4() if isinstance(converter, UUIDConverter) else 1
            for name, converter in pattern.pattern.converters.items()
        }
        path = reverse(pattern.name, kwargs=kwargs)
        routed_to_live = re.match(live_pattern, path) is not None
        live_routes = {"game-stream", "game-events", "games-live", "game-watch-stream"}
        assert routed_to_live == (pattern.name in live_routes), path
    assert re.match(live_pattern, reverse("account-events"))  # notifications' account stream
    for path in ("/api/v1/games/", "/admin/", "/", "/static/web/app.js"):
        assert not re.match(live_pattern, path), path
