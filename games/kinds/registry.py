"""The game kinds the service plays, each by its adapter: the one list a game is added to.

Registering an adapter registers its rules with the engine's registry too, so a game is added
by one line (``BUILT_IN`` below; a test calls ``register``). Everything else that differs by
game reads this registry: request validation (``check_action``), the schema's unions of tables
and actions and their examples, the bots offered, the games listed by ``games/options/`` (the
web client's list).
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample
from rest_framework import serializers

from config import enum_names
from config import error_codes as codes
from config.errors import ServiceError
from games.engine import registry as engine_registry
from games.kinds import allwild, gin, nomercy, splash
from games.kinds.base import Adapter
from games.kinds.shared import RegistryUnion

BUILT_IN = (allwild.ADAPTER, splash.ADAPTER, nomercy.ADAPTER, gin.ADAPTER)

_ADAPTERS: dict[str, Adapter] = {}
# One bound serializer per variant of the request union, made when first needed.
_request_validators: dict[str, serializers.Serializer] = {}
# Each kind's unions of its move log's shapes, by (kind, part), made when first needed.
_log_unions: dict[tuple[str, str], RegistryUnion] = {}


def register(adapter: Adapter) -> Adapter:
    """Add a game kind: its adapter here, its rules in the engine's registry."""
    if _ADAPTERS.get(adapter.kind, adapter) is not adapter:
        raise ValueError(f"a game of kind {adapter.kind!r} is registered already")
    engine_registry.register(adapter.game)
    enum_names.name_enums(adapter.enum_names)
    _ADAPTERS[adapter.kind] = adapter
    _request_validators.clear()
    _log_unions.clear()
    _name_type_enums()
    return adapter


def unregister(kind: str) -> None:
    """Remove a kind added by ``register`` (the default game stays)."""
    if kind == engine_registry.DEFAULT_KIND or kind not in _ADAPTERS:
        return
    removed = _ADAPTERS.pop(kind)
    engine_registry.unregister(kind)
    kept = {name: c for adapter in _ADAPTERS.values() for name, c in adapter.enum_names.items()}
    enum_names.unname_enums(removed.enum_names, kept)
    _request_validators.clear()
    _log_unions.clear()
    _name_type_enums()


# The names ``_name_type_enums`` gave, to take back when the registry changes.
_type_enum_names: dict[str, list[str]] = {}


def _name_type_enums() -> None:
    """Name the enum of each ``type`` value (an action's, a template's, an event's) after the
    first registered shape that has it (``PlayActionTypeEnum``, ``RoundOverEventTypeEnum``):
    the shapes of several games share one enum per value, and without a name drf-spectacular
    gives them hashed ones. A value an adapter names itself keeps that name."""
    explicit = {
        tuple(choices)
        for adapter in _ADAPTERS.values()
        for choices in adapter.enum_names.values()
        if not isinstance(choices, str)
    }
    kept = {n: c for a in _ADAPTERS.values() for n, c in a.enum_names.items()}
    enum_names.unname_enums(_type_enum_names, kept)
    _type_enum_names.clear()
    # A one-value set another app named (a notification's ``kind``) keeps its name too.
    others = {tuple(c) for c in enum_names.ENUM_NAMES.values() if isinstance(c, list)}
    seen = explicit | others
    for adapter in _ADAPTERS.values():  # in registration order, as ``request_serializers``
        shapes = [*adapter.logged.items(), *adapter.listed.items(), *adapter.events.items()]
        for value, shape in shapes:
            if (value,) not in seen:
                seen.add((value,))
                name = shape.__name__.removesuffix("Serializer")
                _type_enum_names[f"{name}TypeEnum"] = [value]
    enum_names.name_enums(_type_enum_names)


def adapter_of(kind: str) -> Adapter:
    """The adapter of a registered kind (``KeyError`` for another: a game row's kind is one)."""
    return _ADAPTERS[kind]


def adapters() -> list[Adapter]:
    """Every registered adapter, the default game first (``engine.registry.kinds()``'s order)."""
    return [_ADAPTERS[kind] for kind in engine_registry.kinds() if kind in _ADAPTERS]


def plays_bots(kind: str) -> bool:
    """Whether bots play games of ``kind``."""
    adapter = _ADAPTERS.get(kind)
    return adapter is not None and adapter.bots


def bot_kinds() -> list[str]:
    """The kinds bots play, sorted."""
    return sorted(a.kind for a in _ADAPTERS.values() if a.bots)


def request_serializers() -> dict[str, type[serializers.Serializer]]:
    """The action request of every game: one variant per ``type``, the first registered game's
    where games share a type (its help text says which game each field is for)."""
    out: dict[str, type[serializers.Serializer]] = {}
    for adapter in _ADAPTERS.values():
        for name, shape in adapter.actions.items():
            out.setdefault(name, shape)
    return out


def table_serializers() -> dict[str, type[serializers.Serializer]]:
    """Each game's table serializer, by kind."""
    return {adapter.kind: adapter.table for adapter in _ADAPTERS.values()}


def _shape_of(name: str) -> serializers.Serializer | None:
    if not _request_validators:
        _request_validators.update({n: s() for n, s in request_serializers().items()})
    return _request_validators.get(name)


def check_action(kind: str, body: dict[str, Any]) -> dict[str, Any]:
    """The action ``body`` of a request to a game of ``kind``, checked by the game's request
    serializer (without ``expected_version``): the one check of its shape. ``ServiceError``:
    ``invalid_request`` when a field has the wrong JSON type (for a type of any game: a body is
    first a well-formed member of the request union), ``invalid_action`` when the game has no
    such action."""
    adapter = _ADAPTERS[kind]
    name = body.get("type")
    validator = adapter.validators.get(name) if isinstance(name, str) else None
    if validator is None:
        shape = _shape_of(name) if isinstance(name, str) else None
        if shape is not None:
            shape.run_validation(body)
        raise ServiceError(
            codes.INVALID_ACTION, f"type must be one of {', '.join(adapter.actions)}."
        )
    data = dict(validator.run_validation(body))
    data.pop("expected_version", None)
    return data


def action_examples() -> list[OpenApiExample]:
    """Every game's action examples, game by game, for the action endpoint's schema."""
    return [example for adapter in _ADAPTERS.values() for example in adapter.examples]


# The move log's parts: the schema component of each kind's union (after its ``schema_name``),
# and the adapter's shapes it is made of.
_LOG_PARTS = {"MoveAction": lambda a: a.logged, "MoveEvent": lambda a: a.events}


def log_unions(part: str) -> list[RegistryUnion]:
    """Each registered kind's union of its move log's ``part`` (``MoveAction`` or ``MoveEvent``):
    the component ``<Game><part>``, its shapes discriminated by ``type``."""
    out = []
    for adapter in adapters():
        key = (adapter.kind, part)
        if key not in _log_unions:
            _log_unions[key] = RegistryUnion(
                component_name=f"{adapter.schema_name}{part}",
                serializers=lambda a=adapter: _LOG_PARTS[part](a),
                resource_type_field_name="type",
            )
        out.append(_log_unions[key])
    return out


for _adapter in BUILT_IN:
    register(_adapter)
