"""The Uno family's game state: plain data that round-trips through JSON without loss.

Lists of cards are ordered top first: ``draw_pile[0]`` is the next card drawn,
``discard_pile[0]`` is the card in play, ``hand[0]`` is the top of a (face-down) hand.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, Final

# Turn phases.
PLAY: Final = "play"  # the current seat must play a card or draw
DRAWN: Final = "drawn"  # the current seat drew voluntarily: play that card or pass
CHOOSE: Final = "choose"  # a seat must choose a target for a card already on the table
# stacking: the current seat must stack a draw card on the pending total or take it
STACK: Final = "stack"
# a Wild Draw Four waits for the next player's answer: accept or challenge
RESPOND: Final = "respond"
ROUND_OVER: Final = "round_over"  # the round is scored; the system deals the next one
MATCH_OVER: Final = "match_over"
PHASES = (PLAY, DRAWN, CHOOSE, STACK, RESPOND, ROUND_OVER, MATCH_OVER)

CLOCKWISE: Final = 1
COUNTERCLOCKWISE: Final = -1

# Options that change no listing or playing path (speed mode is the service's clock; Force Swap
# protection is part of the plain target rules): every other option set to true sends
# legal_actions and apply down the house-rule paths (``State.house``).
PLAIN_PATH_OPTIONS = frozenset({"speed_mode", "force_swap_protection"})


@dataclass(slots=True)
class Seat:
    hand: list[str] = field(default_factory=list)
    active: bool = True  # False once the player has left the game
    uno: bool = False  # said UNO for the current one-card stint
    exposed: bool = False  # holds one card, has not said UNO, and the catch window is open
    skips: int = 0  # lost turns owed, consumed as turns pass this seat
    score: int = 0
    mercy_used: bool = False

    def copy(self) -> Seat:
        return Seat(
            list(self.hand),
            self.active,
            self.uno,
            self.exposed,
            self.skips,
            self.score,
            self.mercy_used,
        )


@dataclass(slots=True)
class State:
    preset: str
    seats: list[Seat]
    draw_pile: list[str]
    discard_pile: list[str]
    options: dict[str, bool] = field(default_factory=dict)
    target_score: int = 500
    direction: int = CLOCKWISE
    current: int = 0
    dealer: int = 0
    phase: str = PLAY
    drawn_card: str | None = None
    # An open choice: {"seat", "card", "effect", "reason": "opening"|"blind"|"response", "uno"};
    # a card waiting for another seat's answer also names its player ("owner"), whom the wait
    # shields from a catch unless "shields_owner" is False (see ``calls.catchable_seats``).
    pending: dict[str, Any] | None = None
    # Stacking: cards owed by the current seat in phase ``stack`` (0 otherwise).
    stack: int = 0
    round: int = 1
    round_results: list[dict[str, Any]] = field(default_factory=list)
    winner: int | None = None  # the match winner
    game: str = "uno_all_wild"
    # The colour named with the wild on top of the discard pile (games with colours); None when
    # the top card is coloured, or in a game without colours.
    colour: str | None = None
    # No Mercy: seats knocked out of this round, their hands set aside face down, and the player
    # of the last card stacked (paid for a knockout). Left out of the JSON while empty, so the
    # games without them store what they always stored.
    knocked_out: list[int] = field(default_factory=list)
    set_aside: list[str] = field(default_factory=list)
    stacker: int | None = None
    # Derived from ``options`` (never stored, not compared): is any option on that takes the
    # house-rule paths? Tested once per action instead of looking each rule up.
    house: bool = field(default=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        self.house = any(on for name, on in self.options.items() if name not in PLAIN_PATH_OPTIONS)

    def copy(self) -> State:
        return copy_state(self)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {}
        for f in fields(self):
            if f.name == "house":
                continue
            value = getattr(self, f.name)
            if f.name in _OMITTED_WHEN_EMPTY and not value and value != 0:
                continue
            if f.name == "seats":
                value = [
                    {sf.name: _plain(getattr(seat, sf.name)) for sf in fields(Seat)}
                    for seat in value
                ]
            data[f.name] = _plain(value)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> State:
        values = dict(data)
        values["seats"] = [Seat(**seat) for seat in data["seats"]]
        return cls(
            **{
                f.name: _plain(values[f.name])
                for f in fields(cls)
                if f.name in values and f.name != "house"
            }
        )

    def active_seats(self) -> list[int]:
        return [i for i, seat in enumerate(self.seats) if seat.active]

    def option(self, name: str) -> bool:
        return bool(self.options.get(name, False))


_OMITTED_WHEN_EMPTY = frozenset({"knocked_out", "set_aside", "stacker"})

# Allocate without __init__ (copy_state assigns every field). ``Seat.__new__``, not
# ``object.__new__``: the same call when interpreted, and the only one a class compiled by mypyc
# (bench/compile_engine.py) accepts.
_new_seat = Seat.__new__
_new_state = State.__new__


def copy_state(s: State, keep_catch_windows: bool = True, copy_lists: bool = True) -> State:
    """``s.copy()``, or with every seat's catch window closed (``exposed`` False) as a turn
    action needs.

    Hand-written (about 20x faster than deepcopy): it must assign every field of State and Seat,
    which _check_copy_state verifies at import.

    ``copy_lists=False`` shares the hands, the two piles and No Mercy's ``knocked_out`` and
    ``set_aside`` with ``s`` instead of copying them: a turn changes one or two of these lists at
    most. The turn actions (play, draw, pass) copy so, and the code they run never changes one of
    these lists in place: it assigns a new list (``piles.draw``, ``turn.play_card``). Anything
    that changes a hand, a pile or one of those two lists in place must work on a full copy.
    """
    seats: list[Seat] = []
    add = seats.append
    for old in s.seats:
        seat = _new_seat(Seat)
        # hands, piles: typed lists; .copy() beats list() and [:]
        seat.hand = old.hand.copy() if copy_lists else old.hand
        seat.active = old.active
        seat.uno = old.uno
        seat.exposed = keep_catch_windows and old.exposed
        seat.skips = old.skips
        seat.score = old.score
        seat.mercy_used = old.mercy_used
        add(seat)
    new = _new_state(State)
    new.preset = s.preset
    new.seats = seats
    if copy_lists:
        new.draw_pile = s.draw_pile.copy()
        new.discard_pile = s.discard_pile.copy()
    else:
        new.draw_pile = s.draw_pile
        new.discard_pile = s.discard_pile
    new.options = s.options  # never mutated after creation
    new.target_score = s.target_score
    new.direction = s.direction
    new.current = s.current
    new.dealer = s.dealer
    new.phase = s.phase
    new.drawn_card = s.drawn_card
    new.pending = dict(s.pending) if s.pending is not None else None
    new.stack = s.stack
    new.round = s.round
    new.round_results = s.round_results  # append-only: replaced, never mutated in place
    new.winner = s.winner
    new.game = s.game
    new.colour = s.colour
    if copy_lists:
        new.knocked_out = s.knocked_out.copy()
        new.set_aside = s.set_aside.copy()
    else:  # No Mercy's lists, like the piles: assigned anew, never changed in place
        new.knocked_out = s.knocked_out
        new.set_aside = s.set_aside
    new.stacker = s.stacker
    new.house = s.house
    return new


def _check_copy_state() -> None:
    """copy_state assigns fields one by one: fail at import, not mid-game, if a field is missed."""
    probe = State(
        "standard",
        [Seat(["x"], uno=True, skips=1)],
        ["y"],
        ["z"],
        pending={"seat": 0},
        stack=2,
        colour="red",
        knocked_out=[0],
        set_aside=["w"],
        stacker=0,
    )
    copies = (copy_state(probe), copy_state(probe, True, False))
    if any(copy != probe for copy in copies):  # pragma: no cover - a missed slot raises first
        raise AssertionError("copy_state does not copy every field of State and Seat")


_check_copy_state()


_ATOMS = frozenset({str, int, bool, float, type(None)})


def _plain(value: Any) -> Any:
    """A deep copy made of JSON types only, so the state shares nothing with its serialised form."""
    # Atoms are copied in place, without a call each: a state is mostly lists of card ids, and
    # every move serialises one and every view reads one.
    if isinstance(value, list | tuple):
        return [v if type(v) in _ATOMS else _plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): v if type(v) in _ATOMS else _plain(v) for k, v in value.items()}
    if isinstance(value, Seat):
        return value.copy()
    return value
