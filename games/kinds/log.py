"""The move log's shapes every game builds from: an event's serializer (``event``), the actions
the service applies itself (``SYSTEM_ACTIONS``: the deal, a loaded position, a timeout, a leave,
the next round) and the moderators' ``chance`` event.

A game's adapter declares its events once (``Adapter.events``, type -> serializer); its logged
actions are its request shapes with the seat that sent them, beside the system actions. The
schema's per-kind unions (``<Game>MoveAction``, ``<Game>MoveEvent``, discriminated by ``type``)
are built from them by ``games.kinds.registry``."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

Shapes = dict[str, type[serializers.Serializer]]


def event(
    prefix: str, name: str, doc: str, **fields: serializers.Field
) -> type[serializers.Serializer]:
    """The serializer of the event ``name``: its ``type``, then ``fields``. Its class is named
    ``<prefix><Name>EventSerializer`` (the schema component ``<prefix><Name>Event``), so a game
    whose event shares a type with another's but not its fields gives its own ``prefix``."""
    attrs: dict[str, Any] = {"type": serializers.ChoiceField(choices=[name]), **fields}
    attrs["__doc__"] = doc
    title = name.title().replace("_", "")
    return type(f"{prefix}{title}EventSerializer", (serializers.Serializer,), attrs)


def seat(help_text: str = "The seat it happened to.", **kwargs: Any) -> serializers.IntegerField:
    return serializers.IntegerField(min_value=0, help_text=help_text, **kwargs)


def card(help_text: str = "A card id.", **kwargs: Any) -> serializers.CharField:
    return serializers.CharField(help_text=help_text, **kwargs)


def cards(help_text: str, **kwargs: Any) -> serializers.ListField:
    return serializers.ListField(child=serializers.CharField(), help_text=help_text, **kwargs)


def hands(help_text: str) -> serializers.DictField:
    """Every seat's cards, by seat number (a JSON object's keys are strings: ``"0"``, ``"1"``)."""
    return serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()), help_text=help_text
    )


@extend_schema_field({"anyOf": [{"type": "integer"}, {"type": "string"}]})
class ChanceValueField(serializers.JSONField):
    """A chance outcome: a seat or a number (a dealer), or a colour."""


def _system(name: str, doc: str, with_seat: bool) -> type[serializers.Serializer]:
    attrs: dict[str, Any] = {"__doc__": doc, "type": serializers.ChoiceField(choices=[name])}
    if with_seat:
        attrs["seat"] = seat("The seat it was applied to.")
    return type(
        f"{name.title().replace('_', '')}MoveActionSerializer", (serializers.Serializer,), attrs
    )


# Applied by the service, never sent by a player; the same in every game.
SYSTEM_ACTIONS: Shapes = {
    "start": _system("start", "The deal: the game started (the first move).", False),
    "load": _system("load", "A position loaded by a moderator's scenario (no deal).", False),
    "timeout": _system("timeout", "The seat's turn clock ran out.", True),
    "leave": _system("leave", "The seat left the game for good.", True),
    "next_round": _system("next_round", "The next round dealt.", False),
}

CHANCE = event(
    "",
    "chance",
    "A chance outcome, for replay: moderators and game records only (a seat never sees one).",
    kind=serializers.ChoiceField(choices=["shuffle", "choice"]),
    order=cards("`shuffle`: the cards in their new order.", required=False),
    options=serializers.ListField(
        child=ChanceValueField(), required=False, help_text="`choice`: what it chose from."
    ),
    value=ChanceValueField(required=False, help_text="`choice`: what it chose."),
)

TIMEOUT = event("", "timeout", "The seat's turn clock ran out.", seat=seat())
