"""Positions for bot tests, made by hand with real card ids so the deck stays whole (112)."""

from __future__ import annotations

import random
from typing import Any

from games.engine.uno.allwild.cards import PRESETS, card_type
from games.engine.uno.allwild.view import view
from games.engine.uno.state import Seat, State


def position(
    hands: list[list[str]],
    *,
    current: int = 0,
    preset: str = "standard",
    top: str = "wild",
    uno: tuple[int, ...] = (),
    exposed: tuple[int, ...] = (),
    direction: int = 1,
    options: dict[str, bool] | None = None,
    seed: int = 0,
) -> State:
    """A round in play: ``hands[i]`` lists the card types seat i holds (top first); one card of
    type ``top`` is face up; every other card is in the draw pile, shuffled by ``seed``."""
    pool = list(PRESETS[preset].card_ids)

    def take(kind: str) -> str:
        card = next(c for c in pool if card_type(c) == kind)
        pool.remove(card)
        return card

    seats = []
    for i, kinds in enumerate(hands):
        seats.append(Seat(hand=[take(k) for k in kinds], uno=i in uno, exposed=i in exposed))
    discard = [take(top)]
    random.Random(seed).shuffle(pool)
    return State(
        preset=preset,
        seats=seats,
        draw_pile=pool,
        discard_pile=discard,
        options={"force_swap_protection": False, **(options or {})},
        direction=direction,
        current=current,
    )


def view_of(state: State, seat: int) -> dict[str, Any]:
    return view(state, seat)


def hide_differently(state: State, seat: int, rng: random.Random) -> State:
    """The same position for ``seat``, other hands and the draw pile dealt anew from the same
    unknown cards (sizes kept)."""
    other = state.copy()
    unknown = [c for i, s in enumerate(other.seats) if i != seat for c in s.hand]
    unknown += other.draw_pile
    rng.shuffle(unknown)
    k = 0
    for i, s in enumerate(other.seats):
        if i != seat:
            s.hand = unknown[k : k + len(s.hand)]
            k += len(s.hand)
    other.draw_pile = unknown[k:]
    return other
