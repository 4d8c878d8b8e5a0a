"""Who may call what, for every route in games/api/urls.py: nobody anonymous, nobody on someone
else's private game (answered as if it did not exist), and a malformed id is a JSON 404."""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Any

import pytest
from django.urls import URLPattern, reverse
from django.utils import timezone
from rest_framework.test import APIClient

from games.api.urls import urlpatterns
from games.models import Game
from players.models import ApiToken
from tests.games.conftest import API_TESTS, Player, new_lobby, start_game

pytestmark = API_TESTS


def _routes() -> list[tuple[str, str, bool]]:
    """(url name, method, takes a game id) for every route and every method its view answers."""
    out = []
    for pattern in urlpatterns:
        assert isinstance(pattern, URLPattern)
        view = pattern.callback.view_class  # type: ignore[attr-defined]
        takes_id = "game_id" in pattern.pattern.converters
        for method in ("get", "post", "put", "patch", "delete"):
            if hasattr(view, method):
                out.append((pattern.name, method, takes_id))
    return out


ROUTES = _routes()
GAME_ROUTES = [r for r in ROUTES if r[2]]
# A plausible body per route, so that a refusal cannot come from body validation.
BODIES: dict[str, Any] = {
    "games": {"max_players": 2},
    "games-join-by-invite": {"invite_code": "whatever"},
    "game-actions": {"type": "draw"},
    "games-vs-computer": {"bots": 1},
    "game-bots": {"level": "random"},
    "me-vacation": {"days": 1},
}


def url_of(name: str, game_id: Any = None) -> str:
    kwargs: dict[str, Any] | None = {"game_id": game_id} if game_id is not None else None
    if name == "game-bot" and kwargs is not None:
        kwargs["seat_id"] = 1  # any seat: the game is checked first
    return reverse(name, kwargs=kwargs)


def call(client: APIClient, name: str, method: str, game_id: Any = None) -> Any:
    url = url_of(name, game_id)
    if method == "get":
        return client.get(url)
    return getattr(client, method)(url, BODIES.get(name, {}), format="json")


def assert_error_shape(response: Any, status: int, code: str) -> None:
    assert response.status_code == status, (response.status_code, response.content)
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert set(body) == {"error"}, body
    assert body["error"]["code"] == code, body
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]
    assert "Traceback" not in response.content.decode()


def test_the_route_list_is_what_these_tests_expect() -> None:
    names = {name for name, _, _ in ROUTES}
    assert names == {
        "games",
        "games-open",
        "games-options",
        "games-join-by-invite",
        "games-live",
        "games-invitations",
        "game",
        "game-join",
        "game-leave",
        "game-start",
        "game-invite",
        "game-rematch",
        "game-decline",
        "game-actions",
        "game-events",
        "game-stream",
        "games-vs-computer",
        "game-bots",
        "game-bot",
        "game-reclaim",
        "me-vacation",
        "me-stats",
        "game-record",
        "game-watch",
        "game-watch-stream",
        "game-spectators",
        "game-spectating",
    }
    # games/ answers GET and POST, me/vacation/ GET, POST and DELETE, every other route one method.
    assert len(ROUTES) == 30


@pytest.mark.parametrize(("name", "method", "takes_id"), ROUTES, ids=lambda v: str(v))
def test_every_route_refuses_anonymous_requests_with_401(
    anonymous: APIClient, alice: Player, name: str, method: str, takes_id: bool
) -> None:
    game_id = new_lobby(alice)["id"] if takes_id else None

    response = call(anonymous, name, method, game_id)

    assert_error_shape(response, 401, "not_authenticated")
    assert response["WWW-Authenticate"] == 'Bearer realm="api"'


@pytest.mark.parametrize(("name", "method", "takes_id"), ROUTES, ids=lambda v: str(v))
def test_every_route_refuses_a_revoked_or_expired_token_with_401(
    alice: Player, name: str, method: str, takes_id: bool
) -> None:
    game_id = new_lobby(alice)["id"] if takes_id else None
    ApiToken.objects.filter(user=alice.user).update(revoked_at=timezone.now())
    _, expired = ApiToken.issue(alice.user, name="old")
    ApiToken.objects.filter(prefix=expired[:12]).update(
        expires_at=timezone.now() - timedelta(seconds=1)
    )

    for raw in (alice.token, expired, "uaw_not-a-token"):
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {raw}")
        assert_error_shape(call(client, name, method, game_id), 401, "authentication_failed")


