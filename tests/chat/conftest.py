"""Shared setup for the chat tests: the games tests' personas with the throttles lifted, a
started game of alice and bob, and the chat's routes."""

from __future__ import annotations

from typing import Any

import pytest

from tests.games.conftest import Player, start_game

CHAT_TESTS = [pytest.mark.django_db, pytest.mark.usefixtures("lift_throttles", "lift_chat_rate")]


@pytest.fixture
def lift_chat_rate(settings: Any) -> None:
    """Tests write more messages a minute than THROTTLE_CHAT allows (its own test sets it)."""
    rates = {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "chat": None, "reports": None}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}


def chat_url(game_id: Any) -> str:
    return f"/api/v1/games/{game_id}/chat/"


def say(player: Player, game_id: Any, text: str, **body: Any) -> Any:
    return player.post(chat_url(game_id), {"text": text, **body})


def said(player: Player, game_id: Any, text: str, **body: Any) -> dict[str, Any]:
    response = say(player, game_id, text, **body)
    assert response.status_code == 201, response.content
    return response.json()


def read(player: Player, game_id: Any, **params: Any) -> dict[str, Any]:
    response = player.get(chat_url(game_id), params or None)
    assert response.status_code == 200, response.content
    return response.json()


def texts(player: Player, game_id: Any, **params: Any) -> list[str]:
    return [m["text"] for m in read(player, game_id, **params)["messages"] if not m["deletes"]]


@pytest.fixture
def game(alice: Player, bob: Player) -> str:  # noqa: F811  (the fixtures above)
    return start_game(alice, bob)
