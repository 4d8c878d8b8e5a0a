"""What All Wild's plays reveal, and the expert's samples that follow it
(games/bots/allwild_beliefs.py)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from games.bots import allwild, allwild_beliefs, expert
from games.engine.uno.allwild.cards import card_type
from games.engine.uno.allwild.game import ALL_WILD
from games.engine.uno.allwild.rules import apply, new_game
from games.engine.uno.state import MATCH_OVER, ROUND_OVER

from .positions import hide_differently, position

pytestmark = pytest.mark.pure


def _visible(events: list[dict[str, Any]], seat: int) -> list[dict[str, Any]]:
    return [e for e in (ALL_WILD.visible_event(x, seat) for x in events) if e is not None]


def _rounds(players: int, games: int) -> Any:
    """(state, seat on turn, that seat's visible history) at every turn of heuristic rounds."""
    for seed in range(games):
        rng = random.Random(seed)
        state, events = new_game(players=players, rng=rng, target_score=0)
        histories = [_visible(events, i) for i in range(players)]
        for _ in range(400):
            if state.phase in (ROUND_OVER, MATCH_OVER):
                break
            yield state, state.current, histories[state.current]
            action = allwild.ALL_WILD_BOTS.rollout(ALL_WILD, state, rng)
            state, events = apply(state, action, rng)
            for i in range(players):
                histories[i].extend(_visible(events, i))


@pytest.mark.parametrize("players", [2, 4])
def test_the_replay_follows_every_hand_and_its_beliefs_are_mostly_right(players: int) -> None:
    claims = wrong = 0
    for state, seat, history in _rounds(players, 25):
        beliefs = allwild_beliefs.read(history, seat)
        assert beliefs is not None and allwild_beliefs.consistent(beliefs, state, seat)
        for i, other in enumerate(state.seats):
            if i == seat or not other.active or beliefs.fresh[i]:
                continue
            held = {card_type(c) for c in other.hand}
            claims += len(beliefs.absent[i])
            wrong += len(beliefs.absent[i] & held)
    # Against heuristic players (the model) the beliefs about hands without fresh cards are
    # nearly always right; some plays follow rules the replay does not see (a chain heads-up).
    assert claims > 500
    assert wrong <= 0.05 * claims


def test_a_skip_played_for_nothing_says_no_wild_and_no_reverse_was_held() -> None:
    history = [
        {"type": "round_started", "round": 1, "dealer": 3, "hand_sizes": [7, 7, 7, 7]},
        {"type": "play", "seat": 0, "card": "wild-1", "card_type": "wild"},
        {"type": "play", "seat": 1, "card": "skip-1", "card_type": "skip"},
        {"type": "loses_turn", "seat": 2, "count": 1},
        {"type": "skipped", "seat": 2},
    ]
    beliefs = allwild_beliefs.read(history, 0)
    assert beliefs is not None
    assert beliefs.sizes == [6, 6, 7, 7]
    assert beliefs.absent[1] == {"wild", "reverse"}
    # A draw afterwards adds a card the belief says nothing about; a swap moves the belief.
    beliefs = allwild_beliefs.read(
        [
            *history,
            {"type": "draw", "seat": 1, "count": 2, "wanted": 2, "reason": "draw2"},
            {"type": "play", "seat": 3, "card": "force_swap-1", "card_type": "force_swap"},
            {"type": "swap", "seat": 3, "target": 1},
        ],
        0,
    )
    assert beliefs is not None
    assert beliefs.sizes == [6, 6, 7, 8]
    assert beliefs.absent[3] == {"wild", "reverse"} and beliefs.fresh[3] == 2
    assert beliefs.absent[1] == frozenset()


def test_the_samples_deal_a_hand_few_cards_of_the_kinds_it_is_believed_not_to_hold() -> None:
    state = position([["skip", "reverse", "draw2"], ["skip"] * 6, ["draw4"] * 4])
    beliefs = allwild_beliefs.Beliefs(
        sizes=[3, 6, 4], active=[True] * 3, absent=[frozenset(), frozenset({"wild"}), frozenset()]
    )
    beliefs.fresh = [0, 0, 0]
    rng = expert.CanonicalRNG(random.Random(1))
    wilds: Counter[int] = Counter()
    for _ in range(200):
        sample = allwild_beliefs.deal(state, 0, beliefs, rng)
        assert sample.seats[0].hand == state.seats[0].hand
        assert [len(s.hand) for s in sample.seats] == [3, 6, 4]
        assert sorted(sample.draw_pile + sample.seats[1].hand + sample.seats[2].hand) == sorted(
            state.draw_pile + state.seats[1].hand + state.seats[2].hand
        )
        for i in (1, 2):
            wilds[i] += sum(card_type(c) == "wild" for c in sample.seats[i].hand)
    # Wilds are about a fifth of the unseen cards: seat 2 gets its share, seat 1 far fewer.
    assert wilds[2] / (200 * 4) > 0.12
    assert wilds[1] / (200 * 6) < 0.03


def test_with_a_history_the_move_still_depends_only_on_what_the_seat_can_see() -> None:
    shuffler = random.Random(4)
    searched = 0
    for n, (state, seat, history) in enumerate(_rounds(4, 3)):
        if n % 7 or not history:
            continue
        twin = hide_differently(state, seat, shuffler)
        a = expert.search(
            ALL_WILD, state, seat, random.Random(9), budget_ms=0, playouts=3, history=history
        )
        b = expert.search(
            ALL_WILD, twin, seat, random.Random(9), budget_ms=0, playouts=3, history=history
        )
        assert a == b
        searched += 1
    assert searched >= 5
