"""Gin Rummy's state: plain data that round-trips through JSON without loss.

Piles are ordered top first: ``stock[0]`` is the next card drawn, ``discard[0]`` the card that
may be taken. Hands are kept in the order the cards arrived.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, Final

from ..events import copy_json

GAME: Final = "gin_rummy"
PRESET: Final = "standard"

# Phases.
# the upcard offer: the non-dealer, then the dealer, takes the upcard or passes
OFFER: Final = "offer"
DRAW: Final = "draw"  # the current seat draws from the stock or the discard pile
DISCARD: Final = "discard"  # the current seat holds 11: discard, knock or declare big gin
ROUND_OVER: Final = "round_over"  # the round is scored; the system deals the next one
MATCH_OVER: Final = "match_over"
PHASES = (OFFER, DRAW, DISCARD, ROUND_OVER, MATCH_OVER)


@dataclass(slots=True)
class State:
    hands: list[list[str]]
    stock: list[str]
    discard: list[str]
    dealer: int = 0
    current: int = 0
    phase: str = OFFER
    # Upcard offer: how many seats have passed it (0, 1, or 2: the non-dealer must draw stock).
    passes: int = 0
    # The card taken from the discard pile this turn: it may not be discarded this turn.
    taken: str | None = None
    # Where this turn's card came from ("stock" or "discard"): a timeout's discard depends on it.
    drawn_from: str | None = None
    # Every take from the discard pile this round, in order: {"seat", "card"} (public).
    takes: list[dict[str, Any]] = field(default_factory=list)
    scores: list[int] = field(default_factory=lambda: [0, 0])
    rounds_won: list[int] = field(default_factory=lambda: [0, 0])
    target_score: int = 100
    round: int = 1
    round_results: list[dict[str, Any]] = field(default_factory=list)
    winner: int | None = None  # the match winner
    left: int | None = None  # the seat that left (lost by forfeit)
    game: str = GAME
    preset: str = PRESET

    def to_dict(self) -> dict[str, Any]:
        return {
            "hands": [list(h) for h in self.hands],
            "stock": list(self.stock),
            "discard": list(self.discard),
            "dealer": self.dealer,
            "current": self.current,
            "phase": self.phase,
            "passes": self.passes,
            "taken": self.taken,
            "drawn_from": self.drawn_from,
            "takes": [dict(t) for t in self.takes],
            "scores": list(self.scores),
            "rounds_won": list(self.rounds_won),
            "target_score": self.target_score,
            "round": self.round,
            "round_results": copy_json(self.round_results),
            "winner": self.winner,
            "left": self.left,
            "game": self.game,
            "preset": self.preset,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> State:
        known = {f.name for f in fields(cls)}
        return cls(**{k: copy_json(v) for k, v in data.items() if k in known})

    def copy(self) -> State:
        return State(
            hands=[list(h) for h in self.hands],
            stock=list(self.stock),
            discard=list(self.discard),
            dealer=self.dealer,
            current=self.current,
            phase=self.phase,
            passes=self.passes,
            taken=self.taken,
            drawn_from=self.drawn_from,
            # Taken entries and past results are never changed in place: sharing them is safe.
            takes=list(self.takes),
            scores=list(self.scores),
            rounds_won=list(self.rounds_won),
            target_score=self.target_score,
            round=self.round,
            round_results=list(self.round_results),
            winner=self.winner,
            left=self.left,
            game=self.game,
            preset=self.preset,
        )
