"""The action loop every scenario runner shares: apply each step, expect its refusal when the
step names an ``error``, and stop at the first step that went otherwise than written."""

from __future__ import annotations

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
