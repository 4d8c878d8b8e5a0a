"""A schema a generated client can trust (issue 33, §5): what the schema promises holds.

- Defaults: every default in a request body is accepted as it is, for every game; the server
  uses each game's own seats when none are sent, and `games_options_retrieve` says how many.
- Bounds: integer path and query values past what the database holds are refused (404 or
  400), never a crash; the schema declares the bounds.
- JSON only under /api/: whatever Accept asks for, with DEBUG on, for a path with a newline,
  for a crashing view.
- Declared: every operation declares 503 with Retry-After, and 413/415 where it reads a body.
- Strict input: a misspelt body field is refused naming it; a POST without its trailing slash
  is answered, not redirected.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from django.test import Client
from rest_framework.test import APIClient

from games.engine import registry
from games.models import Game
from moderation.models import Block
from notifications.models import WebhookEndpoint
from players.models import ApiToken
from tests.games.conftest import API, API_TESTS, Player, start_game
from tests.test_bad_input import assert_refused

pytestmark = API_TESTS

ROOT = Path(__file__).resolve().parent.parent
SCHEMA: dict[str, Any] = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
HTTP_METHODS = ("get", "put", "patch", "post", "delete")
TOO_BIG = 2**63  # one past the largest id SQLite and PostgreSQL store


def component(name: str) -> dict[str, Any]:
    found: dict[str, Any] = SCHEMA["components"]["schemas"][name]
    return found


def defaults_of(name: str) -> dict[str, Any]:
    """The documented defaults of a request body's fields, as a generated client sends them."""
    return {
        field: prop["default"]
        for field, prop in component(name)["properties"].items()
        if "default" in prop
    }


def operations() -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (method, path, op)
        for path, item in SCHEMA["paths"].items()
        for method, op in item.items()
        if method in HTTP_METHODS
    ]


# ---------------------------------------------------------------------------------------------
# Defaults that work


@pytest.mark.parametrize("kind", registry.kinds())
def test_the_create_bodys_documented_defaults_are_accepted_for_every_game(
    alice: Player, kind: str
) -> None:
    body = {**defaults_of("CreateGame"), "game": kind}
    response = alice.create(**body)
    assert response.status_code == 201, response.content
    rules = registry.get_game(kind)
    assert rules.min_players <= response.json()["max_players"] <= rules.max_players


def test_no_seat_count_means_the_games_own_default(alice: Player) -> None:
    options = alice.get(f"{API}options/").json()
    defaults = {game["kind"]: game["default_players"] for game in options["games"]}
    assert defaults["gin_rummy"] == 2
    assert defaults["uno_all_wild"] == 4
    assert options["max_players"]["default"] == defaults[registry.DEFAULT_KIND]
    for kind, seats in defaults.items():
        response = alice.create(game=kind)
        assert response.status_code == 201, response.content
        assert response.json()["max_players"] == seats


def test_the_create_body_documents_no_seat_default(alice: Player) -> None:
    assert "default" not in component("CreateGame")["properties"]["max_players"]


def test_the_webhook_bodys_documented_defaults_are_accepted(alice: Player, settings: Any) -> None:
    settings.WEBHOOK_ALLOW_LOOPBACK = True
    token = ApiToken.objects.get(user=alice.user)
    body = {
        **defaults_of("WebhookCreate"),
        "url": "http://127.0.0.1:9/hook",
        "token_id": token.pk,
    }
    assert body["description"] == ""
    response = alice.post("/api/v1/notifications/webhooks/", body)
    assert response.status_code == 201, response.content
    assert WebhookEndpoint.objects.get(user=alice.user).description == ""


# ---------------------------------------------------------------------------------------------
# Integers past what the database holds


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("delete", f"/api/v1/blocks/{TOO_BIG}/"),
        ("delete", f"/api/v1/blocks/{2**64 + 5}/"),
        ("delete", f"/api/v1/auth/tokens/{TOO_BIG}/"),
        ("post", f"/api/v1/notifications/{TOO_BIG}/read/"),
        ("get", f"/api/v1/notifications/webhooks/{TOO_BIG}/"),
        ("get", f"/api/v1/notifications/webhooks/{TOO_BIG}/attempts/"),
    ],
)
def test_an_id_in_the_path_past_any_database_id_is_a_json_404(
    alice: Player, method: str, path: str
) -> None:
    response = getattr(alice.client, method)(path)
    assert_refused(response, 404, "not_found")


def test_the_largest_id_is_looked_up_and_not_found(alice: Player) -> None:
    assert_refused(alice.client.delete(f"/api/v1/blocks/{TOO_BIG - 1}/"), 404, "not_found")


