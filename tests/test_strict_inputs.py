"""Request bodies are strict about JSON types (config/fields.py): a value of the wrong type is
refused with 400 ``invalid_request`` and says which field and why, never read as something else.

``"uno": "yes"`` was read as true, ``"expected_version": "105"`` as 105 and ``"card": 5`` as the
card ``"5"``; a client with such a bug got answers instead of errors. Forms (the browsable API)
carry only strings and keep working.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from config.fields import (
    StrictBooleanField,
    StrictCharField,
    StrictFloatField,
    StrictIntegerField,
)
from games.models import Game, Move
from moderation.models import Block
from tests.games.conftest import API, API_TESTS, Player, start_game
from tests.test_bad_input import assert_refused

pytestmark = API_TESTS


def field_errors(response: Any) -> dict[str, Any]:
    error = assert_refused(response, 400, "invalid_request")
    fields: dict[str, Any] = error["details"]["fields"]
    return fields


@pytest.fixture
def game(alice: Player, bob: Player) -> str:
    return start_game(alice, bob)


def state(game_id: str) -> tuple[int, int]:
    return Game.objects.get(pk=game_id).version, Move.objects.filter(game_id=game_id).count()


# ---------------------------------------------------------------------------------------------
# The fields themselves


@pytest.mark.parametrize("value", ["yes", "true", 1, 0, None, [], {}])
def test_a_strict_boolean_takes_only_true_or_false(value: Any) -> None:
    field = StrictBooleanField(allow_null=False)
    with pytest.raises(Exception, match="true or false|may not be null"):
        field.run_validation(value)
    assert field.run_validation(True) is True
    assert field.run_validation(False) is False


@pytest.mark.parametrize("value", ["105", "5", True, False, 2.5, [5], "5.0"])
def test_a_strict_integer_takes_only_json_numbers(value: Any) -> None:
    with pytest.raises(Exception, match="integer"):
        StrictIntegerField().run_validation(value)


def test_a_strict_integer_refuses_a_number_with_a_fraction_part() -> None:
    assert StrictIntegerField().run_validation(105) == 105
    with pytest.raises(Exception, match="integer"):
        StrictIntegerField().run_validation(105.0)


@pytest.mark.parametrize("value", [5, 5.5, True])
def test_a_strict_string_refuses_other_types(value: Any) -> None:
    with pytest.raises(Exception, match="Must be a string"):
        StrictCharField().run_validation(value)


@pytest.mark.parametrize("value", ["5", "0.5", True, None, [1]])
def test_a_strict_float_takes_only_json_numbers(value: Any) -> None:
    with pytest.raises(Exception, match="number|may not be null"):
        StrictFloatField().run_validation(value)
    assert StrictFloatField().run_validation(2) == 2.0
    assert StrictFloatField().run_validation(0.5) == 0.5


# ---------------------------------------------------------------------------------------------
# The cases, through the API


def test_uno_as_the_string_yes_is_refused(alice: Player, bob: Player, game: str) -> None:
    before = state(game)
    for player in (alice, bob):
        response = player.act(game, {"type": "play", "card": "wild-1", "uno": "yes"})
        assert field_errors(response)["uno"] == ["Must be a boolean: true or false."]
    assert state(game) == before


@pytest.mark.parametrize("written", [float, str], ids=["with a fraction part", "as a string"])
def test_expected_version_not_written_as_an_integer_is_refused(
    alice: Player, bob: Player, game: str, written: Callable[[int], Any]
) -> None:
    version, moves = state(game)
    for player in (alice, bob):
        response = player.act(game, {"type": "draw", "expected_version": written(version)})
        assert field_errors(response)["expected_version"] == [
            "Must be an integer (a JSON number without a fraction, not a string)."
        ]
    assert state(game) == (version, moves)


def test_a_card_given_as_a_number_says_the_type_is_wrong(
    alice: Player, bob: Player, game: str
) -> None:
    before = state(game)
    response = alice.act(game, {"type": "play", "card": 5})
    assert field_errors(response)["card"] == ["Must be a string."]
    assert state(game) == before


def test_my_turn_that_is_not_a_boolean_is_400_like_an_unknown_status(alice: Player) -> None:
    assert_refused(alice.get(API, {"status": "bogus"}), 400, "invalid_request")
    error = assert_refused(alice.get(API, {"my_turn": "maybe"}), 400, "invalid_request")
    assert "my_turn" in error["message"]
    for value in ("true", "false"):
        assert alice.get(API, {"my_turn": value}).status_code == 200


@pytest.mark.parametrize("value", ["1", "0", "True", "yes", "maybe", ""])
def test_a_query_boolean_is_true_or_false_only(alice: Player, value: str) -> None:
    """A client guessing at a spelling learns it at once instead of getting another filter."""
    error = assert_refused(alice.get(API, {"my_turn": value}), 400, "invalid_request")
    assert error["details"]["fields"] == {"my_turn": ["Must be true or false."]}
    error = assert_refused(
        alice.get("/api/v1/notifications/", {"unread": value}), 400, "invalid_request"
    )
    assert error["details"]["fields"] == {"unread": ["Must be true or false."]}


# ---------------------------------------------------------------------------------------------
# Every request serializer of the game API, and the other apps' numbers and switches


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"max_players": "3"}, "max_players"),
        ({"target_score": "0"}, "target_score"),
        ({"turn_seconds": True}, "turn_seconds"),
        ({"options": {"stacking": "yes"}}, "options"),
        ({"options": {"mercy": 1}}, "options"),
    ],
)
def test_creating_a_game_refuses_wrong_types(
    alice: Player, body: dict[str, Any], field: str
) -> None:
    assert field in field_errors(alice.create(**body))
    assert not Game.objects.exists()


def test_a_game_against_bots_refuses_a_count_given_as_a_string(alice: Player) -> None:
    assert "bots" in field_errors(alice.post(f"{API}vs-computer/", {"bots": "2"}))


def test_an_invite_code_given_as_a_number_is_refused(bob: Player) -> None:
    assert field_errors(bob.join_by_code(12345))["invite_code"] == ["Must be a string."]


@pytest.mark.parametrize(
    "body",
    [
        {"type": "catch", "target": "1"},
        {"type": "play_pair", "cards": ["wild-1", 2]},
        {"type": "play_pair", "cards": ["draw2-1", "draw2-2"], "targets": ["0", 1]},
        {"type": "play_top", "uno": 1},
    ],
)
def test_actions_refuse_wrong_types_in_every_field(
    alice: Player, game: str, body: dict[str, Any]
) -> None:
    before = state(game)
    field_errors(alice.act(game, body))
    assert state(game) == before


def test_json_numbers_and_booleans_are_still_taken(alice: Player, bob: Player) -> None:
    response = alice.create(max_players=2, target_score=0, options={"stacking": True})
    assert response.status_code == 201, response.content
    assert response.json()["max_players"] == 2


def test_a_form_body_still_works(alice: Player) -> None:
    """A form's values are all strings."""
    response = alice.client.post(API, {"max_players": "3", "visibility": "public"})
    assert response.status_code == 201, response.content
    assert response.json()["max_players"] == 3


