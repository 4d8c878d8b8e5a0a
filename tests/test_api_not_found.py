"""Unknown URLs under /api/ answer the API's JSON error, with DEBUG on or off.

With DEBUG on, Django answers an unresolved URL with its HTML debug page and never calls
``handler404``; a client written against the API gets HTML where it expects the error shape.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

UNKNOWN = [
    "/api/v1/no-such-thing/",
    "/api/v1/games/00000000-0000-0000-0000-000000000000/no-such-action/",
    "/api/v2/games/",
    "/api/",
]


def assert_json_not_found(response: Any) -> None:
    assert response.status_code == 404, response.content[:300]
    assert response["Content-Type"] == "application/json"
    assert response.json() == {"error": {"code": "not_found", "message": "Not found."}}


@pytest.mark.parametrize("debug", [True, False], ids=["debug", "production"])
@pytest.mark.parametrize("path", UNKNOWN)
def test_an_unknown_api_url_answers_the_json_error(
    client: Client, settings: Any, debug: bool, path: str
) -> None:
    settings.DEBUG = debug
    assert_json_not_found(client.get(path))


def test_a_post_to_an_unknown_api_url_is_a_json_404_not_a_csrf_refusal(settings: Any) -> None:
    settings.DEBUG = True
    client = Client(enforce_csrf_checks=True)
    assert_json_not_found(
        client.post("/api/v1/no-such-thing/", {}, content_type="application/json")
    )


def test_a_known_route_without_its_slash_is_answered_by_it(client: Client, settings: Any) -> None:
    """Not redirected: many clients turn a redirected POST into a GET without its body."""
    settings.DEBUG = True
    response = client.get("/api/v1/games/open?x=1")
    assert response.status_code == 401  # the route's own answer: it needs a sign-in
    assert response.json()["error"]["code"] == "not_authenticated"


def test_an_unknown_url_without_a_slash_is_a_json_404(client: Client, settings: Any) -> None:
    settings.DEBUG = True
    assert_json_not_found(client.get("/api/v1/no-such-thing"))
