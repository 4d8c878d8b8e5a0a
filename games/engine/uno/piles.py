"""The draw pile: drawing, and reshuffling the discards when it runs out.

Cards are never created or lost: when the pile is empty, every discard but the top card is
shuffled into a new pile; if that is still not enough, what exists is drawn and the rest is not.
"""

from __future__ import annotations

from ..interface import RNG, Event
from .chance import shuffle
from .hands import hand_changed
from .state import State


def can_draw(s: State) -> bool:
    """Something is left to draw: the pile, or discards under the top card to reshuffle."""
    return bool(s.draw_pile) or len(s.discard_pile) > 1


def draw(s: State, seat: int, count: int, rng: RNG, ev: list[Event], reason: str) -> list[str]:
    """``seat`` draws up to ``count`` cards, each on top of its hand; returns them.

    Assigns a new hand and new pile lists rather than changing the old ones, which may be shared
    with the state an action was given (see ``state.copy_state``).
    """
    pile = s.draw_pile
    if len(pile) >= count:
        drawn = pile[:count]
        s.draw_pile = pile[count:]
    else:
        pile = s.draw_pile = pile.copy()  # a list of its own, changed in place below
        drawn = []
        for _ in range(count):
            if not pile:
                if len(s.discard_pile) <= 1:
                    break
                reshuffle(s, rng, ev)  # refills s.draw_pile (this list) in place
            drawn.append(pile.pop(0))
    me = s.seats[seat]
    me.hand = drawn[::-1] + me.hand
    ev.append(
        {
            "type": "draw",
            "seat": seat,
            "count": len(drawn),
            "wanted": count,
            "reason": reason,
            # A face-down hand (blind play) is face down for its owner too.
            "to": None if s.house and s.options.get("blind_play") else seat,
            "secret": {"cards": drawn},
        }
    )
    if drawn:
        hand_changed(s, seat)
    return drawn


def reshuffle(s: State, rng: RNG, ev: list[Event]) -> None:
    pile = s.discard_pile[1:]
    s.discard_pile = s.discard_pile[:1]  # a new list: the old one may be shared
    shuffle(rng, pile, ev)
    s.draw_pile.extend(pile)
    ev.append({"type": "reshuffled", "count": len(pile)})
