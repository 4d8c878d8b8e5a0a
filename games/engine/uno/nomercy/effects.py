"""What each No Mercy card does once played (rulings: "Effects"), by rank. Number cards but 7 and
0 do nothing. A card that was its player's last does nothing (``play.play_card``), except a Draw
card, whose total the next player draws at once (``draw_card``)."""

from __future__ import annotations

from collections.abc import Callable

from ...interface import RNG, Event
from .. import effects as family
from ..hands import hand_changed, pass_hands, swap
from ..stacking import pass_on
from ..state import State
from ..turns import active_count, await_choice, direction_name, next_active
from .cards import (
    COLOUR_OF,
    DISCARD_ALL,
    DRAW_VALUE,
    RANK_OF,
    REVERSE,
    ROULETTE,
    SKIP,
    SKIP_ALL,
    WRD4,
)
from .knockout import draw_cards

# (state, seat, card, target) -> None
Effect = Callable[[State, int, str, "int | None", list[Event]], None]


def seven(s: State, seat: int, card: str, target: int | None, ev: list[Event]) -> None:
    """Swap whole hands with the chosen player (checked when the play was)."""
    assert target is not None
    swap(s, seat, target, ev)


def zero(s: State, seat: int, card: str, target: int | None, ev: list[Event]) -> None:
    """Every hand in the round goes to the next player in the direction of play."""
    pass_hands(s, s.direction, ev, seat)


def skip(s: State, seat: int, card: str, target: int | None, ev: list[Event]) -> None:
    family.skip(s, seat, 1, ev)


def reverse(s: State, seat: int, card: str, target: int | None, ev: list[Event]) -> None:
    family.reverse(s, seat, ev)


def skip_all(s: State, seat: int, card: str, target: int | None, ev: list[Event]) -> None:
    """Every other player in the round loses a turn: the player plays again."""
    family.skip(s, seat, active_count(s) - 1, ev)


def discard_all(s: State, seat: int, card: str, target: int | None, ev: list[Event]) -> None:
    """Every other card of its colour in the hand goes beneath it, in hand order."""
    colour = COLOUR_OF[card]
    me = s.seats[seat]
    shed = [c for c in me.hand if COLOUR_OF[c] == colour]
    if not shed:
        return
    me.hand = [c for c in me.hand if COLOUR_OF[c] != colour]
    s.discard_pile = [s.discard_pile[0], *shed, *s.discard_pile[1:]]
    ev.append({"type": "discarded_all", "seat": seat, "colour": colour, "cards": shed})
    hand_changed(s, seat)


def roulette(s: State, seat: int, card: str, target: int | None, ev: list[Event]) -> None:
    """The next player names a colour (phase ``choose``), then reveals until it comes. Naming
    it is the victim's turn action, not a choice the card's player still owes: a player left
    with one card stays open to a catch until the colour is named (``shields_owner``)."""
    victim = next_active(s, seat, s.direction)
    s.current = victim
    await_choice(s, victim, card, "colour", "roulette", owner=seat, shields_owner=False)


EFFECTS: dict[str, Effect] = {
    "7": seven,
    "0": zero,
    SKIP: skip,
    REVERSE: reverse,
    SKIP_ALL: skip_all,
    DISCARD_ALL: discard_all,
    ROULETTE: roulette,
}


def draw_card(s: State, seat: int, card: str, going_out: bool, rng: RNG, ev: list[Event]) -> None:
    """A Draw card starts or extends the stack on the next player (after a Wild Reverse Draw 4,
    in the new direction; with 2 players in the round that is its own player). As the player's
    last card, the next player draws the total at once (always the opponent with 2 players)."""
    rank = RANK_OF[card]
    if rank == WRD4:
        s.direction = -s.direction
        ev.append({"type": "direction", "direction": direction_name(s.direction)})
    total = s.stack + DRAW_VALUE[rank]
    victim = next_active(s, seat, s.direction)
    if going_out:
        s.stack = 0
        s.stacker = None
        draw_cards(s, victim, total, rng, ev, "stack", mercy=False)
        return
    if rank == WRD4 and active_count(s) == 2:
        victim = seat
    s.stacker = seat
    pass_on(s, victim, total, ev)
