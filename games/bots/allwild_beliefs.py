"""What All Wild's plays reveal about the hands behind them, for the expert's samples.

In All Wild every card can be played at any time, so a play says nothing through the rules;
it says something through the player's *choice*. The expert's rollouts model every opponent as
the heuristic (games/bots/heuristic.py), and the heuristic gets rid of the card worth least to
keep first (``PLAIN_RANK``; the draw cards first, ``ATTACK_RANK``, when it attacks): a seat that
played a Skip when nothing special was going on holds no plain Wild and no Reverse. Dealing the
samples uniformly ignores that, and the search's favourite moves were measured to gain on the
samples and not on the true hands (docs/bots.md). So the samples follow the same model:

- ``read`` replays the seat's visible history of the round (hand sizes, direction, swaps,
  Shuffle Hands) and keeps, per seat, the card kinds it is believed not to hold (``absent``)
  and how many of its cards arrived since that belief was formed (``fresh``: drawn cards are
  unconstrained). A belief travels with its hand through a Force Swap or Shuffle Hands.
- Evidence: an ordinary play (not the seat's last card, not the card it just drew, no next
  player on one card to stop, not a Force Swap or Shuffle Hands, which their own rules play)
  shows that no kind ranked below it was held; a voluntary draw while the next player holds
  one card (the heuristic's strategic draw) shows that nothing that stops them was held.
- ``deal`` deals the cards the seat cannot see with those kinds ``WEIGHT`` times less likely in
  the hands believed not to hold them (a soft belief: a person does not play like the
  heuristic), then the rest to the draw pile.

When the replay disagrees with the view (hand sizes differ: an event this model does not
know), the expert falls back to uniform samples.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from games.engine.uno.allwild.cards import (
    DRAW2,
    DRAW4,
    FORCE_SWAP,
    SHUFFLE_HANDS,
    SKIP,
    SKIP_TWO,
    TARGETED_DRAW2,
    TYPE_OF,
)
from games.engine.uno.state import DRAWN, State

from .heuristic import ATTACK_LIMIT, ATTACK_RANK, CLOSE, PLAIN_RANK

# How much less likely a card of a kind believed absent is dealt to that hand (soft evidence).
WEIGHT = 0.05
# What stops a next player on one card (the heuristic's stop_threat); a voluntary draw then
# shows none of them was held.
STOPPERS = frozenset({DRAW4, DRAW2, FORCE_SWAP, TARGETED_DRAW2, SHUFFLE_HANDS, SKIP_TWO, SKIP})
# Kinds played by a rule of their own (a swap or shuffle that pays), not by rank.
BY_RULE = frozenset({FORCE_SWAP, SHUFFLE_HANDS})


@dataclass
class Beliefs:
    sizes: list[int]
    active: list[bool]
    direction: int = 1
    absent: list[frozenset[str]] = field(default_factory=list)
    fresh: list[int] = field(default_factory=list)
    drew: int | None = None  # the seat that just drew voluntarily (its next play is that card)

    def next_seat(self, seat: int) -> int:
        n = len(self.sizes)
        i = seat
        for _ in range(n):
            i = (i + self.direction) % n
            if self.active[i]:
                return i
        return seat


def read(history: list[dict[str, Any]], me: int) -> Beliefs | None:
    """The beliefs after the round's visible events (None: no round start in them)."""
    start = None
    for k in range(len(history) - 1, -1, -1):
        if history[k]["type"] == "round_started":
            start = k
            break
    if start is None:
        return None
    sizes = list(history[start]["hand_sizes"])
    n = len(sizes)
    b = Beliefs(sizes, [True] * n, absent=[frozenset()] * n, fresh=[0] * n)
    for e in history[start + 1 :]:
        _step(b, e, me)
    return b


