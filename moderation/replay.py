"""Rebuild a game as it stood after one of its moves, for the moderators' read-only replay.

The log holds every chance outcome (shuffles, random choices) as events, so the engine replays it
with ``ReplayRNG`` instead of a random generator and reaches exactly the states the game went
through. Like ``games.services._apply``, a move that ends a round also dealt the next one with the
same move's events.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games import engine
from games.engine import Action, ReplayError, ReplayRNG, State
from games.engine.actions import NEXT_ROUND
from games.engine.state import ROUND_OVER
from games.models import Game, Move


class ReplayUnavailable(Exception):
    """This game cannot be replayed (not started, loaded from a position, or a broken log)."""


@dataclass
class Replayed:
    state: State
    move: Move
    moves: list[Move]
    # True when the move is the last one and the replay ends in the stored state, as it must.
    matches_stored: bool | None


def state_after(game: Game, number: int | None = None) -> Replayed:
    """The state after move ``number`` (the last move when None). Every hand and the draw pile
    are in it: for moderators only."""
    moves = list(Move.objects.filter(game=game).order_by("number"))
    if not moves:
        raise ReplayUnavailable("The game has not started: there is nothing to replay.")
    first = moves[0]
    if first.action.get("type") != "start":
        raise ReplayUnavailable("This game was loaded from a position: its log starts there.")
    if number is None:
        number = moves[-1].number
    chosen = next((m for m in moves if m.number == number), None)
    if chosen is None:
        raise ReplayUnavailable(f"The game has no move {number}.")
    players = game.seats.filter(position__isnull=False).count()
    try:
        rng = ReplayRNG(first.events)
        state, _ = engine.new_game(
            players=players,
            rng=rng,
            preset=game.preset,
            options=game.options,
            target_score=game.target_score,
        )
        for move in moves[1:]:
            if move.number > number:
                break
            state = _apply(state, move)
    except (ReplayError, engine.EngineError) as exc:
        raise ReplayUnavailable(f"The log does not replay: {exc}") from exc
    last = chosen is moves[-1]
    matches = state.to_dict() == game.state if last and game.state is not None else None
    return Replayed(state=state, move=chosen, moves=moves, matches_stored=matches)


def _apply(state: State, move: Move) -> State:
    rng = ReplayRNG(move.events)
    state, _ = engine.apply(state, Action.from_dict(move.action), rng)
    if state.phase == ROUND_OVER:
        state, _ = engine.apply(state, Action(NEXT_ROUND), rng)
    if rng.remaining:
        raise ReplayError(f"move {move.number} logged more chance outcomes than it used")
    return state


def describe(event: dict[str, Any]) -> str:
    """One event as a line of text, secrets included (moderators see everything)."""
    shown = engine.visible_event(event, None) or event
    kind = shown.get("type", "?")
    rest = ", ".join(f"{k}={v}" for k, v in shown.items() if k != "type")
    return f"{kind}: {rest}" if rest else kind
