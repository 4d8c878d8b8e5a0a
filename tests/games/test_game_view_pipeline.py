"""The game view is an ordinary DRF view: whatever authentication and throttles it is given
run on every GET of it, a conditional GET answered 304 included, under ASGI and WSGI alike; and a
client that is still current gets its 304 without the game being loaded."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import async_to_sync
from django.test import AsyncClient, Client
from django.utils import timezone
from rest_framework.request import Request
from rest_framework.throttling import BaseThrottle

from games import selectors
from games.api.views import GameDetailView
from players.auth import BearerTokenAuthentication
from players.models import ApiToken
from tests.games.conftest import API_TESTS, Player, game_url, new_lobby, start_game

pytestmark = API_TESTS

ALLOWED = 3


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What the game view's own authentication and throttle saw, in order. The throttle lets
    ``ALLOWED`` requests through and refuses every one after."""
    seen: list[str] = []
    allowed = [ALLOWED]

    class RecordingAuthentication(BearerTokenAuthentication):
        def authenticate(self, request: Request) -> Any:
            seen.append("authenticate")
            return super().authenticate(request)

    class CountingThrottle(BaseThrottle):
        def allow_request(self, request: Request, view: Any) -> bool:
            seen.append("throttle")
            allowed[0] -= 1
            return allowed[0] >= 0

        def wait(self) -> float:
            return 7

    monkeypatch.setattr(GameDetailView, "authentication_classes", [RecordingAuthentication])
    monkeypatch.setattr(GameDetailView, "throttle_classes", [CountingThrottle])
    return seen


def _get(server: str, player: Player, game_id: str, **headers: str) -> Any:
    headers = {"Authorization": f"Bearer {player.token}", **headers}
    if server == "asgi":
        return async_to_sync(AsyncClient().get)(game_url(game_id), headers=headers)
    return Client().get(game_url(game_id), headers=headers)


@pytest.mark.parametrize("server", ["wsgi", "asgi"])
def test_the_game_views_authentication_and_throttle_apply_to_every_get(
    alice: Player, bob: Player, calls: list[str], server: str
) -> None:
    game_id = start_game(alice, bob)
    calls.clear()

    first = _get(server, alice, game_id)
    assert first.status_code == 200
    assert calls == ["authenticate", "throttle"]

    etag = first["ETag"]
    for _ in range(ALLOWED - 1):
        calls.clear()
        assert _get(server, alice, game_id, **{"If-None-Match": etag}).status_code == 304
        assert calls == ["authenticate", "throttle"]

    calls.clear()
    refused = _get(server, alice, game_id, **{"If-None-Match": etag})
    assert refused.status_code == 429
    assert refused.json()["error"]["code"] == "throttled"
    assert refused["Retry-After"] == "7"
    assert calls == ["authenticate", "throttle"]


def test_a_revoked_token_is_refused_also_on_a_conditional_get(alice: Player, bob: Player) -> None:
    game_id = start_game(alice, bob)
    etag = alice.view(game_id)["ETag"]
    ApiToken.objects.filter(user=alice.user).update(revoked_at=timezone.now())

    assert alice.view(game_id, **{"If-None-Match": etag}).status_code == 401


def test_a_current_client_gets_its_304_without_the_game_being_loaded(
    alice: Player, bob: Player, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = start_game(alice, bob)
    etag = alice.view(game_id)["ETag"]

    def no_loading(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the game was loaded for a 304")

    monkeypatch.setattr(selectors, "get_game_for", no_loading)
    monkeypatch.setattr(selectors, "game_view", no_loading)
    same = alice.view(game_id, **{"If-None-Match": etag})

    assert same.status_code == 304
    assert same["ETag"] == etag
    assert same.content == b""


def test_a_conditional_get_of_a_game_not_yours_is_not_found(
    alice: Player, bob: Player, carol: Player
) -> None:
    game_id = start_game(alice, bob)

    for tag in ("*", alice.view(game_id)["ETag"]):
        response = carol.view(game_id, **{"If-None-Match": tag})
        assert response.status_code == 404
        assert response.json()["error"]["code"] == "not_found"


def test_a_public_lobby_answers_304_to_a_visitor_who_is_current(
    alice: Player, carol: Player
) -> None:
    lobby = new_lobby(alice, visibility="public", max_players=3)["id"]
    etag = carol.view(lobby)["ETag"]  # carol has no seat: she only looks

    assert carol.view(lobby, **{"If-None-Match": etag}).status_code == 304
    assert carol.join(lobby).status_code == 200
    changed = carol.view(lobby, **{"If-None-Match": etag})
    assert changed.status_code == 200
    assert changed["ETag"] != etag
