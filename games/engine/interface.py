"""The one interface every game implements, in the spirit of OpenSpiel's ``Game``/``State``.

Everything outside ``games.engine`` (services, API, timers, bots, scenarios, replay, moderation,
the web client) reaches a game only through an object of this shape, found by its kind in
``games.engine.registry``. A game's state is its own plain-data class; outside the engine it is
opaque except through these methods and its JSON form (``state_to_dict`` / ``state_from_dict``).

Randomness: a game draws every chance outcome through the ``RNG`` it is given (``shuffle`` and
``choice`` only) and logs each outcome as a moderator-only event ``{"type": "chance", ...}``, so
``games.engine.replay`` rebuilds any game from its log without an RNG.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Generic, Protocol, TypeVar

Event = dict[str, Any]

S = TypeVar("S")
A = TypeVar("A")


class RNG(Protocol):
    """What a game may ask of randomness: ``random.Random`` and ``secrets.SystemRandom`` fit;
    ``ReplayRNG`` hands back a log's outcomes instead."""

    def shuffle(self, x: list[Any]) -> None: ...

    def choice(self, seq: Any) -> Any: ...


class Game(Protocol[S, A]):
    """A game's rules behind one interface. Methods never change the state they are given."""

    # The registry key, stored on every game row: "uno_all_wild", "uno_splash", ...
    kind: str
    # The name a player reads.
    name: str
    min_players: int
    max_players: int
    # Rule presets (a game with one rule set has one), the default first.
    presets: Sequence[str]
    default_preset: str
    default_target: int
    # The action types a player may send (system actions excluded), for the API to validate.
    action_types: Sequence[str]
    # Action types after which the next turn starts, even when the same seat moves again (a
    # 2-player Skip): the service gives that turn a fresh clock.
    turn_ending_actions: frozenset[str]

    def options_schema(self) -> dict[str, Any]:
        """JSON Schema (an ``object`` of booleans today) of the house rules this game accepts,
        with a ``description`` per rule; rules the game refuses are absent from ``properties``
        and, when players may look for them (a rulebook names them), listed under
        ``x-not-offered`` (name -> why, for players)."""
        ...

    def validate_options(self, options: Any) -> dict[str, Any]:
        """The options with every default filled in; ``EngineError(invalid_setup)`` if any is
        unknown or malformed."""
        ...

    def new_game(
        self,
        *,
        players: int,
        rng: RNG,
        preset: str | None = None,
        options: dict[str, Any] | None = None,
        target_score: int | None = None,
    ) -> tuple[S, list[Event]]:
        """A new match with its first round dealt."""
        ...

    def legal_actions(self, state: S, seat: int) -> list[A]:
        """What ``seat`` may do now (possibly templates, see ``covers``). Changes nothing."""
        ...

    def covers(self, listed: A, action: A) -> bool:
        """Whether the concrete ``action`` is one that the listed ``listed`` stands for."""
        ...

    def apply(self, state: S, action: A, rng: RNG) -> tuple[S, list[Event]]:
        """The state after ``action`` and the events it made; ``EngineError`` if it is illegal
        (the given state is unchanged either way)."""
        ...

    def view(self, state: S, seat: int) -> dict[str, Any]:
        """What ``seat`` may see, JSON-ready, including its ``legal_actions``."""
        ...

    def moderator_view(self, state: S) -> dict[str, Any]:
        """Everything, hidden cards and pile order included: for moderators only."""
        ...

    def spectator_view(self, state: S) -> dict[str, Any]:
        """What someone without a seat may see, JSON-ready: the public position only (no hand,
        no pile order, no legal actions). Spectators read it (games/spectators.py)."""
        ...

    def hands(self, state: S) -> list[list[str]]:
        """Each seat's cards, top first: for moderators only (the replay page)."""
        ...

    def card_name(self, card: str) -> str:
        """A card's name as a player reads it (``draw4-3`` -> "Draw 4", ``red-7-b`` -> "Red 7"),
        for screens drawn by the server (the moderators' replay)."""
        ...

    def piles(self, state: S) -> dict[str, list[str]]:
        """The named piles on the table, top first (``draw`` is the one dealt from): for
        moderators only."""
        ...

    def visible_event(self, event: Event, seat: int | None) -> Event | None:
        """The event as ``seat`` may see it (``None`` seat: a moderator, sees everything);
        ``None`` when the seat may not see it at all."""
        ...

    # Whose turn, and the end of rounds and matches.
    def to_move(self, state: S) -> int | None:
        """The seat whose turn it is (its clock runs); ``None`` between rounds or at the end."""
        ...

    def actors(self, state: S) -> frozenset[int]:
        """Every seat that may act now (more than one while, e.g., a catch window is open)."""
        ...

    def is_round_over(self, state: S) -> bool: ...

    def is_match_over(self, state: S) -> bool: ...

    def scores(self, state: S) -> list[int]:
        """Each seat's match score so far."""
        ...

    def match_winner(self, state: S) -> int | None: ...

    def places(self, state: S) -> list[int]:
        """Each seat's final place once ``is_match_over``, by the game's own match scores: 1 is
        first, tied seats share a place and the next place skips (1, 2, 2, 4); a match of one
        round ranks by that round. Seats that left rank below every seat still in the match and
        share one place (the service, which knows who left when, orders them)."""
        ...

    def active_seats(self, state: S) -> list[int]:
        """Seats still playing (not left, not knocked out)."""
        ...

    # System actions: applied by the service, never listed for players.
    def timeout_action(self, state: S, seat: int) -> A:
        """What the service applies when ``seat``'s turn clock runs out."""
        ...

    def leave_action(self, seat: int) -> A:
        """What the service applies when ``seat`` leaves the game for good."""
        ...

    def next_round_action(self) -> A:
        """Deals the next round once ``is_round_over``."""
        ...

    # JSON forms.
    def action_from_dict(self, data: Any) -> A:
        """An action from JSON; ``EngineError(invalid_action)`` if malformed."""
        ...

    def action_to_dict(self, action: A) -> dict[str, Any]: ...

    def state_from_dict(self, data: dict[str, Any]) -> S: ...

    def state_to_dict(self, state: S) -> dict[str, Any]: ...

    # Bots: hidden information, for search that must not peek.
    def sample_hidden(self, state: S, seat: int, rng: RNG) -> S:
        """A state that ``seat`` cannot tell from ``state``: its own hand and everything public
        kept, every card it cannot see dealt again at random (consistent with what it saw)."""
        ...


