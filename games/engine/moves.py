"""A move as the service records it: one action, and the next round's deal when it ends a round.

Game-neutral. Rounds follow each other without anyone having to ask, so the action that ends a
round and the next round's deal are one move, with one set of chance outcomes: the service
applies moves with this, and every replay of the service's log (moderation, scenarios played
the service's way) must apply them the same way.
"""

from __future__ import annotations

from typing import TypeVar

from .interface import RNG, Event, Game

S = TypeVar("S")
A = TypeVar("A")


def apply_move(game: Game[S, A], state: S, action: A, rng: RNG) -> tuple[S, list[Event]]:
    """Apply ``action``; when it ends a round (and not the match), deal the next round too."""
    state, events = game.apply(state, action, rng)
    if game.is_round_over(state):
        state, more = game.apply(state, game.next_round_action(), rng)
        events = events + more
    return state, events
