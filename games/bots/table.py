"""What a bot knows about the table, in one small shape built from a seat's view.

The expert's playouts build the same shape from a (sampled) engine State, so the heuristic that
plays the bot's moves and the one that plays the playouts are one function. Nothing here reads a
hand other than the bot's own: from a view there is nothing else to read, and the State builder
copies only what the view of that seat shows (sizes, flags) plus the seat's own hand.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.engine.uno.actions import CHOOSE_TARGET, DRAW, PASS, PLAY, PLAY_DRAWN
from games.engine.uno.allwild.cards import card_type
from games.engine.uno.state import CLOCKWISE, DRAWN, State

TURN_TYPES = frozenset({PLAY, DRAW, PLAY_DRAWN, PASS, CHOOSE_TARGET})


# The engine's public lookup (cached per id), under a name that reads well in the rules.
kind_of = card_type


@dataclass(slots=True)
class Table:
    me: int
    sizes: list[int]  # hand size per seat (0 once a seat has left)
    active: list[bool]
    uno: list[bool]  # said UNO for its current one-card stint
    direction: int  # +1 clockwise, -1 counter-clockwise
    current: int
    phase: str
    hand: list[str]  # my card ids, top first
    drawn: str | None  # the card I drew this turn (phase "drawn")
    pending_effect: str | None  # my open choice (phase "choose")
    can_draw: bool
    protection: bool  # Force Swap protection house rule
    catchable: list[int]  # seats anyone may catch now
    draw_size: int = 0

    # -- derived facts ----------------------------------------------------------------------

    def opponents(self) -> list[int]:
        return [i for i, on in enumerate(self.active) if on and i != self.me]

    def next_seat(self, seat: int | None = None, direction: int | None = None) -> int:
        """The next active seat from ``seat`` (me by default) in ``direction`` (play's)."""
        seat = self.me if seat is None else seat
        step = self.direction if direction is None else direction
        n = len(self.active)
        i = seat
        for _ in range(n):
            i = (i + step) % n
            if self.active[i]:
                return i
        return seat

    def previous_seat(self) -> int:
        return self.next_seat(direction=-self.direction)

    def swappable(self, seat: int) -> bool:
        """May a Force Swap (not my last card) name ``seat``?"""
        return (
            seat != self.me
            and self.active[seat]
            and not (self.protection and self.sizes[seat] == 1)
        )


def from_view(view: dict[str, Any]) -> Table:
    """The table as the view's seat sees it."""
    me = view["you"]
    seats = view["seats"]
    legal = view.get("legal_actions") or []
    drawn = view.get("drawn_card")
    pending = view.get("pending_choice")
    return Table(
        me=me,
        sizes=[s["hand_size"] if s["active"] else 0 for s in seats],
        active=[bool(s["active"]) for s in seats],
        uno=[bool(s["uno"]) for s in seats],
        direction=CLOCKWISE if view["direction"] == "clockwise" else -CLOCKWISE,
        current=view["current_seat"],
        phase=view["phase"],
        hand=[c["id"] for c in view["hand"] or []],  # null under blind play
        drawn=drawn["id"] if drawn else None,
        pending_effect=pending["effect"] if pending and pending["seat"] == me else None,
        can_draw=any(a["type"] == DRAW for a in legal),
        protection=bool(view.get("options", {}).get("force_swap_protection")),
        catchable=[s["seat"] for s in seats if s["catchable"]],
        draw_size=view["draw_size"],
    )


def from_state(s: State, me: int, can_draw: bool) -> Table:
    """The table as seat ``me`` would see it in ``s`` (a sampled world inside a playout).

    Catch windows are left out (playouts assume every UNO is said), so is anyone's hand but
    ``me``'s."""
    seats = s.seats
    pending = s.pending
    return Table(
        me=me,
        sizes=[len(x.hand) if x.active else 0 for x in seats],
        active=[x.active for x in seats],
        uno=[x.uno for x in seats],
        direction=s.direction,
        current=s.current,
        phase=s.phase,
        hand=seats[me].hand,
        drawn=s.drawn_card if s.phase == DRAWN else None,
        pending_effect=pending["effect"] if pending and pending["seat"] == me else None,
        can_draw=can_draw,
        protection=bool(s.options.get("force_swap_protection")),
        catchable=[],
        draw_size=len(s.draw_pile),
    )
