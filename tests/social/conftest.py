"""Shared setup for the social tests: the games tests' personas (user, bearer-token client) with
the throttles lifted, blocks made the way moderation stores them, and the social routes."""

from __future__ import annotations

from typing import Any

import pytest

from moderation.models import Block
from tests.games.conftest import Player

SOCIAL_TESTS = [pytest.mark.django_db, pytest.mark.usefixtures("lift_throttles")]


def block(blocker: Player, blocked: Player) -> None:
    Block.objects.create(blocker=blocker.user, blocked=blocked.user)


def follow(player: Player, other: Player) -> Any:
    return player.post("/api/v1/me/following/", {"username": other.user.username})


def befriend(a: Player, b: Player) -> None:
    assert follow(a, b).status_code == 200
    assert follow(b, a).status_code == 200


def friends(player: Player) -> list[dict[str, Any]]:
    response = player.get("/api/v1/me/friends/")
    assert response.status_code == 200, response.content
    return response.json()


def search(player: Player, q: str) -> list[str]:
    response = player.get("/api/v1/players/search/", {"q": q})
    assert response.status_code == 200, response.content
    return [row["player"]["username"] for row in response.json()]
