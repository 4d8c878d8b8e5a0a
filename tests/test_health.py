"""The liveness endpoint and the API documentation routes."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.test import Client


def test_healthz_answers_ok_without_touching_the_database(client: Client) -> None:
    # No django_db mark: pytest-django makes any query here an error, so this also proves that
    # liveness does not depend on the database.
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response.json() == {"status": "ok"}


def test_the_openapi_schema_names_the_service(client: Client) -> None:
    response = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    info = response.json()["info"]
    assert (info["title"], info["version"]) == ("Uno All Wild API", "1.0.0")


def test_swagger_and_redoc_pages_render(client: Client) -> None:
    assert client.get("/api/docs/").status_code == 200
    assert client.get("/api/redoc/").status_code == 200


@pytest.mark.parametrize("page", ["/api/docs/", "/api/redoc/"])
def test_the_api_docs_pages_load_their_scripts_from_the_service_itself(
    client: Client, page: str
) -> None:
    # Offline (or behind a firewall) a CDN script never arrives and the page shows no
    # operations: every script and stylesheet must be one of our own static files.
    html = client.get(page).content.decode()
    assert "cdn.jsdelivr" not in html and "@latest" not in html
    # Nor anything else from outside: ReDoc's page linked Google Fonts (a stylesheet without a
    # .css name), which a firewall blocks and which tells a third party who reads the docs.
    external = re.findall(r'(?:src|href)="((?:https?:)?//[^"]*)"', html)
    assert not external, f"{page} loads from outside the service: {external}"
    urls = re.findall(r'(?:src|href)="([^"]+\.(?:js|css))"', html)
    assert urls, html
    for url in urls:
        assert url.startswith(settings.STATIC_URL) or url.startswith("/" + settings.STATIC_URL), url
        name = url.split(settings.STATIC_URL, 1)[1].split("?")[0]
        assert finders.find(name), f"{url} is not a static file of the service"


@pytest.mark.django_db
def test_readyz_reports_the_database_ready(client: Client, settings: Any) -> None:
    settings.REDIS_URL = None
    response = client.get("/readyz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "checks": {"database": "ok"}}


@pytest.mark.django_db
def test_readyz_answers_503_when_redis_is_unreachable(client: Client, settings: Any) -> None:
    # Port 1 on loopback: nothing listens there, so the connection is refused at once.
    settings.REDIS_URL = "redis://127.0.0.1:1/0"
    response = client.get("/readyz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unavailable"
    assert body["checks"]["database"] == "ok"
    assert body["checks"]["redis"].startswith("error: ")
