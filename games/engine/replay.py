"""Replay a stored game from its log with no RNG: chance outcomes come from the chance events.

Game-neutral: the game comes from the registry."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence
from typing import Any

from .interface import Event
from .registry import get_game


class ReplayError(Exception):
    """The log does not fit the game: a chance outcome is missing or impossible."""


class ReplayRNG:
    """Stands in for an RNG and hands back the outcomes a game logged, in order."""

    def __init__(self, events: Iterable[Event]) -> None:
        self._outcomes = deque(e for e in events if e["type"] == "chance")

    def _next(self, kind: str) -> Event:
        if not self._outcomes:
            raise ReplayError(f"the log has no more chance outcomes (wanted a {kind})")
        outcome = self._outcomes.popleft()
        if outcome["kind"] != kind:
            raise ReplayError(f"the log has a {outcome['kind']} where a {kind} happened")
        return outcome

    def shuffle(self, x: list[Any]) -> None:
        order = self._next("shuffle")["order"]
        if sorted(order) != sorted(x):
            raise ReplayError("a logged shuffle holds other cards than the pile it shuffled")
        x[:] = order

    def choice(self, seq: Sequence[Any]) -> Any:
        value = self._next("choice")["value"]
        if value not in seq:
            raise ReplayError(f"logged choice {value!r} is not among {list(seq)!r}")
        return value

    @property
    def remaining(self) -> int:
        return len(self._outcomes)


def replay(
    setup: dict[str, Any],
    steps: Iterable[tuple[Any, list[Event]]],
    setup_events: list[Event],
    kind: str | None = None,
) -> Any:
    """Rebuild a game's state from its setup (``new_game``'s keyword arguments), the events of its
    creation, and each action applied with the events it produced. ``kind`` names the game in the
    registry (the default game for None)."""
    game = get_game(kind)
    state, _ = game.new_game(rng=ReplayRNG(setup_events), **setup)
    for action, events in steps:
        rng = ReplayRNG(events)
        state, _ = game.apply(state, action, rng)
        if rng.remaining:
            raise ReplayError("an action logged more chance outcomes than it used")
    return state
