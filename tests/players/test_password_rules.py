"""The password validators: Django's own, and the service's (players/passwords.py)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.errors import error_code


def signup(password: str) -> object:
    body = {"username": "erin", "password": password}
    return APIClient().post("/api/v1/auth/signup/", body, format="json")


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("password", "why"),
    [
        ("Passw0rd!", "too common"),  # "passw0rd" is on Django's list; the "!" is no disguise
        ("P@ssword1", "too common"),
        ("uno-all-wild", "own name and words"),
        ("UnoAllWild2024!", "own name and words"),
        ("wild-card-games", "own name and words"),
        (" " * 8, "nothing but spaces"),
        (" " * 30, "nothing but spaces"),
        ("k9#xQ", "too short"),
    ],
)
def test_a_weak_password_is_refused_at_sign_up(password: str, why: str) -> None:
    response = signup(password)
    assert response.status_code == 400, password
    assert error_code(response) == "weak_password"
    messages = response.json()["error"]["details"]["messages"]
    assert any(why in message for message in messages), messages


@pytest.mark.django_db
@pytest.mark.parametrize(
    "password", ["correct-horse-battery-7", "allison-wild-77", "  spaced  out  words  "]
)
def test_a_good_password_is_welcome(password: str) -> None:
    assert signup(password).status_code == 201, password
