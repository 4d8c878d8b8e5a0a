"""A notification's ``data`` is typed per kind in the schema (issue 33 §5): the inbox's
``Notification`` and a webhook's ``WebhookEventItem`` are unions of one shape per kind,
discriminated by ``kind`` (notifications/data.py). Real notifications, of a game played to its
end and of the social kinds, are members; one kind's data under another kind is not."""

from __future__ import annotations

import random
from typing import Any

import pytest
from drf_spectacular.generators import SchemaGenerator

from games.models import Game
from notifications import kinds, services
from tests.games.conftest import Player, play_to_end
from tests.games.test_move_log_schema import errors, validator

pytestmark = pytest.mark.django_db

INBOX = "/api/v1/notifications/"


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    return SchemaGenerator().get_schema(request=None, public=True)


def inbox(player: Player) -> list[dict[str, Any]]:
    response = player.get(INBOX, {"limit": 100})
    assert response.status_code == 200, response.content
    found: list[dict[str, Any]] = response.json()["results"]
    return found


@pytest.mark.usefixtures("lift_throttles")
def test_real_notifications_of_every_kind_are_members_of_the_union(
    schema: dict[str, Any], alice: Player, bob: Player, carol: Player
) -> None:
    created = alice.create(max_players=2, target_score=0, visibility="public")
    game_id = created.json()["id"]
    assert bob.join(game_id).status_code == 200
    play_to_end([alice, bob], game_id, random.Random(3))
    game = Game.objects.get(pk=game_id)
    services.notify_invited(user=carol.user, game=game, by=alice.user)
    services.notify_challenged(user=alice.user, by=carol.user, challenge_id=7)
    services.notify_followed(user=bob.user, by=carol.user)
    services.notify_moderation(user=bob.user, message="Be kind.")

    union = validator(schema, "Notification")
    seen = set()
    for player in (alice, bob, carol):
        for notification in inbox(player):
            assert not errors(union, notification), (notification, errors(union, notification))
            seen.add(notification["kind"])
    # (A "your turn" leaves the inbox once the turn is played: none is left at the end.)
    assert {"match_over", "invited", "challenged", "followed", "moderation"} <= seen


def test_each_kind_has_its_own_data(schema: dict[str, Any]) -> None:
    components = schema["components"]["schemas"]
    for union in ("Notification", "WebhookEventItem"):
        mapping = components[union]["discriminator"]["mapping"]
        assert components[union]["discriminator"]["propertyName"] == "kind"
        assert list(mapping) == list(kinds.KINDS)
    challenged = components["ChallengedNotification"]["properties"]["data"]["allOf"][0]
    assert challenged == {"$ref": "#/components/schemas/ChallengedData"}
    assert set(components["ChallengedData"]["required"]) == {"by", "challenge"}


def test_one_kinds_data_under_another_kind_is_refused(schema: dict[str, Any]) -> None:
    union = validator(schema, "Notification")
    challenged = {
        "id": 1,
        "event_id": "6f1c3a52-9d0e-4a43-8a55-3c5f2a1b9e10",
        "kind": "challenged",
        "game": None,
        "title": "Challenge",
        "body": "Carol challenged you.",
        "url": "/",
        "data": {"by": "Carol", "challenge": 7},
        "created_at": "2026-03-10T12:00:00Z",
        "read_at": None,
    }
    assert not errors(union, challenged)
    assert errors(union, {**challenged, "data": {"by": "Carol"}})  # the challenge's id is missing
    assert errors(union, {**challenged, "kind": "your_turn"})  # a your_turn has its opponents
    assert errors(union, {**challenged, "data": {"by": "Carol", "challenge": "seven"}})