def test_other_apps_refuse_numbers_and_switches_given_as_strings(
    alice: Player, bob: Player
) -> None:
    assert "player_id" in field_errors(
        alice.post("/api/v1/blocks/", {"player_id": str(bob.user.pk)})
    )
    assert not Block.objects.exists()
    assert "up_to" in field_errors(alice.post("/api/v1/notifications/read-all/", {"up_to": "5"}))
    preferences = alice.client.put(
        "/api/v1/notifications/preferences/",
        {"channels": {"email": {"your_turn": "yes"}}},
        format="json",
    )
    assert "channels" in field_errors(preferences)


def test_vacation_days_given_as_a_string_are_refused(alice: Player) -> None:
    assert "days" in field_errors(alice.post("/api/v1/me/vacation/", {"days": "5"}))
    assert alice.post("/api/v1/me/vacation/", {"days": 0.5}).status_code == 200


def test_a_token_lifetime_given_as_a_string_is_refused(db: None) -> None:
    from players.models import User

    User.objects.create_user(username="carol", password="Tr0ub4dor&3-horse")
    response = APIClient().post(
        "/api/v1/auth/tokens/",
        {
            "username": "carol",
            "password": "Tr0ub4dor&3-horse",
            "name": "phone",
            "expires_in_days": "30",
        },
        format="json",
    )
    assert "expires_in_days" in field_errors(response)