@pytest.mark.parametrize(
    ("path", "name", "value"),
    [
        ("/api/v1/notifications/", "before", str(TOO_BIG)),
        ("/api/v1/notifications/", "before", "0"),
        ("/api/v1/notifications/", "limit", "101"),
        ("/api/v1/notifications/", "limit", "²"),
        ("/api/v1/notifications/", "before", ""),
        ("/api/v1/games/live/", "wait", "26"),
        ("/api/v1/games/live/", "wait", "-1"),
    ],
)
def test_a_query_integer_out_of_bounds_is_400_naming_it(
    alice: Player, path: str, name: str, value: str
) -> None:
    error = assert_refused(alice.get(path, {name: value}), 400, "invalid_request")
    assert list(error["details"]["fields"]) == [name]


@pytest.mark.parametrize("value", ["", "bogus"])
def test_an_empty_or_unknown_status_filter_is_refused(alice: Player, value: str) -> None:
    assert_refused(alice.get(API, {"status": value}), 400, "invalid_request")


def test_the_events_query_bounds_are_checked(alice: Player, bob: Player) -> None:
    game = start_game(alice, bob)
    for name, value in (("after", str(TOO_BIG)), ("limit", "0"), ("limit", "201")):
        response = alice.get(f"{API}{game}/events/", {name: value})
        assert_refused(response, 400, "invalid_request")


def test_the_webhook_log_bounds_are_checked(alice: Player, settings: Any) -> None:
    from notifications.channels import webhook

    settings.WEBHOOK_ALLOW_LOOPBACK = True
    endpoint = webhook.create_endpoint(user=alice.user, url="http://127.0.0.1:9/hook")
    path = f"/api/v1/notifications/webhooks/{endpoint.pk}/attempts/"
    assert alice.get(path, {"before": str(TOO_BIG - 1)}).status_code == 200
    for name, value in (("before", str(TOO_BIG)), ("limit", "101")):
        assert_refused(alice.get(path, {name: value}), 400, "invalid_request")


@pytest.mark.parametrize(
    ("path", "name", "low", "high"),
    [
        ("/api/v1/games/{game_id}/events/", "after", 0, 10**9),
        ("/api/v1/games/{game_id}/events/", "limit", 1, 200),
        ("/api/v1/games/{game_id}/events/", "wait", 0, 25),
        ("/api/v1/games/{game_id}/stream/", "after", 0, 10**9),
        ("/api/v1/games/live/", "wait", 0, 25),
        ("/api/v1/notifications/", "before", 1, 2**63 - 1),
        ("/api/v1/notifications/", "limit", 1, 100),
        ("/api/v1/notifications/webhooks/{webhook_id}/attempts/", "before", 1, 2**63 - 1),
        ("/api/v1/notifications/webhooks/{webhook_id}/attempts/", "limit", 1, 100),
    ],
)
def test_the_schema_declares_the_query_bounds(path: str, name: str, low: int, high: int) -> None:
    parameters = {p["name"]: p for p in SCHEMA["paths"][path]["get"]["parameters"]}
    schema = parameters[name]["schema"]
    assert (schema["type"], schema["minimum"], schema["maximum"]) == ("integer", low, high)


def test_every_integer_path_parameter_has_the_database_bound() -> None:
    found = 0
    for _, _, op in operations():
        for parameter in op.get("parameters", []):
            if parameter["in"] == "path" and parameter["schema"].get("type") == "integer":
                found += 1
                assert parameter["schema"]["maximum"] == TOO_BIG - 1, op["operationId"]
    assert found >= 5


# ---------------------------------------------------------------------------------------------
# Always JSON under /api/


@pytest.mark.parametrize("debug", [True, False], ids=["debug", "production"])
def test_a_browser_asking_for_html_gets_json(alice: Player, settings: Any, debug: bool) -> None:
    settings.DEBUG = debug
    response = alice.client.get(API, HTTP_ACCEPT="text/html,application/xhtml+xml,*/*;q=0.8")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    response = alice.client.get(API, HTTP_ACCEPT="text/html")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert isinstance(response.json(), list)


@pytest.mark.parametrize("path", ["/api/v1/games/%0A", "/api/v1/%0A/games/", "/api/%0d%0a"])
def test_a_path_with_a_newline_is_a_json_404(client: Client, settings: Any, path: str) -> None:
    settings.DEBUG = True
    response = client.get(path)
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json()["error"]["code"] == "not_found"


