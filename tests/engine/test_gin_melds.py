"""Gin Rummy's meld solver: exact against a brute force that tries every partition, and fast."""

from __future__ import annotations

import random
import time
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.gin.cards import DECK, VALUE, mask_of
from games.engine.gin.melds import (
    MELDS,
    defender_layout,
    knocker_layout,
    min_arrangements,
    min_deadwood,
)


def is_meld(cards: tuple[str, ...]) -> bool:
    """A set or a run, written from the rulings' words, independently of the solver's table."""
    if len(cards) < 3:
        return False
    ranks = sorted("A23456789TJQK".index(c[0]) for c in cards)
    suits = {c[1] for c in cards}
    if len(set(ranks)) == 1:
        return len(cards) <= 4
    return len(suits) == 1 and ranks == list(range(ranks[0], ranks[0] + len(cards)))


def brute_force(cards: tuple[str, ...]) -> int:
    """The least deadwood over every way to set aside melds: try each meld of the lowest card."""
    if not cards:
        return 0
    first, rest = cards[0], cards[1:]
    best = VALUE[first] + brute_force(rest)
    for size in range(2, len(rest) + 1):
        for others in combinations(rest, size):
            if is_meld((first, *others)):
                left = tuple(c for c in rest if c not in others)
                best = min(best, brute_force(left))
    return best


hands = st.lists(st.sampled_from(DECK), min_size=0, max_size=11, unique=True)


@settings(max_examples=300)
@given(hands)
def test_the_solver_finds_the_brute_force_minimum(hand: list[str]) -> None:
    assert min_deadwood(mask_of(hand)) == brute_force(tuple(hand))


@settings(max_examples=100)
@given(st.lists(st.sampled_from(DECK[:26]), min_size=8, max_size=11, unique=True))
def test_dense_hands_of_two_suits_agree_with_the_brute_force(hand: list[str]) -> None:
    # Two suits only: many overlapping sets and runs, where a greedy arrangement goes wrong.
    assert min_deadwood(mask_of(hand)) == brute_force(tuple(hand))


@settings(max_examples=100)
@given(hands)
def test_every_minimum_arrangement_is_disjoint_melds_reaching_the_minimum(hand: list[str]) -> None:
    mask = mask_of(hand)
    for melds in min_arrangements(mask):
        used = 0
        for m in melds:
            assert m in MELDS and m & mask == m and not m & used
            used |= m
        assert sum(VALUE[c] for c in hand if not mask_of([c]) & used) == min_deadwood(mask)


def test_a_card_that_fits_a_set_and_a_run_goes_where_it_saves_most() -> None:
    # 7d makes a set with 7s 7h or a run with 8d 9d: the run leaves 7s 7h (14), the set 8d 9d (17).
    hand = ["7s", "7h", "7d", "8d", "9d", "Ts", "Js", "Qs", "2c", "3c"]
    assert min_deadwood(mask_of(hand)) == 19


def test_a_defender_lays_off_along_a_run_in_a_chain() -> None:
    knocker = mask_of(["5h", "6h", "7h", "Ks", "Kh", "Kd", "As", "2s", "3s", "4d"])
    defender = mask_of(["8h", "9h", "Qc", "Jc", "2d", "3d", "9c", "8c", "5c", "4c"])
    k, d = knocker_layout(knocker, defender)
    assert k.deadwood_count == 4
    # 8h then 9h go on the hearts run; the rest stays deadwood.
    assert sorted(i for i, _ in d.layoffs) == sorted(
        mask_of([c]).bit_length() - 1 for c in ["8h", "9h"]
    )
    assert d.deadwood_count == 10 + 10 + 2 + 3 + 9 + 8 + 5 + 4


def test_a_lone_card_two_away_from_a_run_cannot_be_laid_off() -> None:
    knocker_melds = (mask_of(["5h", "6h", "7h"]),)
    d = defender_layout(knocker_melds, mask_of(["9h"]))
    assert d.layoffs == () and d.deadwood_count == 9


def test_a_four_card_set_takes_nothing_and_a_three_card_set_takes_its_fourth() -> None:
    four = (mask_of(["Ks", "Kh", "Kd", "Kc"]),)
    three = (mask_of(["Ks", "Kh", "Kd"]),)
    assert defender_layout(four, mask_of(["Kc", "Qc"])).deadwood_count == 20
    assert defender_layout(three, mask_of(["Kc", "Qc"])).deadwood_count == 10


def test_the_knocker_takes_the_minimum_that_leaves_the_defender_most() -> None:
    # As 2s 3s 2h 2d: a run of spades (2h 2d left, 4) or a set of twos (As 3s left, 4), a tie.
    knocker = mask_of(["As", "2s", "3s", "2h", "2d", "7c", "8c", "9c", "Tc", "Jc"])
    junk = ["Kh", "Qd", "Jh", "9d", "8h", "6d", "5h", "Ks", "3d"]
    # The defender's 4s would go on the spades run: the knocker lays out the set of twos.
    k, d = knocker_layout(knocker, mask_of(["4s", *junk]))
    assert k.deadwood_count == 4 and mask_of(["2s", "2h", "2d"]) in k.melds
    assert d.layoffs == () and d.deadwood_count == 75
    # The defender's 2c would go on the set of twos: the knocker lays out the spades run.
    k, d = knocker_layout(knocker, mask_of(["2c", *junk]))
    assert k.deadwood_count == 4 and mask_of(["As", "2s", "3s"]) in k.melds
    assert d.layoffs == () and d.deadwood_count == 73


def test_an_eleven_card_hand_is_arranged_well_under_a_millisecond() -> None:
    rng = random.Random(20)
    masks = [mask_of(rng.sample(DECK, 11)) for _ in range(2000)]
    min_deadwood.cache_clear()
    start = time.perf_counter()
    for m in masks:
        min_deadwood(m)
    per_hand = (time.perf_counter() - start) / len(masks)
    assert per_hand < 1e-3
