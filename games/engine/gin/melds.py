"""Melds, deadwood and layoffs, computed exactly (never greedily).

A hand is a 52-bit mask (``cards.INDEX``). Every possible meld of the deck is precomputed as a
mask (65 sets and 264 runs), so arranging a hand is a search over the few melds it contains: the
lowest card of what is left is either deadwood or belongs to one of the melds that contain it
and fit, which visits every arrangement once. The minimum is cached by mask, since a turn asks
about the same hands again (listing knocks, then applying one).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from itertools import combinations, product
from typing import NamedTuple

from .cards import VALUE_OF_INDEX, cards_of


def _all_melds() -> tuple[int, ...]:
    melds = []
    for rank in range(13):
        same = [suit * 13 + rank for suit in range(4)]
        for size in (3, 4):
            for combo in combinations(same, size):
                melds.append(sum(1 << i for i in combo))
    for suit in range(4):
        for low in range(13):
            for high in range(low + 2, 13):
                melds.append(sum(1 << (suit * 13 + r) for r in range(low, high + 1)))
    return tuple(melds)


MELDS = _all_melds()
# The melds each card is part of, so the search only looks at melds of the card it places.
MELDS_OF: tuple[tuple[int, ...], ...] = tuple(
    tuple(m for m in MELDS if m >> i & 1) for i in range(52)
)


FULL_SUIT = (1 << 13) - 1
# A suit's 13 bits -> the deadwood value of those ranks, so counting a hand is four look-ups.
_SUIT_VALUE = tuple(sum(VALUE_OF_INDEX[r] for r in range(13) if x >> r & 1) for x in range(1 << 13))
# _RUNS[suit][low][high]: the run of ``suit`` from rank ``low`` to ``high``.
_RUNS = [
    [{high: sum(1 << (suit * 13 + r) for r in range(low, high + 1)) for high in range(low + 2, 13)}
     for low in range(13)]
    for suit in range(4)
]  # fmt: skip
# _SETS[rank]: the five sets of that rank.
_SETS = [
    tuple(
        sum(1 << (s * 13 + r) for s in suits) for n in (3, 4) for suits in combinations(range(4), n)
    )
    for r in range(13)
]


def value_of(mask: int) -> int:
    """The deadwood count of every card of ``mask``."""
    return (
        _SUIT_VALUE[mask & FULL_SUIT]
        + _SUIT_VALUE[mask >> 13 & FULL_SUIT]
        + _SUIT_VALUE[mask >> 26 & FULL_SUIT]
        + _SUIT_VALUE[mask >> 39]
    )


def candidates(mask: int) -> list[int]:
    """Every meld made of cards of ``mask``: found from the hand's shape (three ranks in a row in
    a suit, a rank in three suits) rather than by testing all 329 melds."""
    out: list[int] = []
    suits = [mask >> (13 * k) & FULL_SUIT for k in range(4)]
    for k, x in enumerate(suits):
        starts = x & (x >> 1) & (x >> 2)
        while starts:
            low = starts & -starts
            starts ^= low
            r = low.bit_length() - 1
            high = r + 2
            while high < 12 and x >> (high + 1) & 1:
                high += 1
            runs = _RUNS[k][r]
            out.extend(runs[h] for h in range(r + 2, high + 1))
    a, b, c, d = suits
    threes = (a & b & c) | (a & b & d) | (a & c & d) | (b & c & d)
    while threes:
        low = threes & -threes
        threes ^= low
        out.extend(m for m in _SETS[low.bit_length() - 1] if m & mask == m)
    return out


@lru_cache(maxsize=1 << 17)
def min_deadwood(mask: int) -> int:
    """The lowest deadwood count over every arrangement of the cards of ``mask`` into melds."""
    melds = candidates(mask)
    if not melds:
        return value_of(mask)
    union = 0
    for m in melds:
        union |= m
    # Cards in no meld are deadwood whatever the arrangement; search only the others.
    return value_of(mask & ~union) + _search(union, tuple(melds), {})


def knock_bound(mask: int) -> int:
    """A lower bound of the least deadwood left after any one discard from ``mask``: the cards
    in no meld at all stay deadwood, except the one thrown (at best the heaviest). Cheap, so a
    hand far from knocking is told so without arranging it once per discard."""
    union = 0
    for m in candidates(mask):
        union |= m
    loose = mask & ~union
    heaviest = 0
    rest = loose
    while rest:
        low = rest & -rest
        rest ^= low
        heaviest = max(heaviest, VALUE_OF_INDEX[low.bit_length() - 1])
    return value_of(loose) - heaviest


def deadwood_after_discards(mask: int) -> dict[int, int]:
    """For each card index of ``mask``: the minimum deadwood of the other cards (what a knock
    with that discard keeps). One candidate search serves every discard: a meld holding the
    discarded card never fits the rest, so the search's memo is shared."""
    melds = tuple(candidates(mask))
    memo: dict[int, int] = {}
    out = {}
    rest = mask
    while rest:
        low = rest & -rest
        rest ^= low
        kept = mask ^ low
        union = 0
        for m in melds:
            if not m & low:
                union |= m
        out[low.bit_length() - 1] = value_of(kept & ~union) + _search(kept & union, melds, memo)
    return out