@pytest.fixture(params=["lobby", "active", "finished"])
def private_game(request: Any, alice: Player, bob: Player) -> str:
    """A private game of alice and bob (nobody may watch it either), in each stage of its
    life."""
    if request.param == "lobby":
        lobby = new_lobby(alice, spectating="private")
        assert bob.join_by_code(lobby["invite_code"]).status_code == 200
        return lobby["id"]
    game_id = start_game(alice, bob, spectating="private")
    if request.param == "finished":
        assert bob.leave(game_id).status_code == 200
        assert Game.objects.get(pk=game_id).status == Game.FINISHED
    return game_id


@pytest.mark.parametrize(("name", "method", "takes_id"), GAME_ROUTES, ids=lambda v: str(v))
def test_a_stranger_gets_404_for_every_route_of_someone_elses_private_game(
    carol: Player, private_game: str, name: str, method: str, takes_id: bool
) -> None:
    before = Game.objects.get(pk=private_game)

    response = call(carol.client, name, method, private_game)

    assert_error_shape(response, 404, "not_found")
    # Exactly what a game that does not exist answers: nothing tells them it is there.
    missing = call(carol.client, name, method, uuid.uuid4())
    assert_error_shape(missing, 404, "not_found")
    assert response.json() == missing.json()
    after = Game.objects.get(pk=private_game)
    assert (after.version, after.status, after.host_id) == (
        before.version,
        before.status,
        before.host_id,
    )


@pytest.mark.parametrize(("name", "method", "takes_id"), GAME_ROUTES, ids=lambda v: str(v))
def test_a_malformed_game_id_is_a_json_404(
    alice: Player, anonymous: APIClient, name: str, method: str, takes_id: bool
) -> None:
    url = url_of(name, uuid.UUID(int=0)).replace(str(uuid.UUID(int=0)), "not-a-uuid")
    assert "not-a-uuid" in url

    for client in (alice.client, anonymous):
        response = getattr(client, method)(url)
        assert_error_shape(response, 404, "not_found")


def test_an_unknown_path_under_the_api_is_a_json_404(alice: Player) -> None:
    assert_error_shape(alice.get("/api/v1/games/nope/nope/"), 404, "not_found")


def test_a_method_a_route_does_not_answer_is_a_json_405(alice: Player) -> None:
    game_id = new_lobby(alice)["id"]

    assert_error_shape(alice.client.delete(url_of("game", game_id)), 405, "method_not_allowed")
    assert_error_shape(alice.get(url_of("game-actions", game_id)), 405, "method_not_allowed")
    assert_error_shape(alice.client.put(url_of("games")), 405, "method_not_allowed")


def test_a_read_only_token_may_read_every_route_but_change_nothing(alice: Player) -> None:
    game_id = new_lobby(alice, visibility="public")["id"]
    _, raw = ApiToken.issue(alice.user, name="watch", scope=ApiToken.SCOPE_READ)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {raw}")

    for name, method, takes_id in ROUTES:
        response = call(client, name, method, game_id if takes_id else None)
        if name == "game-record":
            # Readable, but a lobby has no record yet (docs/records.md).
            assert_error_shape(response, 409, "game_not_finished")
        elif name in ("game-watch", "game-watch-stream"):
            # Readable, but not by a player of the game (docs/social.md, "Spectators").
            assert_error_shape(response, 409, "seated_not_spectator")
        elif method == "get":
            assert response.status_code == 200, (name, response.content)
        else:
            assert_error_shape(response, 403, "permission_denied")
    assert Game.objects.count() == 1


@pytest.mark.parametrize(
    "which", ["no such game", "a malformed id", "None", "not my game", "a lobby I am not in"]
)
def test_an_action_on_a_game_i_have_no_seat_in_is_404_not_found(
    alice: Player, bob: Player, carol: Player, which: str
) -> None:
    """The seats and the game lock are one query now: no seat (no game, a malformed id, a game
    of others) is the same 404 ``not_found`` as before, whatever the game's status."""
    from config.errors import ServiceError
    from games import services

    game_id: Any = {
        "no such game": lambda: "00000000-0000-0000-0000-000000000000",
        "a malformed id": lambda: "not-a-uuid",
        "None": lambda: None,
        "not my game": lambda: start_game(alice, bob),
        "a lobby I am not in": lambda: str(alice.create(visibility="public").json()["id"]),
    }[which]()
    with pytest.raises(ServiceError) as refused:
        services.act(user=carol.user, game_id=game_id, action={"type": "draw"}, expected_version=1)
    assert (refused.value.code, refused.value.status) == ("not_found", 404)
