"""What every game's adapter builds its wire formats from: the action request's base (the
``expected_version`` every action takes), the builders of request and template shapes, a
table's ``legal_actions`` union, and the table serializer's base."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from drf_spectacular.serializers import PolymorphicProxySerializerExtension
from drf_spectacular.utils import OpenApiExample, PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from config.fields import StrictIntegerField
from config.serializers import StrictFieldsMixin


class ExpectedVersionSerializer(serializers.Serializer):
    expected_version = StrictIntegerField(
        required=False,
        min_value=0,
        help_text="The game version you acted on; 409 version_conflict when it has moved on.",
    )


class ActionBase(StrictFieldsMixin, ExpectedVersionSerializer):
    """An action request: its fields, ``expected_version``, and the seat a listed action names."""

    # Listed legal actions name the seat; in a request it is the caller's, whatever is sent.
    seat = StrictIntegerField(
        required=False, help_text="Your seat (in `legal_actions`; ignored in a request)."
    )


def game_action(
    prefix: str, name: str, doc: str, **fields: serializers.Field
) -> type[serializers.Serializer]:
    """The request serializer of the action ``name``: its ``type``, then ``fields``. Its class
    is named ``<prefix><Name>ActionSerializer``, which names its schema component, so a game
    whose action shares a type with another's but not its fields gives its own ``prefix``."""
    attrs: dict[str, Any] = {"type": serializers.ChoiceField(choices=[name]), **fields}
    attrs["__doc__"] = doc
    return type(f"{prefix}{name.title().replace('_', '')}ActionSerializer", (ActionBase,), attrs)


def action(name: str, doc: str, **fields: serializers.Field) -> type[serializers.Serializer]:
    """An action request without a game's prefix: All Wild's, and those every game shares."""
    return game_action("", name, doc, **fields)


# One draw request for every game that draws one card: Uno's takes no field, Gin Rummy's names
# its ``source`` (each game's own rules refuse the other's shape).
# (Built by hand, not by ``action``: its ``type`` is declared before ``source``, and DRF orders
# fields by declaration, the schema's property order with them.)
DrawActionSerializer = type(
    "DrawActionSerializer",
    (ActionBase,),
    {
        "__doc__": "Uno: draw one card instead of playing (no `source`). Gin Rummy: draw the top "
        "card of `source`.",
        "type": serializers.ChoiceField(choices=["draw"]),
        "source": serializers.ChoiceField(
            choices=["stock", "discard"],
            required=False,
            help_text="Gin Rummy only, and required there: stock or discard.",
        ),
    },
)


def template(name: str, doc: str, **fields: serializers.Field) -> type[serializers.Serializer]:
    """How ``legal_actions`` lists an action that leaves choices to make (not a request)."""
    attrs: dict[str, Any] = {
        "__doc__": doc,
        "type": serializers.ChoiceField(choices=[name]),
        "seat": serializers.IntegerField(help_text="Your seat."),
        **fields,
    }
    return type(
        f"{name.title().replace('_', '')}TemplateSerializer", (serializers.Serializer,), attrs
    )


def legal_actions_field(
    component_name: str, variants: Callable[[], dict[str, type[serializers.Serializer]]], doc: str
) -> type[serializers.JSONField]:
    """A table's ``legal_actions``: what the seat may do now, a list whose items are a union of
    ``variants()`` (the game's action shapes, looked up when the schema is built) discriminated
    by ``type``, rendered as the engine listed them."""
    field = type(f"{component_name}sField", (serializers.JSONField,), {"__doc__": doc})
    return extend_schema_field(
        PolymorphicProxySerializer(
            component_name=component_name,
            serializers=variants,
            resource_type_field_name="type",
            many=True,
        )
    )(field)


class RegistryUnion(PolymorphicProxySerializer):
    """A union whose variants are read from the registry each time a schema is built:
    drf-spectacular keeps the first answer of a ``serializers`` callable, and a game registered
    after that (a test's) must still be in the next schema."""

    @property
    def serializers(self) -> Any:
        return self._variants()

    @serializers.setter
    def serializers(self, value: Any) -> None:
        self._variants = value if callable(value) else (lambda: value)


class RegistryUnionExtension(PolymorphicProxySerializerExtension):
    """Draws a ``RegistryUnion`` as drf-spectacular draws its base class (whose extension
    matches that class only)."""

    target_class = RegistryUnion


class KindsUnion(RegistryUnion):
    """A value of one of the game kinds' unions (``serializers``: a callable of them, one per
    kind, each discriminated by ``type``): ``anyOf``, as the value itself does not say its
    game (the game's ``kind`` does). A ``oneOf`` would refuse a value two games share, such as
    ``{"type": "pass", "seat": 1}``."""


class KindsUnionExtension(PolymorphicProxySerializerExtension):
    """Draws a ``KindsUnion`` as the ``anyOf`` of its kinds' unions."""

    target_class = KindsUnion
    priority = 1  # before ``RegistryUnionExtension``, which matches its base class

    def map_serializer(self, auto_schema: Any, direction: Any) -> dict[str, Any]:
        schema = super().map_serializer(auto_schema, direction)
        return {"anyOf": schema["oneOf"]}


class GameTableSerializer(serializers.Serializer):
    """A game's view for the caller's seat: its fields document the view for the schema."""

    def to_representation(self, instance: dict[str, Any]) -> dict[str, Any]:
        """The game's view as it is: it already is what the fields would make of it, key order
        included (tests/games/test_table_view.py checks this over random games with every
        house rule), so copying it field by field would only cost time."""
        return instance


def example(summary: str, **body: Any) -> OpenApiExample:
    """An example request body of the action endpoint: ``body`` as sent, in its order."""
    return OpenApiExample(summary, value=body, request_only=True)
