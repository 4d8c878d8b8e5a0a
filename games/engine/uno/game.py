"""What every Uno game's ``interface.Game`` object does the same way: the state is the family's
``State``, actions the family's ``Action``, and whose turn, round and match ends, scores, system
actions, hands, piles, events and JSON forms read it alike. A game subclasses this with its own
rules (new game, listing, applying, views, options)."""

from __future__ import annotations

from typing import Any

from ..interface import Event
from . import actions as A
from .actions import Action, covers
from .state import MATCH_OVER, ROUND_OVER, State
from .view import visible_event


class UnoFamilyGame:
    def deck(self, preset: str) -> tuple[str, ...]:
        """Every card id of ``preset``'s deck (scenario positions are built from it)."""
        raise NotImplementedError

    def covers(self, listed: Action, action: Action) -> bool:
        return covers(listed, action)

    def hands(self, state: State) -> list[list[str]]:
        return [list(seat.hand) for seat in state.seats]

    def piles(self, state: State) -> dict[str, list[str]]:
        return {"draw": list(state.draw_pile), "discard": list(state.discard_pile)}

    def visible_event(self, event: Event, seat: int | None) -> Event | None:
        return visible_event(event, seat)

    def to_move(self, state: State) -> int | None:
        return None if state.phase in (ROUND_OVER, MATCH_OVER) else state.current

    def is_round_over(self, state: State) -> bool:
        return state.phase == ROUND_OVER

    def is_match_over(self, state: State) -> bool:
        return state.phase == MATCH_OVER

    def scores(self, state: State) -> list[int]:
        return [seat.score for seat in state.seats]

    def match_winner(self, state: State) -> int | None:
        return state.winner

    def active_seats(self, state: State) -> list[int]:
        return state.active_seats()

    def timeout_action(self, state: State, seat: int) -> Action:
        return Action(A.TIMEOUT, seat)

    def leave_action(self, seat: int) -> Action:
        return Action(A.LEAVE, seat)

    def next_round_action(self) -> Action:
        return Action(A.NEXT_ROUND)

    def action_to_dict(self, action: Action) -> dict[str, Any]:
        return action.to_dict()

    def state_from_dict(self, data: dict[str, Any]) -> State:
        return State.from_dict(data)

    def state_to_dict(self, state: State) -> dict[str, Any]:
        return state.to_dict()
