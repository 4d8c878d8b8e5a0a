"""The server's own messages (validation, password rules) in the request's language: Django's
LocaleMiddleware picks it from Accept-Language among settings.LANGUAGES (issue 21, §4)."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

URL = "/api/v1/auth/signup/"


def signup(client: APIClient, language: str | None, **fields: Any) -> Any:
    headers = {"HTTP_ACCEPT_LANGUAGE": language} if language else {}
    body = {"username": "alice", "password": "correct-horse-battery-7", **fields}
    return client.post(URL, body, format="json", **headers)


@pytest.mark.django_db
def test_password_rules_answer_in_danish_when_asked_in_danish(client: APIClient) -> None:
    response = signup(client, "da", password="abc")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "weak_password"
    assert (
        "Denne adgangskode er for kort. Den skal indeholde mindst 8 tegn."
        in (error["details"]["messages"])
    )
    assert response["Content-Language"] == "da"


@pytest.mark.django_db
def test_field_errors_answer_in_danish_when_asked_in_danish(client: APIClient) -> None:
    response = signup(client, "da-DK,da;q=0.9,en;q=0.5", email="not-an-address")
    assert response.status_code == 400
    fields = response.json()["error"]["details"]["fields"]
    assert fields["email"] == ["Angiv en gyldig e-mailadresse."]


@pytest.mark.django_db
def test_without_a_language_or_with_an_unknown_one_the_answer_is_english(
    client: APIClient,
) -> None:
    for language in (None, "fr"):
        response = signup(client, language, email="not-an-address")
        assert response.json()["error"]["details"]["fields"]["email"] == [
            "Enter a valid email address."
        ]
