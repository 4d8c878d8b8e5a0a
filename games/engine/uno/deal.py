"""Setting up a match and dealing a round.

Round 1's dealer is a random seat; each later round the deal passes one active seat clockwise.
Every player gets ``hand_size`` cards, the next card starts the discard pile, the rest is the draw
pile; the player clockwise from the dealer starts, and every round starts clockwise.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple, Protocol

from .. import errors as E
from ..errors import EngineError
from ..interface import RNG, Event
from .chance import choice, shuffle
from .piles import draw
from .state import CLOCKWISE, COUNTERCLOCKWISE, PLAY, ROUND_OVER, Seat, State
from .turns import direction_name, next_active, seats_from


def check_setup(players: int, target_score: int, min_players: int, max_players: int) -> None:
    if (
        not isinstance(players, int)
        or isinstance(players, bool)
        or not min_players <= players <= max_players
    ):
        raise EngineError(E.INVALID_SETUP, f"a game has {min_players} to {max_players} players")
    if not isinstance(target_score, int) or isinstance(target_score, bool) or target_score < 0:
        raise EngineError(E.INVALID_SETUP, "target_score is a whole number, 0 or more")


class NewGame(Protocol):
    """A game's ``new_game``: a new match with round 1 dealt, the dealer a random seat."""

    # The defaults say only that ``preset`` and ``target_score`` may be left out: their values
    # are never read (each game's come from its ``Setup``). Not ``...``: mypyc
    # (bench/compile_engine.py) checks a default against its type at import.
    def __call__(
        self,
        *,
        players: int,
        rng: RNG,
        preset: str = "",
        options: object = None,
        target_score: int = 0,
    ) -> tuple[State, list[Event]]: ...


class Deck(Protocol):
    """A preset's deck: every card id, and what each card type left in a hand is worth."""

    @property
    def card_ids(self) -> tuple[str, ...]: ...

    @property
    def points(self) -> Mapping[str, int]: ...


class Setup(NamedTuple):
    """What a game's matches are made of: its kind, its decks by preset, (fewest, most) players,
    the default preset and target score."""

    game: str
    presets: Mapping[str, Deck]
    seats: tuple[int, int]
    preset: str
    target_score: int


def match_starter(
    setup: Setup,
    validate: Callable[[Any], dict[str, bool]],
    deal_round: Callable[[State, RNG, list[Event]], None],
) -> NewGame:
    """The game's ``new_game``, with the ``setup``'s defaults: a new match, options checked by
    ``validate``, round 1 dealt by ``deal_round``."""
    game, presets, seats, default_preset, default_target = setup

    def new_game(
        *,
        players: int,
        rng: RNG,
        preset: str = default_preset,
        # Any object: ``validate`` refuses a malformed value with invalid_setup, also when mypyc
        # compiled this (it would raise TypeError on a value outside the annotation).
        options: object = None,
        target_score: int = default_target,
    ) -> tuple[State, list[Event]]:
        """A new match with round 1 dealt: the dealer is a random seat."""
        if preset not in presets:
            raise EngineError(E.INVALID_SETUP, f"unknown preset {preset!r}")
        check_setup(players, target_score, *seats)
        opts = validate(options or {})
        events: list[Event] = []
        state = new_match(
            game=game,
            players=players,
            preset=preset,
            options=opts,
            target_score=target_score,
            rng=rng,
            ev=events,
        )
        deal_round(state, rng, events)
        return state, events

    return new_game


def new_match(
    *,
    game: str,
    players: int,
    preset: str,
    options: dict[str, bool],
    target_score: int,
    rng: RNG,
    ev: list[Event],
) -> State:
    """A match with no round dealt yet (phase ``round_over``): the dealer is a random seat."""
    state = State(
        preset=preset,
        seats=[Seat() for _ in range(players)],
        draw_pile=[],
        discard_pile=[],
        options=options,
        target_score=target_score,
        phase=ROUND_OVER,
        round=0,
        game=game,
    )
    dealer = choice(rng, list(range(players)), ev)
    # The first deal passes to the seat clockwise from the dealer we drew, so start one back.
    state.dealer = (dealer - 1) % players
    return state


def deal(s: State, deck: list[str], hand_size: int, rng: RNG, ev: list[Event]) -> None:
    """Start the next round with ``deck`` (every card of the game): shuffle, deal, flip."""
    s.dealer = next_active(s, s.dealer, CLOCKWISE)
    s.round += 1
    s.direction = CLOCKWISE
    s.drawn_card = None
    s.pending = None
    s.stack = 0
    for seat in s.seats:
        seat.hand = []
        seat.uno = seat.exposed = seat.mercy_used = False
        seat.skips = 0
    shuffle(rng, deck, ev)
    order = seats_from(s, next_active(s, s.dealer, CLOCKWISE), CLOCKWISE)
    # One card at a time around ``order``, each on top of its hand: the j-th seat gets deck[j],
    # deck[j + m], ... with the last dealt on top.
    m = len(order)
    dealt = m * hand_size
    for j, i in enumerate(order):
        s.seats[i].hand = deck[j:dealt:m][::-1]
    top = deck[dealt]
    s.draw_pile = deck[dealt + 1 :]
    s.discard_pile = [top]
    s.phase = PLAY
    s.current = order[0]
    ev.append(
        {
            "type": "round_started",
            "round": s.round,
            "dealer": s.dealer,
            "hand_sizes": [len(seat.hand) for seat in s.seats],
            "card": top,
        }
    )


# ---------------------------------------------------------------------------------------------
# The opening card's effects that every Uno game with these cards shares. None of them can be
# answered (stacked on or challenged): they are the deal's, not a player's.


def open_draw(s: State, first: int, amount: int, rng: RNG, ev: list[Event]) -> None:
    """An opening draw card: the first player draws ``amount`` and is skipped."""
    draw(s, first, amount, rng, ev, "opening")
    open_skip(s, first, ev)


def open_skip(s: State, first: int, ev: list[Event]) -> None:
    """An opening Skip: the first player is skipped; the next player starts."""
    ev.append({"type": "skipped", "seat": first})
    s.current = next_active(s, first, s.direction)


def open_reverse(s: State, ev: list[Event]) -> None:
    """An opening Reverse: the dealer plays first and play goes counter-clockwise."""
    s.direction = COUNTERCLOCKWISE
    ev.append({"type": "direction", "direction": direction_name(s.direction)})
    s.current = s.dealer
