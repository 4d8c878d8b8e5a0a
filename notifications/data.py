"""What each kind of notification holds in its ``data`` (the facts its texts are made from), for
the schema: a notification is a union of one shape per kind, discriminated by ``kind``
(``by_kind``), drawn by an ``OpenApiSerializerExtension`` of the serializer that renders it, so
that what is sent does not change. Only public facts: names and numbers, never a card.

``version`` came later than the rest (the account event stream): older rows lack it. Every kind
this project ships has a shape (a test holds it to that); a kind another app registers without
one here has a free-form ``data``."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from drf_spectacular.extensions import OpenApiSerializerExtension
from drf_spectacular.serializers import PolymorphicProxySerializerExtension
from drf_spectacular.utils import PolymorphicProxySerializer
from rest_framework import serializers

from config import enum_names
from notifications import kinds


def _names(help_text: str) -> serializers.ListField:
    return serializers.ListField(child=serializers.CharField(), help_text=help_text)


def _by() -> serializers.CharField:
    return serializers.CharField(allow_null=True, help_text="Who did it (their display name).")


def _version() -> serializers.IntegerField:
    return serializers.IntegerField(
        required=False, help_text="The game's version then (`expected_version` to act on)."
    )


def _shape(kind: str, doc: str, **fields: serializers.Field) -> type[serializers.Serializer]:
    name = kind.title().replace("_", "") + "DataSerializer"
    return type(name, (serializers.Serializer,), {"__doc__": doc, **fields})


OPPONENTS = "The other players' display names."

DATA: dict[str, type[serializers.Serializer]] = {
    kinds.YOUR_TURN: _shape(
        kinds.YOUR_TURN,
        "Your turn: against whom, until when, and the version to act on.",
        opponents=_names(OPPONENTS),
        deadline=serializers.CharField(allow_null=True, help_text="ISO 8601; null: no clock."),
        version=_version(),
    ),
    kinds.REMINDER: _shape(
        kinds.REMINDER,
        "Your turn's time is running out.",
        opponents=_names(OPPONENTS),
        deadline=serializers.CharField(help_text="ISO 8601."),
        fraction=serializers.FloatField(help_text="The fraction of the turn's time left."),
        seconds_left=serializers.IntegerField(),
    ),
    kinds.CAUGHT: _shape(
        kinds.CAUGHT,
        "Caught without UNO.",
        by=_by(),
        cards=serializers.IntegerField(help_text="Cards you drew for it."),
    ),
    kinds.TARGETED: _shape(kinds.TARGETED, "A Targeted Draw 2 played on you.", by=_by()),
    kinds.SWAPPED: _shape(kinds.SWAPPED, "Your hand swapped (Force Swap).", by=_by()),
    kinds.TIMED_OUT: _shape(kinds.TIMED_OUT, "Your turn timed out.", opponents=_names(OPPONENTS)),
    kinds.ROUND_OVER: _shape(
        kinds.ROUND_OVER,
        "A round is over.",
        round=serializers.IntegerField(),
        winner=serializers.CharField(allow_null=True, help_text="The winner's display name."),
        you_won=serializers.BooleanField(),
        points=serializers.IntegerField(help_text="Points the winner scored."),
        score=serializers.IntegerField(allow_null=True, help_text="Your score now."),
    ),
    kinds.MATCH_OVER: _shape(
        kinds.MATCH_OVER,
        "The game is over.",
        winner=serializers.CharField(allow_null=True, help_text="The winner's display name."),
        you_won=serializers.BooleanField(),
        place=serializers.IntegerField(allow_null=True, help_text="Your place (1 = won)."),
        opponents=_names(OPPONENTS),
    ),
    kinds.INVITED: _shape(kinds.INVITED, "Invited to a game.", by=serializers.CharField()),
    kinds.CHALLENGED: _shape(
        kinds.CHALLENGED,
        "Challenged to a game: accept or decline the challenge.",
        by=serializers.CharField(),
        challenge=serializers.IntegerField(help_text="The challenge's id."),
    ),
    kinds.PAIRED: _shape(
        kinds.PAIRED, "Quick pairing found you a game: it has started.", opponents=_names(OPPONENTS)
    ),
    kinds.FOLLOWED: _shape(
        kinds.FOLLOWED,
        "A player follows you.",
        by=serializers.CharField(),
        username=serializers.CharField(help_text="Theirs, to follow them back."),
    ),
    kinds.CHAT_MENTION: _shape(
        kinds.CHAT_MENTION,
        "A player named you (@username) in a game's chat.",
        by=serializers.CharField(),
        message=serializers.IntegerField(help_text="The chat message's id."),
    ),
    kinds.MODERATION: _shape(
        kinds.MODERATION, "A notice from the moderators.", message=serializers.CharField()
    ),
    kinds.GAME_STARTED: _shape(
        kinds.GAME_STARTED,
        "A game you are seated in started.",
        opponents=_names(OPPONENTS),
        version=_version(),
    ),
    kinds.SEAT_TAKEN_OVER: _shape(
        kinds.SEAT_TAKEN_OVER,
        "A bot took over your seat.",
        reason=serializers.CharField(allow_null=True),
        version=_version(),
    ),
}


def _name_kind_enums(listed: Iterable[str]) -> None:
    """Name the enum of each variant's one ``kind`` (``YourTurnKindEnum``), unless a game's
    event of that name (``round_over``) named it already: one name per choice set."""
    named = [
        list(choices) for choices in enum_names.ENUM_NAMES.values() if isinstance(choices, list)
    ]
    enum_names.name_enums(
        {
            f"{kind.title().replace('_', '')}KindEnum": [kind]
            for kind in listed
            if [kind] not in named
        }
    )


def variants(
    base: type[serializers.Serializer], suffix: str, of: Iterable[str]
) -> dict[str, type[serializers.Serializer]]:
    """``base`` once per kind in ``of``: its ``kind`` that one, its ``data`` the kind's shape.
    The classes are named ``<Kind><suffix>Serializer`` (the components ``<Kind><suffix>``)."""
    out = {}
    for kind in of:
        shape = DATA.get(kind)
        data = shape(help_text=base._declared_fields["data"].help_text) if shape else None
        attrs: dict[str, Any] = {
            "__doc__": shape.__doc__ if shape else kinds.DESCRIPTIONS.get(kind, ""),
            "kind": serializers.ChoiceField(choices=[kind]),
        }
        if data is not None:
            attrs["data"] = data
        name = f"{kind.title().replace('_', '')}{suffix}Serializer"
        out[kind] = type(name, (base,), attrs)
    return out


def by_kind(
    base: type[serializers.Serializer], component: str, of: Callable[[], Iterable[str]]
) -> type[OpenApiSerializerExtension]:
    """The schema extension drawing ``base`` as the ``oneOf`` of its ``variants`` (one per kind
    ``of()`` lists when the schema is built), discriminated by ``kind``; ``base`` still renders
    every notification, so what is sent is unchanged."""
    made: dict[tuple[str, ...], dict[str, type[serializers.Serializer]]] = {}

    def shapes() -> dict[str, type[serializers.Serializer]]:
        listed = tuple(of())
        if listed not in made:
            _name_kind_enums(listed)
            made[listed] = variants(base, component, listed)
        return made[listed]

    _name_kind_enums(of())  # now: drf-spectacular reads the enum names once per process

    class ByKind(OpenApiSerializerExtension):
        target_class = base

        def get_name(self, auto_schema: Any = None, direction: Any = None) -> str:
            return component

        def map_serializer(self, auto_schema: Any, direction: Any) -> Any:
            union = PolymorphicProxySerializer(
                component_name=component, serializers=shapes(), resource_type_field_name="kind"
            )
            return PolymorphicProxySerializerExtension(union).map_serializer(auto_schema, direction)

    ByKind.__name__ = f"{component}ByKind"
    return ByKind
