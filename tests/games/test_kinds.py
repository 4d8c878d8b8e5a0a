"""The adapters (games.kinds): one per game kind, each the one place the API's knowledge of its
game is declared, checked against the game's rules when it is made."""

from __future__ import annotations

import pytest

from games.engine import registry as engine_registry
from games.kinds import registry as kinds
from games.kinds.base import Adapter
from tests.toygame import ADAPTER as TOY_ADAPTER
from tests.toygame import TOY

pytestmark = pytest.mark.pure  # no database


def test_every_registered_game_has_its_adapter_and_the_default_comes_first() -> None:
    assert [a.kind for a in kinds.adapters()] == engine_registry.kinds()
    assert kinds.adapters()[0].kind == engine_registry.DEFAULT_KIND


def test_an_adapter_refuses_actions_that_are_not_its_games() -> None:
    with pytest.raises(ValueError, match="not the game's action types"):
        Adapter(game=TOY, actions={"draw": TOY_ADAPTER.actions["draw"]}, table=TOY_ADAPTER.table)
    backwards = dict(reversed(list(TOY_ADAPTER.actions.items())))
    with pytest.raises(ValueError, match="not the game's action types"):
        Adapter(game=TOY, actions=backwards, table=TOY_ADAPTER.table)


def test_a_kind_is_registered_once_and_leaves_no_trace() -> None:
    kinds.register(TOY_ADAPTER)
    try:
        assert kinds.adapter_of(TOY.kind) is TOY_ADAPTER
        assert engine_registry.get_game(TOY.kind) is TOY
        twin = Adapter(game=TOY, actions=TOY_ADAPTER.actions, table=TOY_ADAPTER.table)
        with pytest.raises(ValueError, match="registered already"):
            kinds.register(twin)
    finally:
        kinds.unregister(TOY.kind)
    assert TOY.kind not in engine_registry.kinds()
    assert TOY.kind not in kinds.table_serializers()


def test_the_bots_offered_are_the_adapters_say() -> None:
    assert kinds.bot_kinds() == ["gin_rummy", "uno_all_wild", "uno_no_mercy", "uno_splash"]
    kinds.register(TOY_ADAPTER)
    try:
        assert not kinds.plays_bots(TOY.kind)
        assert TOY.kind not in kinds.bot_kinds()
    finally:
        kinds.unregister(TOY.kind)
    assert not kinds.plays_bots("chess")


def test_a_shared_action_type_is_one_variant_of_the_request_union() -> None:
    union = kinds.request_serializers()
    # The first registered game's shape; the others' fields are a subset of it (Uno's `play`),
    # or the type is their own (Gin Rummy's `discard`).
    assert union["play"] is kinds.adapter_of("uno_all_wild").actions["play"]
    assert union["discard"] is kinds.adapter_of("gin_rummy").actions["discard"]
    for adapter in kinds.adapters():
        for name, shape in adapter.actions.items():
            assert set(shape().fields) <= set(union[name]().fields), (adapter.kind, name)
