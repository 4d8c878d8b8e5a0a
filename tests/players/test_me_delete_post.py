"""POST me/delete/: account deletion for clients that cannot send a body with DELETE."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from players.models import ApiToken, User


@pytest.mark.django_db
def test_posting_the_password_to_me_delete_deletes_the_account() -> None:
    alice = User.objects.create_user(username="alice", password="pw-alice-123")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Bearer " + ApiToken.issue(alice, name="phone")[1])

    wrong = client.post("/api/v1/me/delete/", {"password": "nope"}, format="json")
    assert wrong.status_code == 400
    assert wrong.json()["error"]["code"] == "invalid_credentials"
    assert User.objects.filter(username="alice").exists()

    response = client.post("/api/v1/me/delete/", {"password": "pw-alice-123"}, format="json")
    assert response.status_code == 204
    assert not User.objects.filter(username="alice").exists()


@pytest.mark.django_db
def test_cors_lets_browsers_send_and_read_the_conditional_and_idempotency_headers(
    settings: object,
) -> None:
    settings.CORS_ALLOWED_ORIGINS = ["https://app.example"]  # type: ignore[attr-defined]
    response = APIClient().options(
        "/api/v1/games/",
        HTTP_ORIGIN="https://app.example",
        HTTP_ACCESS_CONTROL_REQUEST_METHOD="POST",
        HTTP_ACCESS_CONTROL_REQUEST_HEADERS="idempotency-key, if-none-match",
    )
    allowed = response["Access-Control-Allow-Headers"].lower()
    assert "idempotency-key" in allowed and "if-none-match" in allowed
    get = APIClient().get("/api/v1/games/", HTTP_ORIGIN="https://app.example")
    assert "etag" in get["Access-Control-Expose-Headers"].lower()
