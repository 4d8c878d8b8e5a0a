"""Game records: a finished game as one versioned JSON document (docs/records.md), and the check
that a record replays through the engine to the end it records.

A record holds the setup (``new_game``'s arguments), every move as the service logged it (the
action and every event, secrets and chance outcomes included: the engine logs each shuffle's
result and each random choice as a ``chance`` event, so a replay needs no RNG), what the table
looked like after each move (every hand, each pile's top card and size: for viewers, and checked
by the replay), and the end: scores, winner, standings, a digest of the final state. It is only
built for a finished game, so no hidden card leaves the server while it could still matter.

Apps above games add their parts (the ratings app: ``rating_changes``) by answering the
``record_building`` signal; games never imports them.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db.models import Exists, OuterRef, Q
from django.dispatch import Signal

from config import error_codes as codes
from config.error_codes import ErrorCode
from games import selectors
from games.engine import EngineError, ReplayError, ReplayRNG, registry
from games.engine.interface import Event
from games.engine.interface import Game as Rules
from games.engine.moves import apply_move
from games.models import Game, Move, RoundResult, Seat
from players.models import User

FORMAT = "uaw-game-record"
# Fields may be added within a version (docs/records.md): the players' chat (`chat`) was.
VERSION = 1

# Sent while a record is built: ``game``, ``seats`` (in position order) and ``reader`` (the user
# who asked, or None). A receiver returns a
# dict of extra parts, e.g. ``{"rating_changes": [...]}`` (docs/records.md lists their shapes);
# only the parts named in EXTENSION_PARTS are taken, so no receiver can rewrite the moves.
record_building = Signal()
EXTENSION_PARTS = ("rating_changes", "chat")
# ``new_game``'s keyword arguments besides the RNG: a record's ``setup``.
SETUP_KEYS = frozenset({"players", "preset", "options", "target_score"})


class RecordUnavailable(Exception):
    """No record can be served: ``error`` (its entry in config/error_codes.py) and ``message``
    as the API says them."""

    def __init__(self, error: ErrorCode, message: str) -> None:
        super().__init__(f"{error.code}: {message}")
        self.error = error
        self.code = error.code
        self.message = message


class Divergence(Exception):
    """A replay left the record: ``move`` is the number of the first move that differs (None: the
    record's setup or its end)."""

    def __init__(self, move: int | None, message: str) -> None:
        where = f"move {move}" if move is not None else "record"
        super().__init__(f"{where}: {message}")
        self.move = move
        self.message = message


# ---- who may read one --------------------------------------------------------------------


def game_for_record(user: User, game_id: Any) -> Game | None:
    """The game if ``user`` may read its record: its players (a seat, even one they left), and
    anyone signed in when the game is public. None otherwise (answered as 404)."""
    # EXISTS rather than a join: a join would repeat a public game once per seat (and DISTINCT
    # would compare the whole state column to drop the copies).
    seated = Exists(Seat.objects.filter(game_id=OuterRef("pk"), user=user))
    try:
        return Game.objects.filter(seated | Q(visibility=Game.PUBLIC), pk=game_id).get()
    except (Game.DoesNotExist, ValidationError, ValueError, TypeError):
        return None  # a malformed id is just another game that does not exist


# ---- building ----------------------------------------------------------------------------


def _json(value: Any) -> Any:
    """``value`` as JSON gives it back: tuples become lists, so a record compares equal to the
    file it was written to."""
    return json.loads(json.dumps(value))


def state_digest(rules: Rules[Any, Any], state: Any) -> str:
    """SHA-256 of the state's JSON form with sorted keys: the record's end, compact."""
    text = json.dumps(rules.state_to_dict(state), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def position(rules: Rules[Any, Any], state: Any) -> dict[str, Any]:
    """The table after a move, as a record shows it: every hand, each pile's top and size,
    the scores and whose turn it is."""
    return _json(
        {
            "hands": rules.hands(state),
            "piles": {
                name: {"top": cards[0] if cards else None, "size": len(cards)}
                for name, cards in rules.piles(state).items()
            },
            "scores": rules.scores(state),
            "to_move": rules.to_move(state),
        }
    )


def _players(seats: list[Seat]) -> list[dict[str, Any]]:
    return [
        {
            "seat": s["seat"],
            "name": s["name"],
            "user_id": s["user_id"],
            "bot_level": s["bot_level"],
            "left": s["left"],
            "place": s["place"],
            "final_score": s["final_score"],
        }
        for s in selectors.seat_summary(seats, None)
    ]


def _when(value: Any) -> str | None:
    return value.isoformat() if value is not None else None


def setup_of(game: Game, seats: list[Seat]) -> dict[str, Any]:
    """``new_game``'s arguments for ``game`` (``seats``: every seat; those dealt in count)."""
    return {
        "players": sum(1 for s in seats if s.position is not None),
        "preset": game.preset,
        "options": game.options,
        "target_score": game.target_score,
    }


def replayed(
    rules: Rules[Any, Any], setup: dict[str, Any], logged: list[Move]
) -> Iterable[tuple[Move, Any]]:
    """Each logged move with the state after it, replayed through the engine (no RNG: the log's
    chance events). ``RecordUnavailable`` when the log does not start with the deal (a game
    loaded from a position) or does not replay."""
    if not logged or logged[0].action.get("type") != "start":
        raise RecordUnavailable(
            codes.RECORD_UNAVAILABLE, "This game was loaded from a position: its log starts there."
        )
    state = None
    try:
        for move in logged:
            rng = ReplayRNG(move.events)
            if state is None:
                state, _ = rules.new_game(rng=rng, **setup)
            else:
                state, _ = apply_move(rules, state, rules.action_from_dict(move.action), rng)
            yield move, state
    except (EngineError, ReplayError) as exc:
        raise RecordUnavailable(
            codes.RECORD_UNAVAILABLE, f"The game's log does not replay: {exc}"
        ) from exc


def _moves(game: Game, rules: Rules[Any, Any], setup: dict[str, Any]) -> tuple[list[Any], Any]:
    """Every move with the position after it, replayed from the log; and the final state."""
    logged = list(Move.objects.filter(game=game).order_by("number"))
    moves: list[dict[str, Any]] = []
    state = None
    for move, state in replayed(rules, setup, logged):
        moves.append(
            {
                "number": move.number,
                "seat": move.seat,
                "at": _when(move.created_at),
                "action": move.action,
                "events": move.events,
                "position": position(rules, state),
            }
        )
    return moves, state


def build_record(game: Game, reader: User | None = None) -> dict[str, Any]:
    """The record of a finished ``game`` (docs/records.md). Raises ``RecordUnavailable``
    (``game_not_finished`` while it is not finished; ``record_unavailable`` for a game whose
    log does not start with its deal). Three queries (seats, moves, rounds) and a replay of
    the game through the engine, besides whatever the receivers of ``record_building`` add.
    ``reader``: who asked (None: the service itself); a part may be its players' only (the
    chat)."""
    if game.status != Game.FINISHED:
        raise RecordUnavailable(
            codes.GAME_NOT_FINISHED, "A game's record is ready once the game has finished."
        )
    rules = registry.get_game(game.kind)
    seats = [s for s in game.seats.select_related("user") if s.position is not None]
    seats.sort(key=lambda s: s.position or 0)
    setup = setup_of(game, seats)
    moves, state = _moves(game, rules, setup)
    rounds = [
        {"round": r.round, "winner": r.winner_position, "points": r.points, "scores": r.scores}
        for r in RoundResult.objects.filter(game=game).order_by("round")
    ]
    record: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "game": {
            "id": str(game.pk),
            "kind": game.kind,
            "name": rules.name,
            "visibility": game.visibility,
            "created_at": _when(game.created_at),
            "started_at": _when(game.started_at),
            "finished_at": _when(game.finished_at),
        },
        "setup": setup,
        "players": _players(seats),
        "moves": moves,
        "result": {
            "scores": rules.scores(state),
            "winner": rules.match_winner(state),
            "rounds": rounds,
            "state_digest": state_digest(rules, state),
        },
        "rating_changes": [],
        "chat": [],
    }
    for _, parts in record_building.send(sender=Game, game=game, seats=seats, reader=reader):
        for name in EXTENSION_PARTS:
            if isinstance(parts, dict) and name in parts:
                record[name] = parts[name]
    return record


# ---- replaying ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Replayed:
    kind: str
    moves: int
    rounds: int
    scores: list[int]
    winner: int | None

    def summary(self, record: dict[str, Any]) -> str:
        players = record.get("players")
        names = {
            p.get("seat"): p.get("name")
            for p in (players if isinstance(players, list) else [])
            if isinstance(p, dict)
        }
        winner = "none" if self.winner is None else f"seat {self.winner} ({names.get(self.winner)})"
        return (
            f"ok: {self.kind} game {record.get('game', {}).get('id')} replayed to its end: "
            f"{self.moves} moves, {self.rounds} round(s), winner {winner}, scores {self.scores}"
        )


def _short(value: Any, limit: int = 160) -> str:
    text = json.dumps(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _events_differ(recorded: list[Event], produced: list[Event]) -> str | None:
    """How the move's events differ from the engine's, or None. The move's events end with the
    engine's: the service logs its own (a bot taking a seat over, a player taking theirs back)
    before them."""
    produced = _json(produced)
    ours = recorded[max(0, len(recorded) - len(produced)) :]
    for i, (logged, made) in enumerate(zip(ours, produced, strict=False)):
        if logged != made:
            return f"the engine's event {i + 1} is {_short(made)}, the record has {_short(logged)}"
    if len(ours) != len(produced):
        return f"the engine made {len(produced)} events, the record has {len(recorded)}"
    return None


def _step(rules: Rules[Any, Any], state: Any, move: dict[str, Any], setup: dict[str, Any]) -> Any:
    number = move.get("number")
    events = move.get("events")
    if not isinstance(events, list) or not all(isinstance(e, dict) for e in events):
        raise Divergence(number, "its events are not a list of objects")
    rng = ReplayRNG(events)
    try:
        if state is None:
            if move.get("action") != {"type": "start"}:
                raise Divergence(number, "the first move is not the start of the game")
            state, produced = rules.new_game(rng=rng, **setup)
        else:
            action = rules.action_from_dict(move.get("action"))
            state, produced = apply_move(rules, state, action, rng)
    except (EngineError, ReplayError) as exc:
        raise Divergence(number, f"the engine refuses it: {exc}") from exc
    except (TypeError, ValueError, KeyError, IndexError, AttributeError) as exc:
        # A hand-edited record can hold values of any type where the engine expects its own.
        raise Divergence(number, f"malformed: {exc!r}") from exc
    if rng.remaining:
        raise Divergence(number, "it records more chance outcomes than the engine used")
    differ = _events_differ(events, produced)
    if differ:
        raise Divergence(number, differ)
    if move.get("position") != position(rules, state):
        raise Divergence(number, "the table after it differs from the recorded position")
    return state


def replay_record(record: Any) -> Replayed:
    """Replay ``record`` through the engine and check each move's events and position and the
    recorded end. Raises ``Divergence`` at the first difference."""
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise Divergence(None, f"not a game record (format is not {FORMAT!r})")
    if record.get("version") != VERSION:
        raise Divergence(None, f"record version {record.get('version')!r}; this reads {VERSION}")
    game = record.get("game")
    kind = game.get("kind") if isinstance(game, dict) else None
    if kind not in registry.kinds():
        raise Divergence(None, f"unknown game kind {kind!r}")
    rules = registry.get_game(kind)
    setup = record.get("setup")
    moves = record.get("moves")
    if not isinstance(setup, dict) or set(setup) != SETUP_KEYS:
        raise Divergence(None, f"its setup must have exactly {sorted(SETUP_KEYS)}")
    if not isinstance(moves, list) or not moves:
        raise Divergence(None, "it has no moves")
    state = None
    for move in _as_moves(moves):
        state = _step(rules, state, move, setup)
    result = record.get("result")
    if not isinstance(result, dict):
        raise Divergence(None, "it has no result")
    last = moves[-1].get("number")
    if not rules.is_match_over(state):
        raise Divergence(last, "the match is not over after the last move")
    rounds = result.get("rounds")
    replayed = Replayed(
        kind=kind,
        moves=len(moves),
        rounds=len(rounds) if isinstance(rounds, list) else 0,
        scores=rules.scores(state),
        winner=rules.match_winner(state),
    )
    if result.get("scores") != replayed.scores or result.get("winner") != replayed.winner:
        raise Divergence(last, f"it ends with scores {replayed.scores}, winner {replayed.winner}")
    if result.get("state_digest") != state_digest(rules, state):
        raise Divergence(last, "the final state differs from the recorded one (state_digest)")
    return replayed


def _as_moves(moves: Iterable[Any]) -> Iterable[dict[str, Any]]:
    for move in moves:
        if not isinstance(move, dict):
            raise Divergence(None, "a move is not an object")
        yield move
