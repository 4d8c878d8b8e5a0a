"""HTTPS behind a TLS-terminating proxy (issue 30 §1 and §3, issue 36): the settings come from the
environment, a plain request is sent to HTTPS except the health checks, the servers trust the
proxy's X-Forwarded-Proto from the configured addresses, and `check --deploy` is clean with the
production example."""

from __future__ import annotations

import os
import runpy
import secrets
import sys
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from config import env
from tests.child_python import run_text
from tests.test_serve import free_port, server_process
from tests.test_server_limits import gunicorn_command

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "deploy" / "production.env.example"
DEPLOY_CHECK = [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"]
HTTPS_VARIABLES = (
    "SECURE_PROXY_SSL_HEADER",
    "SECURE_SSL_REDIRECT",
    "SESSION_COOKIE_SECURE",
    "CSRF_COOKIE_SECURE",
    "SECURE_HSTS_SECONDS",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS",
    "SECURE_HSTS_PRELOAD",
    "FORWARDED_ALLOW_IPS",
)


def example_environ() -> dict[str, str]:
    """deploy/production.env.example's variables (the blank SECRET_KEY given a fresh one)."""
    values = {}
    for line in EXAMPLE.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            name, _, value = line.partition("=")
            values[name] = value
    values["SECRET_KEY"] = values["SECRET_KEY"] or secrets.token_urlsafe(50)
    return values


def settings_with(monkeypatch: pytest.MonkeyPatch, **environ: str) -> dict[str, Any]:
    """config/settings/ executed afresh with only these variables (and a secret key) set."""
    monkeypatch.setattr(env, "REGISTRY", {})
    for name in {*HTTPS_VARIABLES, "DEBUG", "DATABASE_URL", "REDIS_URL"}:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("SECRET_KEY", "x" * 50)
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    return runpy.run_path(str(ROOT / "config" / "settings" / "__init__.py"))


def test_https_settings_are_off_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    values = settings_with(monkeypatch)
    assert values["SECURE_PROXY_SSL_HEADER"] is None
    assert not values["SECURE_SSL_REDIRECT"] and values["SECURE_HSTS_SECONDS"] == 0
    assert not values["SESSION_COOKIE_SECURE"] and not values["CSRF_COOKIE_SECURE"]


# A deployment behind a TLS proxy that turns every HTTPS setting on.
BEHIND_TLS = {
    "SECURE_PROXY_SSL_HEADER": "true",
    "SECURE_SSL_REDIRECT": "true",
    "SESSION_COOKIE_SECURE": "true",
    "CSRF_COOKIE_SECURE": "true",
    "SECURE_HSTS_SECONDS": "31536000",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS": "true",
    "SECURE_HSTS_PRELOAD": "true",
    "FORWARDED_ALLOW_IPS": "10.0.0.0/8",
}


def test_https_settings_are_read_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    values = settings_with(monkeypatch, **BEHIND_TLS)
    assert values["SECURE_PROXY_SSL_HEADER"] == ("HTTP_X_FORWARDED_PROTO", "https")
    assert values["SECURE_SSL_REDIRECT"] and values["SECURE_HSTS_SECONDS"] == 31536000
    assert values["SECURE_HSTS_INCLUDE_SUBDOMAINS"] and values["SECURE_HSTS_PRELOAD"]
    assert values["SESSION_COOKIE_SECURE"] and values["CSRF_COOKIE_SECURE"]
    assert values["FORWARDED_ALLOW_IPS"] == "10.0.0.0/8"


@pytest.fixture
def behind_a_tls_proxy(settings: Any) -> None:
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_HSTS_SECONDS = 3600


@pytest.mark.usefixtures("behind_a_tls_proxy")
def test_a_request_the_proxy_says_is_https_is_served_with_hsts(client: Client) -> None:
    response = client.get("/login", HTTP_X_FORWARDED_PROTO="https")
    assert response.status_code == 200
    assert response["Strict-Transport-Security"] == "max-age=3600"


@pytest.mark.usefixtures("behind_a_tls_proxy")
def test_a_plain_request_is_sent_to_https(client: Client) -> None:
    response = client.get("/login")
    assert response.status_code == 301
    assert response["Location"] == "https://testserver/login"


@pytest.mark.usefixtures("behind_a_tls_proxy")
def test_the_health_check_answers_over_plain_http(client: Client) -> None:
    # The orchestrator's probe comes from inside the deployment, without TLS.
    assert client.get("/healthz").status_code == 200


def test_gunicorn_trusts_the_proxies_the_environment_names(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # Reading the file in this process would otherwise leave its metrics directory in our
    # environment for every server a later test starts (and removes it at gunicorn's exit).
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(tmp_path))
    monkeypatch.setenv("FORWARDED_ALLOW_IPS", "172.16.0.0/12")
    conf = runpy.run_path(str(ROOT / "config" / "gunicorn.conf.py"))
    assert conf["forwarded_allow_ips"] == "172.16.0.0/12"
    monkeypatch.delenv("FORWARDED_ALLOW_IPS")
    assert runpy.run_path(str(ROOT / "config" / "gunicorn.conf.py"))["forwarded_allow_ips"] == (
        "127.0.0.1,::1"
    )


@contextmanager
def gunicorn(tmp_path: Path, **environ: str) -> Iterator[int]:
    port = free_port()
    base = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    base.update(
        SQLITE_PATH=str(tmp_path / "https.sqlite3"),
        DEBUG="false",
        SECRET_KEY="test-https-secret",
        SECURE_SSL_REDIRECT="true",
        **environ,
    )
    log = tmp_path / f"gunicorn-{port}.log"
    with server_process(gunicorn_command(port), base, port, log):
        yield port


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


def status_of(port: int, **headers: str) -> int:
    opener = urllib.request.build_opener(NoRedirect)
    request = urllib.request.Request(
        # A page that needs neither the database nor collected static files: the API's 404.
        f"http://127.0.0.1:{port}/api/v1/no-such-page",
        headers={"Host": "localhost", **headers},
    )
    try:
        with opener.open(request, timeout=5) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return error.code


@pytest.mark.parametrize(("allowed", "expected"), [("127.0.0.1", 404), ("192.0.2.1", 301)])
def test_gunicorn_takes_https_from_a_configured_proxy_only(
    tmp_path: Path, allowed: str, expected: int
) -> None:
    # No SECURE_PROXY_SSL_HEADER: the scheme Django sees is gunicorn's, from X-Forwarded-Proto
    # when (and only when) the peer is one of FORWARDED_ALLOW_IPS.
    with gunicorn(tmp_path, FORWARDED_ALLOW_IPS=allowed) as port:
        assert status_of(port, **{"X-Forwarded-Proto": "https"}) == expected


def test_the_production_example_passes_the_deployment_checks() -> None:
    environ = {
        k: v
        for k, v in os.environ.items()
        if k not in env.registered_names() and k != "DJANGO_SETTINGS_MODULE"
    }
    environ.update(example_environ())
    result = run_text(DEPLOY_CHECK, env=environ, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout, result.stdout + result.stderr


def test_the_deployment_checks_fail_without_the_https_settings() -> None:
    # The check above could pass by checking nothing: without HTTPS it must warn.
    environ = {k: v for k, v in os.environ.items() if k not in env.registered_names()}
    environ.update({k: v for k, v in example_environ().items() if k not in HTTPS_VARIABLES})
    result = run_text(DEPLOY_CHECK, env=environ, timeout=120)
    assert result.returncode != 0
    assert "security.W008" in result.stderr + result.stdout


def test_the_production_example_sets_only_variables_the_service_reads() -> None:
    unknown = set(example_environ()) - env.registered_names()
    assert not unknown, f"deploy/production.env.example sets variables nothing reads: {unknown}"
