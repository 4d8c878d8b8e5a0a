"""The one scenario runner (docs/scenarios.md) and its action loop: read the file, set up its
position, apply each step (expecting its refusal when the step names an ``error``, stopping at the
first step that went otherwise than written) and check its ``expect`` block. What differs between
families of games, how a position is written, how a step becomes an action and what ``expect``
may name, are a family's ``ScenarioParts`` (``scenario.UNO``: the Uno family's, card by card;
``game_scenario.GENERIC``: any game through its interface, from a seeded deal)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Protocol

from .errors import EngineError
from .interface import RNG, Event, Game
from .moves import apply_move

# The top-level keys of every scenario file; each runner adds the keys that set up its positions.
COMMON_KEYS = frozenset(
    {
        "game",
        "name",
        "rule",
        "source",
        "notes",
        "seed",
        "preset",
        "options",
        "target_score",
        "actions",
        "expect",
    }
)


def _apply_action(
    game: Game[Any, Any], state: Any, action: Any, rng: RNG
) -> tuple[Any, list[Event]]:
    return game.apply(state, action, rng)


class Outcome(Protocol):
    state: Any
    events: list[Event]
    failures: list[str]
    unexpected_error: EngineError | None


def play_steps(
    game: Game[Any, Any],
    state: Any,
    steps: list[Any],
    rng: RNG,
    outcome: Outcome,
    to_action: Callable[[dict[str, Any], Any], Any],
    invalid: type[Exception],
    *,
    deal_next_round: bool = False,
) -> Any:
    """Play ``steps`` from ``state`` into ``outcome`` (its state, events and failures); return the
    state after the last step applied. ``to_action(step, state)`` makes a step an action;
    ``deal_next_round`` deals the next round when one ends, as the service does."""
    for number, step in enumerate(steps, 1):
        if not isinstance(step, dict):
            raise invalid(f"action {number} is not an object")
        wanted = step.get("error")
        try:
            play = apply_move if deal_next_round else _apply_action
            state, new_events = play(game, state, to_action(step, state), rng)
        except EngineError as exc:
            if wanted == exc.code:
                outcome.events.append({"type": "refused", "action": number, "code": exc.code})
                continue
            if wanted is None:
                outcome.unexpected_error = exc
                outcome.failures.append(f"action {number} was refused: {exc.code}: {exc.message}")
            else:
                outcome.failures.append(f"action {number}: expected error {wanted}, got {exc.code}")
            break
        outcome.state = state
        outcome.events.extend(new_events)
        if wanted is not None:
            outcome.failures.append(f"action {number}: expected error {wanted}, but it applied")
            break
    return state


class ScenarioParts(Protocol):
    """A family's part of the runner."""

    keys: frozenset[str]  # its top-level keys beside COMMON_KEYS
    invalid: type[Exception]  # raised for a malformed file
    deal_next_round: bool  # a round that ends is followed by the next deal (as in the service)

    def start(self, data: dict[str, Any]) -> tuple[Game[Any, Any], Outcome, list[str]]:
        """The file's game, its outcome so far (the starting state and any deal's events) and
        its seat names; ``data`` has been checked to be an object of known keys."""
        ...

    def rng(self, data: dict[str, Any]) -> RNG: ...

    def to_action(
        self, game: Game[Any, Any], step: dict[str, Any], state: Any, names: list[str]
    ) -> Any: ...

    def check(
        self, expect: Any, game: Game[Any, Any], outcome: Outcome, names: list[str]
    ) -> list[str]:
        """Every difference between ``expect`` and ``outcome``, in words (called unless a step
        went otherwise than written)."""
        ...


REQUIRED_KEYS = ("rule", "expect", "actions")


def run(parts: ScenarioParts, data: Any) -> Outcome:
    """Play a scenario file with a family's parts; its outcome, failures included."""
    if not isinstance(data, dict):
        raise parts.invalid("a scenario is a JSON object")
    unknown = set(data) - COMMON_KEYS - parts.keys
    if unknown:
        raise parts.invalid(f"unknown keys in the scenario: {', '.join(sorted(unknown))}")
    for key in REQUIRED_KEYS:
        if key not in data:
            raise parts.invalid(f"a scenario needs {key!r}")
    game, outcome, names = parts.start(data)
    outcome.state = play_steps(
        game,
        outcome.state,
        data["actions"],
        parts.rng(data),
        outcome,
        lambda step, now: parts.to_action(game, step, now, names),
        parts.invalid,
        deal_next_round=parts.deal_next_round,
    )
    if not outcome.failures:
        outcome.failures.extend(parts.check(data["expect"], game, outcome, names))
    return outcome


def seeded(data: dict[str, Any], offset: int = 0) -> RNG:
    """The RNG of a file's ``seed`` (0 when it has none)."""
    return random.Random(data.get("seed", 0) + offset)
