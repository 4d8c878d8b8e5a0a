"""Which bot is asked to act next, and what it may do then: one order for the service and the
arena, so that bots race for UNO and catches the same way in both.

A seat that holds one card without having said UNO is asked first, for the word only; then the
other seats, off turn, for a catch (or their own UNO); then the seat on turn, for anything. So
nobody is caught who would have said UNO at once, and nobody escapes a catch by moving first:
the chance to catch stays open until the next turn action (RULES.md).
"""

from __future__ import annotations

from collections.abc import Collection

from games.engine.uno.state import MATCH_OVER, ROUND_OVER, State

UNO_ONLY = frozenset({"uno"})
FREE = frozenset({"uno", "catch", "mercy"})  # free actions: no turn needed (mercy: a house rule)


def to_ask(state: State, bots: Collection[int]) -> list[tuple[int, frozenset[str] | None]]:
    """(seat, the action types it may take now, None for any) for the bot seats ``bots``, in
    the order they are asked. The first that answers with an allowed action acts."""
    if state.phase in (ROUND_OVER, MATCH_OVER):
        return []
    if not isinstance(state, State):
        # A game without free actions (Gin Rummy): only the seat on turn acts.
        return [(state.current, None)] if state.current in bots else []
    seats = state.seats
    n = len(seats)
    order = [(state.current + k) % n for k in range(n)]
    out: list[tuple[int, frozenset[str] | None]] = []
    if any(s.active and len(s.hand) == 1 and not s.uno for s in seats):
        unsaid = [
            i for i in order if seats[i].active and len(seats[i].hand) == 1 and not seats[i].uno
        ]
        out += [(i, UNO_ONLY) for i in unsaid if i in bots]
        out += [(i, FREE) for i in order[1:] if i in bots and seats[i].active and i not in unsaid]
    if state.current in bots and seats[state.current].active:
        out.append((state.current, None))
    return out
