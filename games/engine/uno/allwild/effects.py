"""What each card does once played ("next player" = next in the current direction).

One function per effect, looked up in ``EFFECTS`` by card type; each takes the player's seat, the
chosen target (or None), whether the card was the player's last, the RNG and the event list.
"""

from __future__ import annotations

from collections.abc import Callable

from ...interface import RNG, Event
from .. import effects as family
from ..hands import pass_hands, swap
from ..piles import draw
from ..state import State
from ..turns import next_active
from .cards import (
    DRAW2,
    DRAW4,
    DRAW_AMOUNT,
    FORCE_SWAP,
    REVERSE,
    SHUFFLE_HANDS,
    SKIP,
    SKIP_TWO,
    TARGETED_DRAW2,
    WILD,
)
from .house_rules import stacking
from .targets import check_target

Effect = Callable[[State, int, "int | None", bool, RNG, list[Event]], None]


def wild(
    s: State, seat: int, target: int | None, going_out: bool, rng: RNG, ev: list[Event]
) -> None:
    """Nothing (a colour may be named; it changes nothing)."""


def draw_next(
    s: State, seat: int, kind: str, amount: int, going_out: bool, rng: RNG, ev: list[Event]
) -> None:
    """The next player draws ``amount`` and loses a turn. Under stacking they may answer first
    (not when the card was the player's last: the round is over, they draw the total)."""
    victim = next_active(s, seat, s.direction)
    total = s.stack + amount
    s.stack = 0
    if s.house and s.options.get("stacking") and not going_out:
        stacking.pass_on(s, victim, total, ev)
        return
    family.draw_and_lose_turn(s, victim, total, rng, ev, kind if total == amount else "stack")


def draw2(
    s: State, seat: int, target: int | None, going_out: bool, rng: RNG, ev: list[Event]
) -> None:
    draw_next(s, seat, DRAW2, DRAW_AMOUNT[DRAW2], going_out, rng, ev)


def draw4(
    s: State, seat: int, target: int | None, going_out: bool, rng: RNG, ev: list[Event]
) -> None:
    draw_next(s, seat, DRAW4, DRAW_AMOUNT[DRAW4], going_out, rng, ev)


def reverse(
    s: State, seat: int, target: int | None, going_out: bool, rng: RNG, ev: list[Event]
) -> None:
    """The direction flips; with 2 players it acts as Skip."""
    family.reverse(s, seat, ev)


def skip(
    s: State, seat: int, target: int | None, going_out: bool, rng: RNG, ev: list[Event]
) -> None:
    """The next turn that belongs to another player is lost."""
    family.skip(s, seat, 1, ev)


def skip_two(
    s: State, seat: int, target: int | None, going_out: bool, rng: RNG, ev: list[Event]
) -> None:
    """The next two turns that belong to other players are lost (2 players: the opponent twice)."""
    family.skip(s, seat, 2, ev)


def targeted_draw2(
    s: State, seat: int, target: int | None, going_out: bool, rng: RNG, ev: list[Event]
) -> None:
    """The chosen other player draws 2 and does not lose a turn, with 2 players too."""
    assert target is not None
    draw(s, target, 2, rng, ev, TARGETED_DRAW2)


def force_swap(
    s: State, seat: int, target: int | None, going_out: bool, rng: RNG, ev: list[Event]
) -> None:
    """Swap entire hands with the chosen player; as the last card it fizzles. The target is judged
    on the hands as they are now (the second card of a pair: after the first swap)."""
    if going_out:
        ev.append({"type": "fizzled", "seat": seat, "card_type": FORCE_SWAP})
    elif target is None:  # every other player is protected
        ev.append({"type": "no_effect", "seat": seat, "card_type": FORCE_SWAP})
    else:
        check_target(s, seat, FORCE_SWAP, target, going_out)
        swap(s, seat, target, ev)


def shuffle_hands(
    s: State, seat: int, target: int | None, going_out: bool, rng: RNG, ev: list[Event]
) -> None:
    """Every player passes their whole hand to the next player; as the last card it fizzles."""
    if going_out:
        ev.append({"type": "fizzled", "seat": seat, "card_type": SHUFFLE_HANDS})
    else:
        pass_hands(s, s.direction, ev, seat)


EFFECTS: dict[str, Effect] = {
    WILD: wild,
    DRAW2: draw2,
    DRAW4: draw4,
    REVERSE: reverse,
    SKIP: skip,
    SKIP_TWO: skip_two,
    TARGETED_DRAW2: targeted_draw2,
    FORCE_SWAP: force_swap,
    SHUFFLE_HANDS: shuffle_hands,
}
