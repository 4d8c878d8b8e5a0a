"""Gin Rummy behind the game interface (``interface.Game``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..events import visible_event
from ..interface import RNG, Event, SystemActions, no_options_schema, places_by
from . import actions as A
from . import rules, view
from .actions import Action
from .cards import DECK, DEFAULT_TARGET
from .hidden import sample_hidden
from .state import GAME, MATCH_OVER, PRESET, ROUND_OVER, State


class GinRummy(SystemActions[State, Action]):
    """Gin Rummy for two: the rulings are ``shared/rules/gin_rummy.md``."""

    kind = GAME
    name = "Gin Rummy"
    min_players = rules.PLAYERS
    max_players = rules.PLAYERS
    presets: Sequence[str] = (PRESET,)
    default_preset = PRESET
    default_target = DEFAULT_TARGET
    action_types: Sequence[str] = A.PLAYER_ACTIONS
    # A turn ends with its discard (or a timeout); passing the upcard hands the offer on.
    turn_ending_actions = frozenset({A.PASS, A.DISCARD, A.TIMEOUT})

    def __init__(self) -> None:
        # The interface's new_game is the rules' own, bound as it is (its defaults are the
        # interface's): a method around it would only repeat its signature.
        self.new_game = rules.new_game
        self.action = Action

    def options_schema(self) -> dict[str, Any]:
        return no_options_schema(self.name)

    def validate_options(self, options: Any) -> dict[str, Any]:
        return rules.validate_options(options)

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        return rules.legal_actions(state, seat)

    def covers(self, listed: Action, action: Action) -> bool:
        return listed == action

    def apply(self, state: State, action: Action, rng: RNG) -> tuple[State, list[Event]]:
        return rules.apply(state, action, rng)

    def view(self, state: State, seat: int) -> dict[str, Any]:
        return view.view(state, seat)

    def moderator_view(self, state: State) -> dict[str, Any]:
        return view.moderator_view(state)

    def spectator_view(self, state: State) -> dict[str, Any]:
        return view.spectator_view(state)

    def hands(self, state: State) -> list[list[str]]:
        return [list(h) for h in state.hands]

    def piles(self, state: State) -> dict[str, list[str]]:
        return {"draw": list(state.stock), "discard": list(state.discard)}

    def card_name(self, card: str) -> str:
        """``Th`` -> "10 of hearts", ``As`` -> "Ace of spades"."""
        rank, suit = CARD_RANK_NAMES.get(card[:1], card[:1]), SUIT_NAMES.get(card[1:], card[1:])
        return f"{rank} of {suit}"

    def visible_event(self, event: Event, seat: int | None) -> Event | None:
        return visible_event(event, seat)

    def to_move(self, state: State) -> int | None:
        return None if state.phase in (ROUND_OVER, MATCH_OVER) else state.current

    def actors(self, state: State) -> frozenset[int]:
        seat = self.to_move(state)
        return frozenset() if seat is None else frozenset({seat})

    def is_round_over(self, state: State) -> bool:
        return state.phase == ROUND_OVER

    def is_match_over(self, state: State) -> bool:
        return state.phase == MATCH_OVER

    def scores(self, state: State) -> list[int]:
        return list(state.scores)

    def match_winner(self, state: State) -> int | None:
        return state.winner

    def places(self, state: State) -> list[int]:
        """The match winner first (the loser's line bonuses may outscore the winner's total,
        but the match is the winner's); a forfeiter, who left, second either way."""
        return places_by([(i == state.left, i != state.winner, -state.scores[i]) for i in (0, 1)])

    def active_seats(self, state: State) -> list[int]:
        return [i for i in (0, 1) if state.left != i]

    def action_from_dict(self, data: Any) -> Action:
        return Action.from_dict(data)

    def state_from_dict(self, data: dict[str, Any]) -> State:
        return State.from_dict(data)

    def sample_hidden(self, state: State, seat: int, rng: RNG) -> State:
        return sample_hidden(state, seat, rng)

    def deck(self, preset: str) -> tuple[str, ...]:
        """Every card id (scenario positions are built from it)."""
        return DECK


GIN_RUMMY = GinRummy()


CARD_RANK_NAMES = {"A": "Ace", "T": "10", "J": "Jack", "Q": "Queen", "K": "King"}
SUIT_NAMES = {"s": "spades", "h": "hearts", "d": "diamonds", "c": "clubs"}
