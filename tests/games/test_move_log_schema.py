"""The move log is typed per game kind in the schema (issues 31 §1 and 33 §5): every action and
event each game's rules log, as a seat, a spectator and a moderator see it, is a member of that
game's union (``<Game>MoveAction``, ``<Game>MoveEvent``), built from its adapter; a shape of
another game or a wrong field type is not.

The shapes are found by random playouts of each game's rules through its interface (house
rules, timeouts and leaves included), so an event a game starts to log is refused here until
its adapter declares it."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.plumbing import _load_enum_name_overrides
from jsonschema import Draft4Validator

from games.engine.interface import Event
from games.kinds import registry as kinds
from tests.test_openapi import _openapi_to_jsonschema
from tests.toygame.adapter import ADAPTER as TOY_ADAPTER

GAMES_PER_KIND = 6
MAX_STEPS = 1500
# The views a logged event is read with: a seat's, a spectator's (-1), a moderator's (None).
READERS = (0, 1, -1, None)


@pytest.fixture(scope="module")
def schema() -> Iterator[dict[str, Any]]:
    """The schema with the toy game registered beside the four (as test_toy_game's)."""
    kinds.register(TOY_ADAPTER)
    _load_enum_name_overrides.cache_clear()
    try:
        yield SchemaGenerator().get_schema(request=None, public=True)
    finally:
        kinds.unregister(TOY_ADAPTER.kind)
        _load_enum_name_overrides.cache_clear()


def validator(schema: dict[str, Any], component: str) -> Draft4Validator:
    ref = {"$ref": f"#/components/schemas/{component}"}
    return Draft4Validator(_openapi_to_jsonschema(ref, schema))


def errors(check: Draft4Validator, value: Any) -> list[str]:
    return [e.message for e in check.iter_errors(value)]


def _instance(game: Any, listed: Any, rng: random.Random) -> Any:
    """A concrete action of a listed one (an Uno template leaves cards to choose)."""
    data = game.action_to_dict(listed)
    pick = data.pop("choose", None)
    if pick is None:
        return listed
    data["cards"] = rng.sample(pick["from"], pick["count"])
    if pick.get("targets"):
        data["targets"] = [rng.choice(pick["target_from"]) for _ in range(pick["targets"])]
    return game.action_from_dict(data)


def _next_action(game: Any, state: Any, rng: random.Random) -> Any:
    if game.is_round_over(state):
        return game.next_round_action()
    roll = rng.random()
    active = game.active_seats(state)
    on_turn = game.to_move(state)
    if roll < 0.003 and len(active) > 1:
        return game.leave_action(rng.choice(active))
    if roll < 0.03 and on_turn is not None:
        return game.timeout_action(state, on_turn)
    seat = rng.choice(sorted(game.actors(state)) or active)
    listed = game.legal_actions(state, seat)
    return _instance(game, rng.choice(listed), rng) if listed else None


def playout(kind: str, seed: int) -> Iterator[tuple[dict[str, Any], list[Event]]]:
    """Each logged action (the deal's ``start`` first) with its events, of one random game."""
    game = kinds.adapter_of(kind).game
    rng = random.Random(seed)
    rules = list(game.options_schema().get("properties", {}))
    options = game.validate_options({rule: rng.random() < 0.5 for rule in rules})
    players = rng.randint(game.min_players, min(game.max_players, 5))
    state, events = game.new_game(
        players=players, rng=rng, options=options, target_score=rng.choice([0, 200])
    )
    yield {"type": "start"}, events
    for _ in range(MAX_STEPS):
        if game.is_match_over(state):
            return
        action = _next_action(game, state, rng)
        if action is not None:
            state, events = game.apply(state, action, rng)
            yield game.action_to_dict(action), events


# Fields whose values the schema constrains (enums): a shape is its keys, its value types and these.
_ENUMERATED = frozenset(
    {"type", "kind", "reason", "source", "how", "direction", "colour", "card_type"}
)


def signature(value: Any, key: str = "") -> Any:
    """What about ``value`` the schema can tell apart, to validate each shape once."""
    if isinstance(value, dict):
        return tuple(sorted((k, signature(v, k)) for k, v in value.items()))
    if isinstance(value, list):
        return ("list", tuple(sorted({signature(v) for v in value}, key=repr)))
    if key in _ENUMERATED:
        return value
    return type(value).__name__


def _logged_kinds() -> list[str]:
    return [adapter.kind for adapter in kinds.adapters()] + [TOY_ADAPTER.kind]


@pytest.mark.parametrize("kind", _logged_kinds())
def test_every_logged_action_and_event_is_in_its_games_union(
    schema: dict[str, Any], kind: str
) -> None:
    if kind == TOY_ADAPTER.kind:
        kinds.register(TOY_ADAPTER)
    try:
        adapter = kinds.adapter_of(kind)
        actions = validator(schema, f"{adapter.schema_name}MoveAction")
        events = validator(schema, f"{adapter.schema_name}MoveEvent")
        any_action, any_event = validator(schema, "MoveAction"), validator(schema, "MoveEvent")
        seen: set[str] = set()
        checked: set[Any] = set()
        for seed in range(GAMES_PER_KIND):
            for action, logged in playout(kind, seed):
                shown = [adapter.game.visible_event(e, r) for e in logged for r in READERS]
                for value, check, anyof in [
                    (action, actions, any_action),
                    *((e, events, any_event) for e in shown if e is not None),
                ]:
                    if signature(value) not in checked:
                        checked.add(signature(value))
                        assert not errors(check, value), (value, errors(check, value))
                        assert not errors(anyof, value)
                    seen.add(value["type"])
        # The playouts reach the round's end and its revealed hands.
        assert {"round_over", "match_over"} <= seen
    finally:
        kinds.unregister(TOY_ADAPTER.kind)


def test_each_game_has_its_own_union_of_its_own_types(schema: dict[str, Any]) -> None:
    components = schema["components"]["schemas"]
    for adapter in [*kinds.adapters(), TOY_ADAPTER]:
        union = components[f"{adapter.schema_name}MoveEvent"]
        assert union["discriminator"]["propertyName"] == "type"
        assert list(union["discriminator"]["mapping"]) == list(adapter.events)
        logged = components[f"{adapter.schema_name}MoveAction"]["discriminator"]["mapping"]
        assert set(adapter.game.action_types) | {"start", "timeout", "leave"} <= set(logged)
    move = components["Move"]["properties"]
    assert move["action"] == {"$ref": "#/components/schemas/MoveAction"}
    assert move["events"]["items"] == {"$ref": "#/components/schemas/MoveEvent"}
    assert len(components["MoveEvent"]["anyOf"]) == len(kinds.adapters()) + 1


def test_a_shape_of_another_game_or_a_wrong_type_is_refused(schema: dict[str, Any]) -> None:
    gin = validator(schema, "GinRummyMoveEvent")
    all_wild = validator(schema, "UnoAllWildMoveEvent")
    fizzled = {"type": "fizzled", "seat": 1, "card_type": "force_swap"}
    assert not errors(all_wild, fizzled)
    assert errors(gin, fizzled)  # All Wild's, not Gin Rummy's
    assert errors(all_wild, {**fizzled, "card_type": "red-7-a"})  # not an All Wild card type
    assert errors(all_wild, {**fizzled, "seat": "one"})
    assert errors(all_wild, {"type": "fizzled", "seat": 1})  # its card type is missing
    draw = {"type": "draw", "seat": 0, "source": "stock", "card": "Kc"}
    assert not errors(gin, draw)
    assert errors(gin, {**draw, "source": "hand"})
    assert errors(validator(schema, "MoveEvent"), {"type": "fly", "seat": 0})


def test_the_round_end_reveals_hands_typed_per_game(schema: dict[str, Any]) -> None:
    components = schema["components"]["schemas"]
    uno = components["UnoAllWildMoveEvent"]["discriminator"]["mapping"]["round_over"]
    gin = components["GinRummyMoveEvent"]["discriminator"]["mapping"]["round_over"]
    assert uno != gin
    uno_over = validator(schema, "UnoAllWildMoveEvent")
    revealed = {
        "type": "round_over",
        "round": 1,
        "winner": 0,
        "points": 40,
        "hands": {"0": [], "1": ["wild-3", "draw4-1"]},
        "scores": [40, 0],
    }
    assert not errors(uno_over, revealed)
    assert errors(uno_over, {**revealed, "hands": {"1": "wild-3"}})
    # Gin Rummy's round end lays out both hands, and says how it ended.
    assert errors(validator(schema, "GinRummyMoveEvent"), revealed)
