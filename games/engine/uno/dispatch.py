"""Applying an action, the same way in every Uno game: one handler per action type. Each checks
the action against the state it is given (checks only read) and returns a changed copy: the turn
actions copy once the action is accepted, sharing what they do not change; the others work on a
full copy (``on_copy``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from .. import errors as E
from ..errors import EngineError
from ..interface import RNG, Event
from .actions import Action
from .state import MATCH_OVER, ROUND_OVER, State

Handler = Callable[[State, Action, RNG, list[Event]], State]
Applied = tuple[State, list[Event]]


def on_copy(change: Callable[[State, Action, RNG, list[Event]], None]) -> Handler:
    """A handler that applies ``change`` to a full copy of the state."""

    def handler(state: State, a: Action, rng: RNG, ev: list[Event]) -> State:
        s = state.copy()
        change(s, a, rng, ev)
        return s

    return handler


def require_round_over(s: State) -> None:
    """The next round may be dealt: the last one is over, the match is not."""
    if s.phase == MATCH_OVER:
        raise EngineError(E.GAME_OVER, "the match is over")
    if s.phase != ROUND_OVER:
        raise EngineError(E.ROUND_IN_PROGRESS, "the round is still being played")


def next_round(deal_round: Callable[[State, RNG, list[Event]], None]) -> Handler:
    """The ``next_round`` handler: ``deal_round`` deals it, once the last round is over."""

    def do_next_round(s: State, a: Action, rng: RNG, ev: list[Event]) -> None:
        require_round_over(s)
        deal_round(s, rng, ev)

    return on_copy(do_next_round)


def applier(
    handlers: Mapping[str, Handler], colour_types: frozenset[str] | None = None
) -> Callable[[State, Action, RNG], Applied]:
    """A game's ``apply``: ``action`` applied to a copy of ``state`` by its handler; the new
    state and its events. Raises EngineError (state untouched) when the rules refuse it. In a
    game with colours (``colour_types``: the action types that may name one), a colour named by
    any other action is refused first."""

    def apply(state: State, action: Action, rng: RNG) -> Applied:
        kind = action.type
        if colour_types is not None and action.colour is not None and kind not in colour_types:
            raise EngineError(E.COLOUR_NOT_ALLOWED, f"{kind} names no colour")
        handler = handlers.get(kind)
        if handler is None:
            raise EngineError(E.INVALID_ACTION, f"unknown action type {kind!r}")
        events: list[Event] = []
        return handler(state, action, rng, events), events

    return apply
