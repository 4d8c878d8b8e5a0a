"""A toy game behind ``games.engine.interface.Game``, to prove that nothing outside the engine
assumes Uno All Wild (tests/games/test_toy_game.py plays it through the whole service).

"Draw and discard to 0", for 2 players: ten cards ``c0``..``c9`` are shuffled and each player is
dealt three. On your turn you discard a card from your hand, or draw one from the pile. The first
to empty their hand wins the round and scores the cards left in the other hand; the match ends
when a score reaches the target (0: one round). A player who runs out of time draws; one who
leaves loses. Its actions have shapes of their own: ``discard`` with a ``card``, and ``draw``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from typing import Any

from games.engine.errors import INVALID_ACTION, INVALID_SETUP, EngineError
from games.engine.interface import RNG, Event

KIND = "toy"
CARDS = [f"c{i}" for i in range(10)]
HAND = 3
PLAYER_ACTIONS = ("discard", "draw")
SYSTEM_ACTIONS = ("timeout", "leave", "next_round")


@dataclass(frozen=True)
class ToyAction:
    type: str
    seat: int | None = None
    card: str | None = None


@dataclass
class ToyState:
    hands: list[list[str]]
    pile: list[str]
    target: int
    current: int = 0
    scores: list[int] = field(default_factory=lambda: [0, 0])
    active: list[bool] = field(default_factory=lambda: [True, True])
    round: int = 1
    phase: str = "play"  # play, round_over, match_over
    winner: int | None = None


def _deal(state: ToyState, rng: RNG) -> list[Event]:
    deck = list(CARDS)
    rng.shuffle(deck)
    state.hands = [deck[:HAND], deck[HAND : 2 * HAND]]
    state.pile = deck[2 * HAND :]
    state.phase = "play"
    return [
        {"type": "chance", "kind": "shuffle", "order": list(deck)},
        {"type": "round_started", "round": state.round},
    ]


class Toy:
    kind = KIND
    name = "Draw and discard"
    min_players = 2
    max_players = 2
    presets = ("plain",)
    default_preset = "plain"
    default_target = 2
    action_types = PLAYER_ACTIONS
    turn_ending_actions = frozenset({"discard", "draw", "timeout"})

    def options_schema(self) -> dict[str, Any]:
        return {"type": "object", "additionalProperties": False, "properties": {}}

    def validate_options(self, options: Any) -> dict[str, Any]:
        if not isinstance(options, dict) or options:
            raise EngineError(INVALID_SETUP, "the toy game has no house rules")
        return {}

    def new_game(
        self, *, players: int, rng: RNG, target_score: int | None = None, **setup: Any
    ) -> tuple[ToyState, list[Event]]:
        # ``setup``'s preset and options: the toy has one preset and no house rules.
        if players != 2:
            raise EngineError(INVALID_SETUP, "the toy game is for 2 players")
        target = self.default_target if target_score is None else target_score
        state = ToyState(hands=[[], []], pile=[], target=target)
        return state, _deal(state, rng)

    def legal_actions(self, state: ToyState, seat: int) -> list[ToyAction]:
        if state.phase != "play" or seat != state.current:
            return []
        listed = [ToyAction("discard", seat, card) for card in state.hands[seat]]
        return listed + ([ToyAction("draw", seat)] if state.pile else [])

    def covers(self, listed: ToyAction, action: ToyAction) -> bool:
        return listed == action

    def apply(self, state: ToyState, action: ToyAction, rng: RNG) -> tuple[ToyState, list[Event]]:
        s = self.state_from_dict(self.state_to_dict(state))
        seat = action.seat
        if action.type == "next_round":
            if s.phase != "round_over":
                raise EngineError("not_between_rounds", "the round is not over")
            s.round += 1
            s.current = s.round % 2
            return s, _deal(s, rng)
        if s.phase != "play":
            raise EngineError("game_over", "nobody may act now")
        if action.type == "leave":
            assert seat is not None
            s.active[seat] = False
            return self._end_match(s, 1 - seat, [{"type": "left", "seat": seat}])
        if action.type == "timeout":
            events: list[Event] = [{"type": "timeout", "seat": seat}]
            events += self._draw(s, s.current) if s.pile else []
            s.current = 1 - s.current
            return s, events
        if action not in self.legal_actions(state, seat if seat is not None else -1):
            raise EngineError("illegal_action", f"{action.type} is not allowed now")
        if action.type == "draw":
            events = self._draw(s, s.current)
        else:
            assert action.card is not None
            s.hands[s.current].remove(action.card)
            events = [{"type": "discard", "seat": s.current, "card": action.card}]
        if not s.hands[s.current]:
            return self._end_round(s, s.current, events)
        s.current = 1 - s.current
        return s, events

    def _draw(self, s: ToyState, seat: int) -> list[Event]:
        card = s.pile.pop(0)
        s.hands[seat].insert(0, card)
        return [{"type": "draw", "seat": seat, "card": card}]

    def _end_round(
        self, s: ToyState, winner: int, events: list[Event]
    ) -> tuple[ToyState, list[Event]]:
        points = len(s.hands[1 - winner])
        s.scores[winner] += points
        s.phase = "round_over"
        events = events + [
            {
                "type": "round_over",
                "round": s.round,
                "winner": winner,
                "points": points,
                "hands": {str(i): list(h) for i, h in enumerate(s.hands)},
                "scores": list(s.scores),
            }
        ]
        if s.scores[winner] >= s.target:
            return self._end_match(s, winner, events)
        return s, events

    def _end_match(
        self, s: ToyState, winner: int, events: list[Event]
    ) -> tuple[ToyState, list[Event]]:
        s.phase = "match_over"
        s.winner = winner
        return s, events + [{"type": "match_over", "winner": winner}]

    def view(self, state: ToyState, seat: int) -> dict[str, Any]:
        return {
            "game": KIND,
            "you": seat,
            "hand": list(state.hands[seat]),
            "hand_sizes": [len(h) for h in state.hands],
            "pile_size": len(state.pile),
            "current_seat": state.current,
            "phase": state.phase,
            "round": state.round,
            "scores": list(state.scores),
            "winner": state.winner,
            "legal_actions": [self.action_to_dict(a) for a in self.legal_actions(state, seat)],
        }

    def spectator_view(self, state: ToyState) -> dict[str, Any]:
        public = self.view(state, state.current)
        for own in ("you", "hand", "legal_actions"):
            del public[own]
        return public

    def moderator_view(self, state: ToyState) -> dict[str, Any]:
        return {**self.view(state, state.current), "state": self.state_to_dict(state)}

    def hands(self, state: ToyState) -> list[list[str]]:
        return [list(h) for h in state.hands]

    def card_name(self, card: str) -> str:
        return f"Toy card {card}"

    def piles(self, state: ToyState) -> dict[str, list[str]]:
        return {"draw": list(state.pile)}

    def visible_event(self, event: Event, seat: int | None) -> Event | None:
        if seat is None:
            return event
        if event["type"] == "chance":
            return None
        if event["type"] == "draw" and event["seat"] != seat:
            return {k: v for k, v in event.items() if k != "card"}
        if event["type"] == "round_over":
            return event  # hands are shown at the end of a round, as at a real table
        return event

    def to_move(self, state: ToyState) -> int | None:
        return state.current if state.phase == "play" else None

    def actors(self, state: ToyState) -> frozenset[int]:
        return frozenset({state.current}) if state.phase == "play" else frozenset()

    def is_round_over(self, state: ToyState) -> bool:
        return state.phase == "round_over"

    def is_match_over(self, state: ToyState) -> bool:
        return state.phase == "match_over"

    def scores(self, state: ToyState) -> list[int]:
        return list(state.scores)

    def match_winner(self, state: ToyState) -> int | None:
        return state.winner

    def places(self, state: ToyState) -> list[int]:
        keys = [(not state.active[i], i != state.winner, -state.scores[i]) for i in (0, 1)]
        return [1 + sum(other < key for other in keys) for key in keys]

    def active_seats(self, state: ToyState) -> list[int]:
        return [i for i, on in enumerate(state.active) if on]

    def timeout_action(self, state: ToyState, seat: int) -> ToyAction:
        return ToyAction("timeout", seat)

    def leave_action(self, seat: int) -> ToyAction:
        return ToyAction("leave", seat)

    def next_round_action(self) -> ToyAction:
        return ToyAction("next_round")

    def action_from_dict(self, data: Any) -> ToyAction:
        if not isinstance(data, dict) or set(data) - {"type", "seat", "card"}:
            raise EngineError(INVALID_ACTION, "a toy action has a type, a seat and a card")
        kind, seat, card = data.get("type"), data.get("seat"), data.get("card")
        if kind not in PLAYER_ACTIONS + SYSTEM_ACTIONS:
            raise EngineError(INVALID_ACTION, f"unknown action type {kind!r}")
        if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)):
            raise EngineError(INVALID_ACTION, "seat must be a seat number")
        if (kind == "discard") != isinstance(card, str):
            raise EngineError(INVALID_ACTION, "a discard names one card, and only a discard")
        return ToyAction(kind, seat, card)

    def action_to_dict(self, action: ToyAction) -> dict[str, Any]:
        return {k: v for k, v in asdict(action).items() if v is not None}

    def state_from_dict(self, data: dict[str, Any]) -> ToyState:
        return ToyState(**{k: (list(v) if isinstance(v, list) else v) for k, v in data.items()})

    def state_to_dict(self, state: ToyState) -> dict[str, Any]:
        data = asdict(state)
        data["hands"] = [list(h) for h in state.hands]
        return data

    def sample_hidden(self, state: ToyState, seat: int, rng: RNG) -> ToyState:
        unseen = list(state.pile) + list(state.hands[1 - seat])
        rng.shuffle(unseen)
        size = len(state.hands[1 - seat])
        hands = [list(h) for h in state.hands]
        hands[1 - seat] = unseen[:size]
        return replace(state, hands=hands, pile=unseen[size:])


TOY = Toy()