def _search(mask: int, melds: tuple[int, ...], memo: dict[int, int]) -> int:
    """The least deadwood of ``mask`` using ``melds``: the lowest card is either deadwood or in
    one of the melds that contain it and fit (every arrangement is visited)."""
    if not mask:
        return 0
    found = memo.get(mask)
    if found is not None:
        return found
    low = mask & -mask
    best = VALUE_OF_INDEX[low.bit_length() - 1] + _search(mask ^ low, melds, memo)
    for meld in melds:
        if meld & low and meld & mask == meld:
            left = _search(mask & ~meld, melds, memo)
            if left < best:
                best = left
    memo[mask] = best
    return best


def min_arrangements(mask: int) -> Iterator[tuple[int, ...]]:
    """Every arrangement (a tuple of meld masks) of ``mask`` that reaches the minimum deadwood."""
    if not mask:
        yield ()
        return
    target = min_deadwood(mask)
    low = mask & -mask
    if VALUE_OF_INDEX[low.bit_length() - 1] + min_deadwood(mask ^ low) == target:
        yield from min_arrangements(mask ^ low)
    for meld in MELDS_OF[low.bit_length() - 1]:
        if meld & mask == meld and min_deadwood(mask & ~meld) == target:
            for rest in min_arrangements(mask & ~meld):
                yield (meld, *rest)


def _layoff_chains(meld: int, defender: int) -> list[tuple[int, ...]]:
    """What ``defender`` can lay off onto the knocker's ``meld``: each option a tuple of card
    indices in the order they go on (a run's chain grows one card at a time)."""
    cards = [i for i in range(52) if meld >> i & 1]
    if len({i % 13 for i in cards}) == 1:  # a set
        if len(cards) == 4:
            return [()]
        rank = cards[0] % 13
        missing = next(s * 13 + rank for s in range(4) if not meld >> (s * 13 + rank) & 1)
        return [(), (missing,)] if defender >> missing & 1 else [()]
    suit, low, high = cards[0] // 13, cards[0] % 13, cards[-1] % 13
    down: list[int] = []
    r = low - 1
    while r >= 0 and defender >> (suit * 13 + r) & 1:
        down.append(suit * 13 + r)
        r -= 1
    up: list[int] = []
    r = high + 1
    while r <= 12 and defender >> (suit * 13 + r) & 1:
        up.append(suit * 13 + r)
        r += 1
    return [
        tuple(down[:d]) + tuple(up[:u]) for d in range(len(down) + 1) for u in range(len(up) + 1)
    ]


class Layout(NamedTuple):
    """Where a player's ten cards went: melds of their own, layoffs ``(card index, meld number
    of the knocker)`` and deadwood; ``deadwood_count`` is its count."""

    melds: tuple[int, ...]
    layoffs: tuple[tuple[int, int], ...]
    deadwood: int
    deadwood_count: int


def defender_layout(knocker_melds: tuple[int, ...], defender: int) -> Layout:
    """The defender's own melds and layoffs onto ``knocker_melds`` chosen together for the least
    deadwood (the first such layout in a fixed order: the score is the same for all)."""
    best: Layout | None = None
    options = [_layoff_chains(m, defender) for m in knocker_melds]
    for choice in product(*options):
        laid = 0
        clash = False
        for chain in choice:
            for i in chain:
                clash |= bool(laid >> i & 1)
                laid |= 1 << i
        if clash:
            continue
        count = min_deadwood(defender & ~laid)
        if best is None or count < best.deadwood_count:
            rest = defender & ~laid
            melds = next(min_arrangements(rest))
            deadwood = rest
            for m in melds:
                deadwood &= ~m
            layoffs = tuple((i, n) for n, chain in enumerate(choice) for i in chain)
            best = Layout(melds, layoffs, deadwood, count)
    assert best is not None  # the empty choice is always there
    return best


def knocker_layout(knocker: int, defender: int) -> tuple[Layout, Layout]:
    """The knocker's minimum-deadwood arrangement that leaves the defender the most deadwood after
    the defender's best layoffs, and that defender layout."""
    chosen: tuple[Layout, Layout] | None = None
    count = min_deadwood(knocker)
    for melds in min_arrangements(knocker):
        deadwood = knocker
        for m in melds:
            deadwood &= ~m
        theirs = defender_layout(melds, defender)
        if chosen is None or theirs.deadwood_count > chosen[1].deadwood_count:
            chosen = (Layout(melds, (), deadwood, count), theirs)
    assert chosen is not None
    return chosen


def own_layout(mask: int) -> Layout:
    """A minimum-deadwood arrangement with no layoffs (gin's defender, a hand shown in a view)."""
    melds = next(min_arrangements(mask))
    deadwood = mask
    for m in melds:
        deadwood &= ~m
    return Layout(melds, (), deadwood, value_of(deadwood))


def layout_dict(layout: Layout) -> dict[str, object]:
    """A layout as JSON: card ids, melds in deck order."""
    return {
        "melds": [cards_of(m) for m in layout.melds],
        "layoffs": [{"card": cards_of(1 << i)[0], "meld": n} for i, n in layout.layoffs],
        "deadwood": cards_of(layout.deadwood),
        "count": layout.deadwood_count,
    }
