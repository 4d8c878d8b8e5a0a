"""A toy game behind the engine's interface, to prove the expert knows no game: "Near".

Two players, cards 1 to 12 twice. Each holds four cards, hidden from the other; one card is face
up, the rest are a face-down draw pile. On your turn play a card within 3 of the face-up card
(it becomes the face-up card) or draw one; with nothing to play and nothing to draw, pass. Empty
your hand to win the round: you score the cards left in the other hand. After 80 turns the
smaller hand wins (a tie: nobody).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

from games.engine.errors import INVALID_ACTION, EngineError
from games.engine.interface import RNG, Event

MAX_TURNS = 80
REACH = 3


class Move(NamedTuple):
    type: str  # "play", "draw", "pass"
    seat: int
    card: int | None = None


@dataclass
class Near:
    hands: list[list[int]]
    pile: list[int]
    top: int
    current: int = 0
    scores: list[int] = field(default_factory=lambda: [0, 0])
    turns: int = 0
    over: bool = False
    winner: int | None = None

    def copy(self) -> Near:
        return replace(
            self,
            hands=[list(h) for h in self.hands],
            pile=list(self.pile),
            scores=list(self.scores),
        )


class NearGame:
    kind = "toy_near"
    name = "Near"
    min_players = 2
    max_players = 2
    presets = ("standard",)
    default_preset = "standard"
    default_target = 0

    def options_schema(self) -> dict[str, Any]:
        return {"type": "object", "properties": {}}

    def validate_options(self, options: Any) -> dict[str, Any]:
        return {}

    def new_game(self, *, rng: RNG, **setup: Any) -> tuple[Near, list[Event]]:
        # The rest of the setup (two players, the one preset, no options, one round) is fixed.
        deck = [v for v in range(1, 13) for _ in range(2)]
        rng.shuffle(deck)
        state = Near(hands=[deck[0:4], deck[4:8]], top=deck[8], pile=deck[9:])
        return state, [{"type": "round_started"}]

    def legal_actions(self, state: Near, seat: int) -> list[Move]:
        if state.over or seat != state.current:
            return []
        plays = [
            Move("play", seat, c)
            for c in sorted(set(state.hands[seat]))
            if abs(c - state.top) <= REACH
        ]
        if state.pile:
            return [*plays, Move("draw", seat)]
        return plays or [Move("pass", seat)]

    def covers(self, listed: Move, action: Move) -> bool:
        return listed == action

    def apply(self, state: Near, action: Move, rng: RNG) -> tuple[Near, list[Event]]:
        if action not in self.legal_actions(state, action.seat):
            raise EngineError(INVALID_ACTION, f"not now: {action}")
        s = state.copy()
        me = action.seat
        if action.type == "play":
            assert action.card is not None
            s.hands[me].remove(action.card)
            s.top = action.card
        elif action.type == "draw":
            s.hands[me].append(s.pile.pop(0))
        s.turns += 1
        s.current = 1 - me
        if not s.hands[me] or s.turns >= MAX_TURNS:
            sizes = [len(h) for h in s.hands]
            if not s.hands[me]:
                s.winner = me
            elif sizes[0] != sizes[1]:
                s.winner = sizes.index(min(sizes))
            s.over = True
            if s.winner is not None:
                s.scores[s.winner] += sum(s.hands[1 - s.winner])
        return s, [{"type": action.type, "seat": me}]

    def view(self, state: Near, seat: int) -> dict[str, Any]:
        return {
            "game": self.kind,
            "you": seat,
            "current_seat": state.current,
            "hand": sorted(state.hands[seat]),
            "hand_sizes": [len(h) for h in state.hands],
            "top": state.top,
            "draw_size": len(state.pile),
            "legal_actions": [self.action_to_dict(a) for a in self.legal_actions(state, seat)],
        }

    def moderator_view(self, state: Near) -> dict[str, Any]:
        return {"hands": state.hands, "pile": state.pile, "top": state.top}

    def visible_event(self, event: Event, seat: int | None) -> Event | None:
        return event

    def to_move(self, state: Near) -> int | None:
        return None if state.over else state.current

    def actors(self, state: Near) -> frozenset[int]:
        return frozenset() if state.over else frozenset({state.current})

    def is_round_over(self, state: Near) -> bool:
        return state.over

    def is_match_over(self, state: Near) -> bool:
        return state.over

    def scores(self, state: Near) -> list[int]:
        return list(state.scores)

    def match_winner(self, state: Near) -> int | None:
        return state.winner

    def active_seats(self, state: Near) -> list[int]:
        return [0, 1]

    def timeout_action(self, state: Near, seat: int) -> Move:
        return self.legal_actions(state, seat)[-1]

    def leave_action(self, seat: int) -> Move:
        return Move("pass", seat)

    def next_round_action(self) -> Move:
        return Move("pass", 0)

    def action_from_dict(self, data: Any) -> Move:
        return Move(data["type"], data["seat"], data.get("card"))

    def action_to_dict(self, action: Move) -> dict[str, Any]:
        data: dict[str, Any] = {"type": action.type, "seat": action.seat}
        if action.card is not None:
            data["card"] = action.card
        return data

    def state_from_dict(self, data: dict[str, Any]) -> Near:
        return Near(**data)

    def state_to_dict(self, state: Near) -> dict[str, Any]:
        return {k: getattr(state, k) for k in Near.__dataclass_fields__}

    def sample_hidden(self, state: Near, seat: int, rng: RNG) -> Near:
        s = state.copy()
        other = 1 - seat
        unseen = s.hands[other] + s.pile
        rng.shuffle(unseen)
        size = len(s.hands[other])
        s.hands[other], s.pile = unseen[:size], unseen[size:]
        return s


NEAR = NearGame()
