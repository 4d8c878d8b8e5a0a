"""Django's own middleware answer every request, under ASGI and WSGI alike: security headers,
sessions and the CSRF check behave as Django documents them."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync
from django.conf import settings
from django.test import AsyncClient, Client

from players.models import ApiToken, User

pytestmark = pytest.mark.django_db


def _token() -> str:
    user = User.objects.create_user(username="mw", display_name="Middleware")
    return ApiToken.issue(user, name="t", scope=ApiToken.SCOPE_PLAY)[1]


def test_the_middleware_are_the_frameworks_own() -> None:
    """No project re-implementation of Django's (or WhiteNoise's) middleware: only the request
    log line (which Django has no middleware for), the 503 on an unreachable database and the JSON
    errors under /api/ (Django's debug pages are HTML) are the project's."""
    ours = [path for path in settings.MIDDLEWARE if path.startswith("config.")]
    assert ours == [
        "config.logs.RequestLogMiddleware",
        "config.errors.DatabaseUnavailableMiddleware",
        "config.errors.ApiErrorMiddleware",
    ]


@pytest.mark.parametrize("server", ["asgi", "wsgi"])
def test_an_api_answer_carries_djangos_security_headers(server: str) -> None:
    token = _token()
    headers = {"Authorization": f"Bearer {token}"}
    if server == "asgi":
        response = async_to_sync(AsyncClient().get)("/api/v1/me/", headers=headers)
    else:
        response = Client().get("/api/v1/me/", headers=headers)
    assert response.status_code == 200
    assert response.json()["username"] == "mw"
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"


def test_a_session_log_in_under_asgi_saves_the_session() -> None:
    User.objects.create_user(username="web", password="a long enough password 1")
    response = async_to_sync(AsyncClient().post)(
        "/api/v1/auth/login/",
        {"username": "web", "password": "a long enough password 1"},
        content_type="application/json",
    )
    assert response.status_code in (200, 201, 204), response.content
    assert "sessionid" in response.cookies


def test_an_unsafe_request_without_a_csrf_token_is_refused_under_asgi() -> None:
    client = AsyncClient(enforce_csrf_checks=True)
    response = async_to_sync(client.post)("/admin/login/", {"username": "x", "password": "y"})
    assert response.status_code == 403
