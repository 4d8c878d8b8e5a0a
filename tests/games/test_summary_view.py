"""GameSummarySerializer (and GameSerializer) copy ``selectors``' dicts and format only their
datetimes: exact only while every other value already is what its field would make of it, in
the fields' order. Checked byte for byte against DRF's field-by-field rendering, for games in
every status, with bots, a player who left, final scores, an invite code and a rematch."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from rest_framework import serializers

from games import selectors, services
from games.api.serializers import GameSerializer, GameSummarySerializer
from games.models import Game
from tests.games.conftest import API_TESTS, Player, new_lobby, play_to_end, start_game

pytestmark = API_TESTS

FULL = GameSerializer()
SUMMARY = GameSummarySerializer()


def field_by_field(serializer: serializers.Serializer, data: dict[str, Any]) -> Any:
    return serializers.Serializer.to_representation(serializer, data)


def assert_same_bytes(game_id: Any, *players: Player) -> None:
    game = Game.objects.get(pk=game_id)
    for player in players:
        view = selectors.game_view(game, player.user)
        assert json.dumps(FULL.to_representation(view)) == json.dumps(field_by_field(FULL, view))
        summary = selectors.game_summary(game, list(game.seats.all()), player.user)
        expected = json.dumps(field_by_field(SUMMARY, summary))
        assert json.dumps(SUMMARY.to_representation(summary)) == expected
        # And what the API answers is that rendering.
        assert player.view(game_id).json() == json.loads(expected) | {"table": view["table"]}


def test_a_lobby_with_its_invite_code(alice: Player, bob: Player) -> None:
    lobby = new_lobby(alice, max_players=3, options={"stacking": True})
    bob.join_by_code(lobby["invite_code"])
    assert_same_bytes(lobby["id"], alice, bob)


def test_a_game_with_a_bot_and_a_player_who_left_through_to_its_rematch(
    alice: Player, bob: Player, carol: Player
) -> None:
    game_id = start_game(alice, bob, carol, max_players=4, target_score=0)
    assert_same_bytes(game_id, alice, bob, carol)
    services.leave_game(user=carol.user, game_id=game_id)
    assert_same_bytes(game_id, alice, bob, carol)
    play_to_end([alice, bob], game_id, random.Random(5))
    game = Game.objects.get(pk=game_id)
    assert game.status == Game.FINISHED and game.finished_at is not None
    assert_same_bytes(game_id, alice, bob, carol)
    rematch = services.rematch(user=alice.user, game_id=game_id)
    assert rematch.rematch_of_id is not None
    assert_same_bytes(rematch.pk, alice)


def test_a_game_against_bots(alice: Player) -> None:
    game = services.play_vs_computer(user=alice.user, bots_count=2)
    assert_same_bytes(game.pk, alice)
    assert Game.objects.get(pk=game.pk).turn_deadline is not None


@pytest.mark.parametrize("value", [None, "2026-11-30T03:04:05Z"])
def test_a_datetime_already_formatted_or_none_is_left_alone(value: Any) -> None:
    # DRF's DateTimeField passes a string through; the copy must not format it twice.
    raw = {name: None for name in SUMMARY.fields} | {"players": [], "created_at": value}
    assert SUMMARY.to_representation(raw)["created_at"] == value
