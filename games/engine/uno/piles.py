"""The draw pile: drawing, and reshuffling the discards when it runs out.

Cards are never created or lost: when the pile is empty, every discard but the top card (and, in
No Mercy, every hand set aside by a knockout) is shuffled into a new pile; if that is still not
enough, what exists is drawn and the rest is not. Every draw of every Uno game reshuffles here.
"""

from __future__ import annotations

from ..interface import RNG, Event
from .chance import shuffle
from .hands import hand_changed
from .state import State


def can_draw(s: State) -> bool:
    """Something is left to draw: the pile, or cards to reshuffle into it."""
    return bool(s.draw_pile) or len(s.discard_pile) > 1 or bool(s.set_aside)


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
        drawn = list(pile)  # the old list may be shared with the state an action was given
        s.draw_pile = []
        if can_draw(s):
            reshuffle(s, rng, ev)
            more = count - len(drawn)
            drawn = [*drawn, *s.draw_pile[:more]]
            s.draw_pile = s.draw_pile[more:]
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
    """The draw pile has run out: every discard but the top card and every set-aside hand (No
    Mercy's knockouts) are shuffled into a new pile, under whatever is still on it.

    Assigns new lists: the old ones may be shared with the state an action was given."""
    pile = [*s.discard_pile[1:], *s.set_aside]
    s.discard_pile = s.discard_pile[:1]
    s.set_aside = []
    shuffle(rng, pile, ev)
    s.draw_pile = [*s.draw_pile, *pile]
    ev.append({"type": "reshuffled", "count": len(pile)})