def places_by(keys: Sequence[Any]) -> list[int]:
    """Competition places from one sort key per seat (smaller is better): equal keys share a
    place, the next place skips (keys 0, 1, 1, 2 -> places 1, 2, 2, 4)."""
    return [1 + sum(other < key for other in keys) for key in keys]


def no_options_schema(name: str) -> dict[str, Any]:
    """``options_schema()`` of a game without house rules (``name``: the game's name)."""
    return {
        "type": "object",
        "additionalProperties": False,
        "description": f"{name} has no house rules.",
        "properties": {},
    }


class _HasJSON(Protocol):
    def to_dict(self) -> dict[str, Any]: ...


PS = TypeVar("PS", bound=_HasJSON)
PA = TypeVar("PA", bound=_HasJSON)


class SystemActions(Generic[PS, PA]):
    """The interface's system actions and JSON forms, for a game whose action is built as
    ``action(type, seat)`` and whose state and actions give their JSON by ``to_dict()`` (Gin
    Rummy and the Uno family, whose system actions are typed alike: ``timeout``, ``leave``,
    ``next_round``). The game sets ``action``, its action class, before any of these is asked."""

    action: Callable[..., PA]

    def timeout_action(self, state: PS, seat: int) -> PA:
        return self.action("timeout", seat)

    def leave_action(self, seat: int) -> PA:
        return self.action("leave", seat)

    def next_round_action(self) -> PA:
        return self.action("next_round")

    def action_to_dict(self, action: PA) -> dict[str, Any]:
        return action.to_dict()

    def state_to_dict(self, state: PS) -> dict[str, Any]:
        return state.to_dict()