def _step(b: Beliefs, e: dict[str, Any], me: int) -> None:
    t = e["type"]
    if t == "play":
        _play(b, e["seat"], TYPE_OF.get(e["card"], e.get("card_type", "")), me)
    elif t == "draw":
        seat = e["seat"]
        b.sizes[seat] += e["count"]
        b.fresh[seat] += e["count"]
        if e.get("reason") == "voluntary":
            if b.sizes[b.next_seat(seat)] == 1 and seat != me:
                # The strategic draw: nothing in the hand (before this card) stopped them.
                b.absent[seat] = b.absent[seat] | STOPPERS
                b.fresh[seat] = e["count"]
            b.drew = seat
            return
    elif t == "swap":
        a, c = e["seat"], e["target"]
        b.sizes[a], b.sizes[c] = b.sizes[c], b.sizes[a]
        b.absent[a], b.absent[c] = b.absent[c], b.absent[a]
        b.fresh[a], b.fresh[c] = b.fresh[c], b.fresh[a]
        for seat in (a, c):  # my former hand: I knew it, the model does not track it
            if b.absent[seat] and (seat != me) and (a == me or c == me):
                b.absent[seat], b.fresh[seat] = frozenset(), 0
    elif t == "hands_passed":
        _pass_hands(b, 1 if e["direction"] == "clockwise" else -1)
    elif t == "direction":
        b.direction = 1 if e["direction"] == "clockwise" else -1
    elif t == "left":
        b.active[e["seat"]] = False
        b.sizes[e["seat"]] = 0
    if t not in ("uno", "catch"):
        b.drew = None


def _play(b: Beliefs, seat: int, kind: str, me: int) -> None:
    h = b.sizes[seat]
    b.sizes[seat] = h - 1
    if seat == me or b.drew == seat or h <= 1 or kind in BY_RULE or kind not in PLAIN_RANK:
        return
    if b.sizes[b.next_seat(seat)] == 1:
        return  # stopping the next player: its own order of cards
    opponents = [i for i, on in enumerate(b.active) if on and i != seat]
    if not opponents:
        return
    smallest = min(b.sizes[i] for i in opponents)
    attack = smallest <= CLOSE or (len(opponents) == 1 and b.sizes[opponents[0]] < ATTACK_LIMIT)

    def rank(k: str) -> float:
        if attack and k in ATTACK_RANK:
            return ATTACK_RANK[k]
        return PLAIN_RANK[k]

    mine = rank(kind)
    lower = frozenset(k for k in PLAIN_RANK if rank(k) < mine)
    kept = b.absent[seat] if b.fresh[seat] == 0 else frozenset()
    b.absent[seat] = lower | kept
    b.fresh[seat] = 0


def _pass_hands(b: Beliefs, direction: int) -> None:
    """Every hand goes to the next seat in ``direction`` (and its beliefs with it)."""
    saved = b.direction
    b.direction = direction
    order = [i for i, on in enumerate(b.active) if on]
    dest = {i: b.next_seat(i) for i in order}
    b.direction = saved
    sizes, absent, fresh = list(b.sizes), list(b.absent), list(b.fresh)
    for i, j in dest.items():
        b.sizes[j], b.absent[j], b.fresh[j] = sizes[i], absent[i], fresh[i]


def deal(s: State, me: int, b: Beliefs, rng: Any) -> State:
    """A sample of ``s`` for ``me``: the hidden cards dealt following the beliefs ``b``.

    ``rng`` is the search's ``CanonicalRNG``: the hidden cards are put in order first, so the
    sample depends only on which cards are hidden, not on where they lay."""
    out = s.copy()
    others = [i for i, x in enumerate(out.seats) if i != me and x.active]
    pool = sorted([c for i in others for c in out.seats[i].hand] + list(out.draw_pile))
    # The most constrained hands first, so they find the cards they may hold.
    for i in sorted(others, key=lambda i: (-len(b.absent[i]), i)):
        size = len(out.seats[i].hand)
        free = min(b.fresh[i], size)
        absent = b.absent[i]
        if absent:
            # Weighted sampling without replacement (Efraimidis-Spirakis): the largest keys.
            keys = [
                (math.log(rng.random() or 1e-300) / (WEIGHT if TYPE_OF.get(c) in absent else 1), c)
                for c in pool
            ]
            keys.sort(reverse=True)
            picked = [c for _, c in keys[: size - free]]
        else:
            picked = []
        taken = set(picked)
        rest = [c for c in pool if c not in taken]
        rng.shuffle(rest)
        hand = picked + rest[: size - len(picked)]
        taken.update(hand)
        pool = [c for c in pool if c not in taken]
        out.seats[i].hand = hand
    rng.shuffle(pool)
    out.draw_pile = pool
    return out


def consistent(b: Beliefs, s: State, me: int) -> bool:
    """Can ``deal`` sample ``s`` for ``me`` with ``b``: the replay agrees with the state's hand
    sizes (the model knew every event), and no other seat holds a card it just drew (the
    search runs on the seat's own turn)."""
    if s.phase == DRAWN and s.current != me:
        return False
    return b.sizes == [len(x.hand) if x.active else 0 for x in s.seats]


__all__ = ["Beliefs", "consistent", "deal", "read"]
