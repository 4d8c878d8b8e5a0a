"""Actions: what a seat (or the system) asks the engine to do."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations, product
from typing import Any, Final, NamedTuple

from ..errors import INVALID_ACTION, EngineError, action_type

PLAY: Final = "play"
DRAW: Final = "draw"
PLAY_DRAWN: Final = "play_drawn"
PASS: Final = "pass"
UNO: Final = "uno"
CATCH: Final = "catch"
CHOOSE_TARGET: Final = "choose_target"
# Games with colours: the colour an opening Wild waits for, and the answer to a Wild Draw Four.
CHOOSE_COLOUR: Final = "choose_colour"
ACCEPT: Final = "accept"
CHALLENGE: Final = "challenge"
# House rules
TAKE_STACK: Final = "take_stack"  # stacking: take the pending total instead of stacking
PLAY_PAIR: Final = "play_pair"  # double down: two identical cards at once
PLAY_TOP: Final = "play_top"  # blind play: the top card of the face-down hand
MERCY: Final = "mercy"  # mercy: discard five cards of a hand of 15 or more
# System actions: applied by the service (timer sweep, leaving, dealing), never listed for players.
TIMEOUT: Final = "timeout"
LEAVE: Final = "leave"
NEXT_ROUND: Final = "next_round"

PLAYER_ACTIONS = (
    PLAY,
    DRAW,
    PLAY_DRAWN,
    PASS,
    UNO,
    CATCH,
    CHOOSE_TARGET,
    TAKE_STACK,
    PLAY_PAIR,
    PLAY_TOP,
    MERCY,
)
SYSTEM_ACTIONS = (TIMEOUT, LEAVE, NEXT_ROUND)
ACTION_TYPES = PLAYER_ACTIONS + SYSTEM_ACTIONS
# The fields an action may carry in JSON; a game with colours adds ``colour``.
FIELDS = frozenset({"type", "seat", "card", "target", "uno", "cards", "targets"})
COLOURS = ("red", "yellow", "green", "blue")


class Pick(NamedTuple):
    """The parameters a listed action template leaves to the player: ``size`` cards out of
    ``cards`` and ``targets`` seats (0 or one per card), each out of ``target_from``.

    Listing every combination would be large (five of 15 cards: 3,003), so legal_actions lists
    one template instead; ``instances`` enumerates it and ``covers`` tests a concrete action.
    """

    size: int  # how many cards to choose (``count`` would shadow tuple.count)
    cards: tuple[str, ...]
    targets: int = 0
    target_from: tuple[int, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"count": self.size, "from": list(self.cards)}
        if self.targets:
            data["targets"] = self.targets
            data["target_from"] = list(self.target_from)
        return data


class Action(NamedTuple):
    """One action. ``uno`` may ride on any play: it says UNO with the card.

    ``cards`` and ``targets`` leave room for parameterised actions (a pair played at once, five
    cards discarded) without changing the shape. A NamedTuple rather than a frozen dataclass:
    legal_actions builds many of these per turn, and tuples are built about three times faster.
    """

    type: str
    seat: int | None = None
    card: str | None = None
    target: int | None = None
    uno: bool = False
    cards: tuple[str, ...] | None = None
    targets: tuple[int, ...] | None = None
    # Set only on a template listed by legal_actions (never applied as it is): see Pick.
    choose: Pick | None = None
    # The colour named with a wild (games with colours), or by ``choose_colour``.
    colour: str | None = None

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": self.type}
        if self.seat is not None:
            data["seat"] = self.seat
        if self.card is not None:
            data["card"] = self.card
        if self.target is not None:
            data["target"] = self.target
        if self.uno:
            data["uno"] = True
        if self.cards is not None:
            data["cards"] = list(self.cards)
        if self.targets is not None:
            data["targets"] = list(self.targets)
        if self.choose is not None:
            data["choose"] = self.choose.to_dict()
        if self.colour is not None:
            data["colour"] = self.colour
        return data

    @classmethod
    def from_dict(
        cls,
        data: Any,
        types: tuple[str, ...] = ACTION_TYPES,
        fields: frozenset[str] = FIELDS,
    ) -> Action:
        """Build an action of one of ``types`` with ``fields`` from JSON, refusing anything
        malformed with ``invalid_action``."""
        kind = action_type(data, types, fields)
        seat = _opt_int(data, "seat")
        target = _opt_int(data, "target")
        card = data.get("card")
        if card is not None and not isinstance(card, str):
            raise EngineError(INVALID_ACTION, "card must be a card id string")
        uno = data.get("uno", False)
        if not isinstance(uno, bool):
            raise EngineError(INVALID_ACTION, "uno must be true or false")
        cards = data.get("cards")
        if cards is not None:
            if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
                raise EngineError(INVALID_ACTION, "cards must be a list of card ids")
            cards = tuple(cards)
        targets = data.get("targets")
        if targets is not None:
            if not isinstance(targets, list) or not all(_is_int(t) for t in targets):
                raise EngineError(INVALID_ACTION, "targets must be a list of seat numbers")
            targets = tuple(targets)
        colour = data.get("colour")
        if colour is not None and colour not in COLOURS:
            raise EngineError(INVALID_ACTION, f"colour is one of {', '.join(COLOURS)}")
        return cls(kind, seat, card, target, uno, cards, targets, colour=colour)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _opt_int(data: dict[str, Any], key: str) -> int | None:
    value = data.get(key)
    if value is not None and not _is_int(value):
        raise EngineError(INVALID_ACTION, f"{key} must be a seat number")
    return value


def instances(template: Action) -> Iterator[Action]:
    """Every concrete action a listed template stands for (a concrete action: itself)."""
    pick = template.choose
    if pick is None:
        yield template
        return
    for cards in combinations(pick.cards, pick.size):
        if not pick.targets:
            yield Action(template.type, template.seat, cards=cards)
            continue
        for targets in product(pick.target_from, repeat=pick.targets):
            yield Action(template.type, template.seat, cards=cards, targets=targets)


def covers(template: Action, action: Action) -> bool:
    """Whether ``action`` (concrete, maybe with ``uno``) is one of ``template``'s instances."""
    pick = template.choose
    if pick is None:
        return template == action._replace(uno=False)
    cards = action.cards
    targets = action.targets or ()
    return (
        action.type == template.type
        and action.seat == template.seat
        and action.card is None
        and action.target is None
        and action.choose is None
        and action.colour is None
        and cards is not None
        and len(cards) == pick.size
        and len(set(cards)) == pick.size
        and all(c in pick.cards for c in cards)
        and len(targets) == pick.targets
        and (action.targets is None) == (pick.targets == 0)
        and all(t in pick.target_from for t in targets)
    )


__all__ = [
    "ACCEPT",
    "ACTION_TYPES",
    "CATCH",
    "CHALLENGE",
    "CHOOSE_COLOUR",
    "CHOOSE_TARGET",
    "COLOURS",
    "DRAW",
    "FIELDS",
    "LEAVE",
    "MERCY",
    "NEXT_ROUND",
    "PASS",
    "PLAY",
    "PLAYER_ACTIONS",
    "PLAY_DRAWN",
    "PLAY_PAIR",
    "PLAY_TOP",
    "SYSTEM_ACTIONS",
    "TAKE_STACK",
    "TIMEOUT",
    "UNO",
    "Action",
    "Pick",
    "covers",
    "instances",
]
