"""A game's adapter: everything the service and its API say about one game kind beyond its
rules, declared once (``games.kinds.registry`` lists them)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from drf_spectacular.drainage import get_override
from drf_spectacular.utils import OpenApiExample
from rest_framework import serializers

from games.engine.interface import Game
from games.kinds.log import SYSTEM_ACTIONS

Shapes = Mapping[str, type[serializers.Serializer]]


@dataclass(frozen=True, eq=False)
class Adapter:
    """One game kind as the API serves it.

    - ``game``: its rules (``games.engine.interface.Game``);
    - ``actions``: the request serializer of each action type a player may send, in the order
      of ``game.action_types`` (checked here): requests are validated by these, once;
    - ``table``: the serializer of its view for a seat (a member of the schema's ``Table``
      union, named by its own ``extend_schema_serializer``);
    - ``listed_as``: how ``legal_actions`` lists an action where that is not the game's own
      request shape (a template that leaves choices to make, or the Uno family's shape);
    - ``examples``: its action requests, for the action endpoint's schema;
    - ``bots``: whether ``games.bots`` plays it (bot seats, games against the computer, a bot
      taking over a seat that times out);
    - ``enum_names``: the schema's names of the enums its fields bring (drf-spectacular's
      ``ENUM_NAME_OVERRIDES``: name -> the choices);
    - ``events``: the serializer of each event type its rules log (``games.kinds.log``), as a
      seat, a moderator or a game record sees it: the move log's ``events`` in the schema;
    - ``out_for_good(state, seat)``: whether the seat is out of a one-round game that goes on
      without it (No Mercy's knockout), its place decided: such a player may ask for the
      rematch before the game ends. None: no seat ever is.
    """

    game: Game[Any, Any]
    actions: Shapes
    table: type[serializers.Serializer]
    listed_as: Shapes = field(default_factory=dict)
    examples: Sequence[OpenApiExample] = ()
    bots: bool = False
    enum_names: Mapping[str, Sequence[str]] = field(default_factory=dict)
    events: Shapes = field(default_factory=dict)
    out_for_good: Callable[[Any, int], bool] | None = None

    def __post_init__(self) -> None:
        if tuple(self.actions) != tuple(self.game.action_types):
            raise ValueError(
                f"{self.game.kind}: the adapter's actions {tuple(self.actions)} are not the "
                f"game's action types {tuple(self.game.action_types)}"
            )
        if set(self.listed_as) - set(self.actions):
            raise ValueError(f"{self.game.kind}: a listed shape of an action it does not take")

    @property
    def kind(self) -> str:
        return self.game.kind

    @cached_property
    def listed(self) -> dict[str, type[serializers.Serializer]]:
        """The shapes ``legal_actions`` lists, by type (the members of its schema union)."""
        return {name: self.listed_as.get(name, shape) for name, shape in self.actions.items()}

    @cached_property
    def logged(self) -> dict[str, type[serializers.Serializer]]:
        """The shapes of the actions its move log holds, by type: each action a player sends
        (its request shape: the log adds the seat), then those the service applies."""
        return {
            **self.actions,
            **{n: s for n, s in SYSTEM_ACTIONS.items() if n not in self.actions},
        }

    @cached_property
    def schema_name(self) -> str:
        """The prefix of its schema components: its table's name without ``Table``
        (``UnoAllWild``, ``GinRummy``), which names its move log's unions too."""
        name = get_override(self.table, "component_name") or self.table.__name__
        return str(name).removesuffix("Serializer").removesuffix("Table")

    @cached_property
    def validators(self) -> dict[str, serializers.Serializer]:
        """One bound request serializer per action type: ``run_validation`` only reads its
        fields, and making a serializer per request would deep-copy them every time."""
        return {name: shape() for name, shape in self.actions.items()}
