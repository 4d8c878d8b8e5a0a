"""The 52-card deck and the numbers of the game, as data (the rulings' two tables).

A card id is its rank then its suit: ``As``, ``Th``, ``Kc``. Internally a card is also an index
0..51, ``suit * 13 + rank`` (rank 0 is the ace), so that a hand is a 52-bit mask.
"""

from __future__ import annotations

from typing import Final

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")
# The rulings' tie order for a timeout's discard: spades before hearts before diamonds before clubs.
SUITS = ("s", "h", "d", "c")
# Deadwood value of each rank, in RANKS order.
VALUES = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)

DECK: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)
INDEX: dict[str, int] = {card: i for i, card in enumerate(DECK)}
RANK: dict[str, int] = {card: i % 13 for i, card in enumerate(DECK)}
SUIT: dict[str, int] = {card: i // 13 for i, card in enumerate(DECK)}
VALUE: dict[str, int] = {card: VALUES[i % 13] for i, card in enumerate(DECK)}
VALUE_OF_INDEX: tuple[int, ...] = tuple(VALUES[i % 13] for i in range(52))

# The numbers table of the rulings: data, so that a later preset can change them.
KNOCK_LIMIT: Final = 10
GIN_BONUS: Final = 25
BIG_GIN_BONUS: Final = 31
UNDERCUT_BONUS: Final = 25
GAME_BONUS: Final = 100
SHUTOUT_GAME_BONUS: Final = 200
LINE_BONUS: Final = 25
WALL: Final = 2
MAX_DISCARD_TAKES: Final = 50
HAND_SIZE: Final = 10
DEFAULT_TARGET: Final = 100


def mask_of(cards: list[str] | tuple[str, ...]) -> int:
    m = 0
    for c in cards:
        m |= 1 << INDEX[c]
    return m


def cards_of(mask: int) -> list[str]:
    """The cards of ``mask`` in deck order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(DECK[low.bit_length() - 1])
        mask ^= low
    return out


def value_of(mask: int) -> int:
    total = 0
    while mask:
        low = mask & -mask
        total += VALUE_OF_INDEX[low.bit_length() - 1]
        mask ^= low
    return total
