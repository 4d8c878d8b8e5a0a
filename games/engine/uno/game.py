"""What every Uno game's ``interface.Game`` object does the same way: the state is the family's
``State``, actions the family's ``Action``, and whose turn, round and match ends, scores, system
actions, hands, piles, events and JSON forms read it alike. A game subclasses this with its own
rules (new game, listing, applying, views, options)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, NamedTuple

from ..interface import RNG, Event
from . import actions as A
from .actions import Action, covers
from .cards import card_type
from .state import MATCH_OVER, ROUND_OVER, State
from .view import visible_event


class UnoRules(NamedTuple):
    """A game's own rules, as the functions its ``Game`` object hands its work to."""

    new_game: Callable[..., tuple[State, list[Event]]]
    validate_options: Callable[[Any], dict[str, bool]]
    legal_actions: Callable[[State, int], list[Action]]
    apply: Callable[[State, Action, RNG], tuple[State, list[Event]]]
    view: Callable[[State, int], dict[str, Any]]
    moderator_view: Callable[[State], dict[str, Any]]
    sample_hidden: Callable[[State, int, RNG], State]
    action_types: tuple[str, ...]  # every type action_from_dict accepts, system actions too
    action_fields: frozenset[str] = A.FIELDS


class UnoFamilyGame:
    default_preset: str
    default_target: int
    # Card type -> the name a player reads (English, as on the cards).
    card_names: ClassVar[dict[str, str]] = {}

    def __init__(self, rules: UnoRules) -> None:
        self.rules = rules

    def validate_options(self, options: Any) -> dict[str, Any]:
        return self.rules.validate_options(options)

    def new_game(
        self,
        *,
        players: int,
        rng: RNG,
        preset: str | None = None,
        options: dict[str, Any] | None = None,
        target_score: int | None = None,
    ) -> tuple[State, list[Event]]:
        return self.rules.new_game(
            players=players,
            rng=rng,
            preset=self.default_preset if preset is None else preset,
            options=options,
            target_score=self.default_target if target_score is None else target_score,
        )

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        return self.rules.legal_actions(state, seat)

    def apply(self, state: State, action: Action, rng: RNG) -> tuple[State, list[Event]]:
        return self.rules.apply(state, action, rng)

    def view(self, state: State, seat: int) -> dict[str, Any]:
        return self.rules.view(state, seat)

    def moderator_view(self, state: State) -> dict[str, Any]:
        return self.rules.moderator_view(state)

    def actors(self, state: State) -> frozenset[int]:
        legal = self.rules.legal_actions
        return frozenset(i for i in range(len(state.seats)) if legal(state, i))

    def sample_hidden(self, state: State, seat: int, rng: RNG) -> State:
        return self.rules.sample_hidden(state, seat, rng)

    def action_from_dict(self, data: Any) -> Action:
        return Action.from_dict(data, self.rules.action_types, self.rules.action_fields)

    def deck(self, preset: str) -> tuple[str, ...]:
        """Every card id of ``preset``'s deck (scenario positions are built from it)."""
        raise NotImplementedError

    def covers(self, listed: Action, action: Action) -> bool:
        return covers(listed, action)

    def hands(self, state: State) -> list[list[str]]:
        return [list(seat.hand) for seat in state.seats]

    def card_name(self, card: str) -> str:
        """The name of the card's type (the id without its copy), from the game's
        ``card_names``; a type without one reads as its words (``skip_two`` -> "Skip two")."""
        kind = card_type(card)
        return self.card_names.get(kind) or kind.replace("_", " ").replace("-", " ").capitalize()

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
