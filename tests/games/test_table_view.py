"""The API passes ``engine.view``'s dict through as the game's ``table`` (TableSerializer's
``to_representation``): that is exact only while the dict already is what the serializer's
fields would make of it, to the byte. Checked here over random games with every house rule."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from rest_framework import serializers

from games.api.serializers import GameSerializer
from games.engine.uno.actions import Action
from games.engine.uno.allwild.game import ALL_WILD as engine
from games.engine.uno.state import State
from games.kinds.allwild import TableSerializer
from tests.engine.test_properties import Config, configs

pytestmark = pytest.mark.pure  # no database: CI runs it once

FIELD_BY_FIELD = TableSerializer()


def field_by_field(view: dict[str, Any]) -> Any:
    """What DRF's Serializer makes of the view through TableSerializer's declared fields."""
    return serializers.Serializer.to_representation(FIELD_BY_FIELD, view)


def check_every_seat(state: State) -> None:
    for seat in range(len(state.seats)):
        view = engine.view(state, seat)
        assert json.dumps(field_by_field(view)) == json.dumps(view)


@settings(max_examples=40)
@given(config=configs(max_players=6))
def test_the_engines_view_is_the_table_serializers_output_byte_for_byte(config: Config) -> None:
    steps = 0

    def check(before: State, action: Action, after: State, events: list[Any]) -> None:
        nonlocal steps
        steps += 1
        if steps % 7 == 0 or after.phase != before.phase:  # a sample, and every phase change
            check_every_seat(after)

    playout = config.play(check)
    check_every_seat(playout.initial)
    assert steps > 0


def test_the_game_serializer_passes_the_table_through() -> None:
    state, _ = engine.new_game(players=3, rng=random.Random(3))
    view = engine.view(state, 1)
    game_field = GameSerializer().fields["table"]
    assert game_field.to_representation(view) is view
