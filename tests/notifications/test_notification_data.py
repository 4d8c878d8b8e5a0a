"""A notification's ``data`` is typed per kind in the schema (issue 33 §5): the inbox's
``Notification``, a webhook's ``WebhookEventItem`` and the account event stream's
``AccountEvent`` are unions of one shape per kind, discriminated by ``kind``
(notifications/data.py), and no kind this project ships has a free-form ``data``. Real
notifications and events, of games played to their end or taken over by a bot and of the social
kinds, are members; one kind's data under another kind is not."""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from drf_spectacular.generators import SchemaGenerator

from games.models import Game
from notifications import data, kinds, services
from notifications.reminders import send_reminders
from tests.bots.test_bot_seats import _absent_player, _time_out
from tests.chat.conftest import lift_chat_rate, said  # noqa: F401  (fixture)
from tests.games.conftest import Player, play_to_end, start_game
from tests.games.test_move_log_schema import errors, validator

pytestmark = pytest.mark.django_db

INBOX = "/api/v1/notifications/"
STREAM = "/api/v1/games/live/stream/"
# Each union and the kinds it is drawn over: the stream carries its stream-only kinds too.
UNIONS = {
    "Notification": kinds.KINDS,
    "WebhookEventItem": kinds.KINDS,
    "AccountEvent": kinds.all_kinds(),
}


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    return SchemaGenerator().get_schema(request=None, public=True)


def inbox(player: Player) -> list[dict[str, Any]]:
    response = player.get(INBOX, {"limit": 100})
    assert response.status_code == 200, response.content
    found: list[dict[str, Any]] = response.json()["results"]
    return found


def notify_the_social_kinds(game: Game, alice: Player, bob: Player, carol: Player) -> None:
    """One notice of each kind that no move causes (a pairing, an invitation, a challenge, a
    follower, the moderators' word), through the services that write them."""
    services.notify_paired(game=game, players=[alice.user, bob.user])
    services.notify_invited(user=carol.user, game=game, by=alice.user)
    services.notify_challenged(user=alice.user, by=carol.user, challenge_id=7)
    services.notify_followed(user=bob.user, by=carol.user)
    services.notify_moderation(user=bob.user, message="Be kind.")


def members(
    schema: dict[str, Any],
    component: str,
    read: Callable[[Player], list[dict[str, Any]]],
    players: tuple[Player, ...],
) -> set[str]:
    """The kinds of all that ``read`` gives ``players``, each checked a member of the union."""
    union = validator(schema, component)
    seen = set()
    for player in players:
        for item in read(player):
            assert not errors(union, item), (item, errors(union, item))
            seen.add(item["kind"])
    return seen


@pytest.mark.usefixtures("lift_throttles")
def test_real_notifications_of_every_kind_are_members_of_the_union(
    schema: dict[str, Any], alice: Player, bob: Player, carol: Player
) -> None:
    created = alice.create(max_players=2, target_score=0, visibility="public")
    game_id = created.json()["id"]
    assert bob.join(game_id).status_code == 200
    play_to_end([alice, bob], game_id, random.Random(3))
    notify_the_social_kinds(Game.objects.get(pk=game_id), alice, bob, carol)

    seen = members(schema, "Notification", inbox, (alice, bob, carol))
    # (A "your turn" leaves the inbox once the turn is played: none is left at the end.)
    assert {"match_over", "invited", "challenged", "paired", "followed", "moderation"} <= seen


def events(player: Player) -> list[dict[str, Any]]:
    """Every event of ``player``'s account stream kept, page after page (its JSON form)."""
    found: list[dict[str, Any]] = []
    after, more = 0, True
    while more:
        response = player.get(STREAM, {"after": after, "format": "json"})
        assert response.status_code == 200, response.content
        page = response.json()
        found += page["events"]
        after, more = page["next_after"], page["has_more"]
    return found


@pytest.mark.usefixtures("lift_throttles", "lift_chat_rate")
def test_real_events_of_every_kind_are_members_of_the_account_event_union(
    schema: dict[str, Any], alice: Player, bob: Player, carol: Player
) -> None:
    played = start_game(alice, bob, target_score=0)
    play_to_end([alice, bob], played, random.Random(5))
    # Another game: its turn runs out (a reminder, then timeouts) until a bot takes a seat over.
    taken = Game.objects.get(pk=start_game(alice, bob, target_score=0))
    absent, seat = _absent_player([alice, bob], taken.pk)
    assert taken.turn_deadline is not None
    assert send_reminders(now=taken.turn_deadline - timedelta(seconds=1)) == 1
    for _ in range(3):
        _time_out(taken, seat.position)
    other = bob if absent is alice else alice
    said(absent, taken.pk, f"sorry @{other.user.username}, I was away")
    notify_the_social_kinds(taken, alice, bob, carol)

    seen = members(schema, "AccountEvent", events, (alice, bob, carol))
    assert {
        "game_started",
        "your_turn",
        "reminder",
        "timed_out",
        "seat_taken_over",
        "match_over",
        "chat_mention",
        "paired",
        "invited",
        "challenged",
        "followed",
        "moderation",
    } <= seen


def test_every_kind_we_ship_has_typed_data_in_every_union(schema: dict[str, Any]) -> None:
    """No free-form ``data``: each variant's ``data`` is its kind's own component, an object
    with named properties (a kind registered without a shape would have neither)."""
    components = schema["components"]["schemas"]
    assert set(kinds.all_kinds()) <= set(data.DATA), "a kind without a shape in data.DATA"
    for union, listed in UNIONS.items():
        mapping = components[union]["discriminator"]["mapping"]
        for kind in listed:
            variant = components[mapping[kind].rsplit("/", 1)[-1]]
            (ref,) = variant["properties"]["data"]["allOf"]
            name = ref["$ref"].rsplit("/", 1)[-1]
            assert name == kind.title().replace("_", "") + "Data", (union, kind, name)
            shape = components[name]
            assert shape["type"] == "object" and shape["properties"], (union, kind, shape)
            assert "additionalProperties" not in shape, (union, kind, shape)


def test_each_kind_has_its_own_data(schema: dict[str, Any]) -> None:
    components = schema["components"]["schemas"]
    for union, listed in UNIONS.items():
        assert "oneOf" in components[union] and "properties" not in components[union]
        mapping = components[union]["discriminator"]["mapping"]
        assert components[union]["discriminator"]["propertyName"] == "kind"
        assert list(mapping) == list(listed)
    events_of_page = components["AccountEventPage"]["properties"]["events"]["items"]
    assert events_of_page == {"$ref": "#/components/schemas/AccountEvent"}
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