@pytest.mark.parametrize("debug", [True, False], ids=["debug", "production"])
def test_a_crashing_api_view_answers_the_json_500(
    alice: Player, settings: Any, monkeypatch: pytest.MonkeyPatch, debug: bool
) -> None:
    from games import selectors

    def crash(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("a bug")

    settings.DEBUG = debug
    monkeypatch.setattr(selectors, "open_games", crash)
    alice.client.raise_request_exception = False
    response = alice.client.get(f"{API}open/", HTTP_ACCEPT="text/html")
    assert response.status_code == 500
    assert response["Content-Type"] == "application/json"
    assert response.json()["error"]["code"] == "server_error"
    assert "a bug" not in response.content.decode()


# ---------------------------------------------------------------------------------------------
# Declared where they can happen


@pytest.mark.parametrize(
    ("method", "path", "op"), operations(), ids=[op["operationId"] for _, _, op in operations()]
)
def test_every_operation_declares_the_stacks_refusals(
    method: str, path: str, op: dict[str, Any]
) -> None:
    responses = op["responses"]
    assert "Retry-After" in responses["503"]["headers"], op["operationId"]
    if "requestBody" in op:
        assert {"400", "413", "415"} <= set(responses), op["operationId"]
    if any(p["in"] == "query" for p in op.get("parameters", [])):
        assert "400" in responses, op["operationId"]


@pytest.mark.parametrize(
    ("method", "path", "op"), operations(), ids=[op["operationId"] for _, _, op in operations()]
)
def test_a_429_is_declared_with_retry_after_wherever_an_app_may_call(
    method: str, path: str, op: dict[str, Any]
) -> None:
    """Every API view counts an app's requests (players.oauth.AppRateThrottle): where an app's
    token reaches an operation, its 429 may answer, and a 429 says when to retry."""
    responses = op["responses"]
    if any("oauth2" in requirement for requirement in op.get("security", [])):
        assert "429" in responses, op["operationId"]
    if "429" in responses:
        assert "Retry-After" in responses["429"]["headers"], op["operationId"]
        assert responses["429"]["x-error-codes"] == ["throttled"], op["operationId"]


def test_a_body_that_is_not_json_is_a_declared_415(alice: Player) -> None:
    response = alice.client.post(API, b"<game/>", content_type="application/xml")
    assert_refused(response, 415, "unsupported_media_type")


# ---------------------------------------------------------------------------------------------
# Strict input


def test_a_misspelt_colour_is_refused_naming_the_field(alice: Player, bob: Player) -> None:
    game = start_game(alice, bob)
    before = Game.objects.values_list("version", flat=True).get(pk=game)
    for player in (alice, bob):
        response = player.act(game, {"type": "play", "card": "wild-1", "color": "red"})
        error = assert_refused(response, 400, "unknown_field")
        assert error["details"]["fields"] == {"color": ["This field is not part of the request."]}
    assert Game.objects.values_list("version", flat=True).get(pk=game) == before


def test_an_unknown_field_is_told_before_the_other_fields_are_checked(alice: Player) -> None:
    """A client that misspells a field learns that first; a wrong value in it means nothing."""
    error = assert_refused(alice.create(max_players="3", seats=3), 400, "unknown_field")
    assert list(error["details"]["fields"]) == ["seats"]
    assert not Game.objects.exists()


def test_a_misspelt_field_in_other_apps_is_refused(alice: Player, bob: Player) -> None:
    response = alice.post("/api/v1/blocks/", {"player_id": bob.user.pk, "reason": "rude"})
    assert assert_refused(response, 400, "unknown_field")["details"]["fields"] == {
        "reason": ["This field is not part of the request."]
    }
    assert not Block.objects.exists()
    response = alice.client.patch("/api/v1/me/", {"displayname": "Al"}, format="json")
    assert_refused(response, 400, "unknown_field")


def test_a_post_without_its_trailing_slash_is_answered(alice: Player) -> None:
    response = alice.client.post(API.rstrip("/"), {"max_players": 2}, format="json")
    assert response.status_code == 201, response.content
    assert Game.objects.get().max_players == 2


def test_a_get_without_its_trailing_slash_is_answered(alice: Player) -> None:
    response = alice.client.get(f"{API}open")
    assert response.status_code == 200
    assert response.json() == []


def test_a_post_without_its_slash_keeps_its_protection(db: None) -> None:
    """The view answers as itself: authentication and CSRF as at its own URL."""
    response = APIClient().post(API.rstrip("/"), {}, format="json")
    assert_refused(response, 401, "not_authenticated")


def test_an_async_view_without_its_slash_is_answered(alice: Player, bob: Player) -> None:
    """The game's stream view is async; without its slash it answers as with it (JSON here)."""
    game = start_game(alice, bob)
    response = alice.client.get(f"{API}{game}/stream", HTTP_ACCEPT="application/json")
    assert response.status_code == 200, response.content
    assert response.json()["version"] == Game.objects.get(pk=game).version
