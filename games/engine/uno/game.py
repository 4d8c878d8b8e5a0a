"""What every Uno game's ``interface.Game`` object does the same way: the state is the family's
``State``, actions the family's ``Action``, and whose turn, round and match ends, scores, system
actions, hands, piles, events and JSON forms read it alike. A game subclasses this with its own
modules (rules, listing, views, hidden information) and its names (``Rules``, ``Views``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar, Protocol

from ..interface import RNG, Event, SystemActions, places_by
from . import actions as A
from .actions import Action, covers
from .cards import card_type
from .deal import NewGame, Setup
from .scoring import hand_value
from .state import MATCH_OVER, ROUND_OVER, State
from .view import visible_event


class Rules(Protocol):
    """A game's ``rules`` module, as its ``Game`` object reads it: the match setup, new match,
    options, applying, and the action types it accepts."""

    @property
    def SETUP(self) -> Setup: ...

    @property
    def new_game(self) -> NewGame: ...

    @property
    def validate_options(self) -> Callable[[Any], dict[str, bool]]: ...

    @property
    def apply(self) -> Callable[[State, Action, RNG], tuple[State, list[Event]]]: ...

    @property
    def PLAYER_ACTIONS(self) -> tuple[str, ...]: ...  # what a player may send

    @property
    def ACTION_FIELDS(self) -> frozenset[str]: ...  # the fields an action's JSON may have


class Views(Protocol):
    """A game's ``view`` module (or its ``uno.colours.TableViews``)."""

    @property
    def view(self) -> Callable[[State, int], dict[str, Any]]: ...

    @property
    def moderator_view(self) -> Callable[[State], dict[str, Any]]: ...

    @property
    def spectator_view(self) -> Callable[[State], dict[str, Any]]: ...


class UnoFamilyGame(SystemActions[State, Action]):
    """A game of the family, built from its modules: ``rules``, its ``legal_actions``, its
    ``views`` and its ``sample_hidden``; the interface's names and defaults come from the rules'
    ``SETUP``. A subclass adds its name, turn-ending actions, options schema and card names."""

    name: str
    # ``interface.Game``'s two per-decision functions (set in __init__).
    legal_actions: Callable[[State, int], list[Action]]
    apply: Callable[[State, Action, RNG], tuple[State, list[Event]]]
    # Card type -> the name a player reads (English, as on the cards).
    card_names: ClassVar[dict[str, str]] = {}

    def __init__(
        self,
        rules: Rules,
        legal_actions: Callable[[State, int], list[Action]],
        views: Views,
        sample_hidden: Callable[[State, int, RNG], State],
    ) -> None:
        self.rules = rules
        self.action = Action
        self.setup = setup = rules.SETUP
        self.kind = setup.game
        self.min_players, self.max_players = setup.seats
        self.presets: Sequence[str] = tuple(setup.presets)
        self.default_preset = setup.preset
        self.default_target = setup.target_score
        self.action_types: Sequence[str] = rules.PLAYER_ACTIONS
        # Every type action_from_dict accepts, system actions too.
        self._accepted = (*rules.PLAYER_ACTIONS, *A.SYSTEM_ACTIONS)
        # The interface's legal_actions and apply are the game's own functions, bound as they
        # are: a method wrapping each would be one more call per decision.
        self.legal_actions = self._legal_actions = legal_actions
        self.apply = rules.apply
        self.views = views
        self._sample_hidden = sample_hidden

    def validate_options(self, options: Any) -> dict[str, Any]:
        return self.rules.validate_options(options)

    def new_game(
        self, *, preset: str | None = None, target_score: int | None = None, **setup: Any
    ) -> tuple[State, list[Event]]:
        # Only the defaults are the game's to fill in (the interface allows None for both):
        # ``players``, ``rng`` and ``options`` go to the rules as they came.
        return self.rules.new_game(
            preset=self.default_preset if preset is None else preset,
            target_score=self.default_target if target_score is None else target_score,
            **setup,
        )

    def view(self, state: State, seat: int) -> dict[str, Any]:
        return self.views.view(state, seat)

    def moderator_view(self, state: State) -> dict[str, Any]:
        return self.views.moderator_view(state)

    def spectator_view(self, state: State) -> dict[str, Any]:
        return self.views.spectator_view(state)

    def actors(self, state: State) -> frozenset[int]:
        legal = self._legal_actions
        return frozenset(i for i in range(len(state.seats)) if legal(state, i))

    def sample_hidden(self, state: State, seat: int, rng: RNG) -> State:
        return self._sample_hidden(state, seat, rng)

    def action_from_dict(self, data: Any) -> Action:
        return Action.from_dict(data, self._accepted, self.rules.ACTION_FIELDS)

    def deck(self, preset: str) -> tuple[str, ...]:
        """Every card id of ``preset``'s deck (scenario positions are built from it)."""
        return self.setup.presets[preset].card_ids

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

    def places(self, state: State) -> list[int]:
        """The winner first; then, in a match of rounds, by score; in a one-round match, by the
        points left in hand when it ended (No Mercy: a seat knocked out of it below those, the
        earlier knocked out lower); seats that left last."""
        in_match = set(self.active_seats(state))
        points = self.setup.presets[state.preset].points
        last = state.round_results[-1]["hands"] if state.round_results else {}

        def key(i: int) -> tuple[int, int, int]:
            if i not in in_match:
                return (3, 0, 0)
            if i == state.winner:
                return (0, 0, 0)
            if state.target_score:
                return (1, -state.seats[i].score, 0)
            if str(i) in last:
                return (1, 0, hand_value(last[str(i)], points))
            return (2, -state.knocked_out.index(i) if i in state.knocked_out else 0, 0)

        return places_by([key(i) for i in range(len(state.seats))])

    def active_seats(self, state: State) -> list[int]:
        return state.active_seats()

    def state_from_dict(self, data: dict[str, Any]) -> State:
        return State.from_dict(data)
