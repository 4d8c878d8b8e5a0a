"""The liveness endpoint and the API documentation routes."""

from __future__ import annotations

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
