"""Rebuild a game as it stood after one of its moves, for the moderators' read-only replay.

The log holds every chance outcome (shuffles, random choices) as events, so the engine replays it
with ``ReplayRNG`` instead of a random generator and reaches exactly the states the game went
through. Like ``games.services.play.apply_action``, a move that ends a round also dealt the next one
with the same move's events.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.engine import EngineError, ReplayError, ReplayRNG, registry
from games.engine.interface import Game as Rules
from games.engine.moves import apply_move
from games.models import Game, Move


class ReplayUnavailable(Exception):
    """This game cannot be replayed (not started, loaded from a position, or a broken log)."""


@dataclass
class Replayed:
    state: Any  # the game's own state (its kind's ``state_to_dict`` makes it JSON)
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
    rules = registry.get_game(game.kind)
    try:
        rng = ReplayRNG(first.events)
        state, _ = rules.new_game(
            players=players,
            rng=rng,
            preset=game.preset,
            options=game.options,
            target_score=game.target_score,
        )
        for move in moves[1:]:
            if move.number > number:
                break
            state = _apply(rules, state, move)
    except (ReplayError, EngineError) as exc:
        raise ReplayUnavailable(f"The log does not replay: {exc}") from exc
    last = chosen is moves[-1]
    matches = rules.state_to_dict(state) == game.state if last and game.state is not None else None
    return Replayed(state=state, move=chosen, moves=moves, matches_stored=matches)


def _apply(rules: Rules[Any, Any], state: Any, move: Move) -> Any:
    rng = ReplayRNG(move.events)
    state, _ = apply_move(rules, state, rules.action_from_dict(move.action), rng)
    if rng.remaining:
        raise ReplayError(f"move {move.number} logged more chance outcomes than it used")
    return state


def describe(event: dict[str, Any], kind: str | None = None) -> str:
    """One event of a game of ``kind`` as a line of text, secrets included (moderators see
    everything)."""
    shown = registry.get_game(kind).visible_event(event, None) or event
    kind = shown.get("type", "?")
    rest = ", ".join(f"{k}={v}" for k, v in shown.items() if k != "type")
    return f"{kind}: {rest}" if rest else kind
