"""The expert knows no game: it plays a toy game (tests/bots/toy.py) through the interface alone,
beats random there, is deterministic for a seed, and never reads the cards its seat cannot see."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from games.bots import decide, expert
from games.bots.policies import DEFAULT, for_kind
from games.engine import registry
from games.engine.uno.actions import Action, Pick

from .toy import NEAR, Move, Near

pytestmark = pytest.mark.pure


@pytest.fixture
def toy() -> Iterator[None]:
    registry.register(NEAR)
    try:
        yield
    finally:
        registry.unregister(NEAR.kind)


def _positions(seed: int, count: int) -> list[Near]:
    """States met when random players play Near, the seat on turn holding a choice."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        state, _ = NEAR.new_game(players=2, rng=rng)
        while not state.over:
            if len(NEAR.legal_actions(state, state.current)) > 1:
                out.append(state)
            state, _ = NEAR.apply(state, rng.choice(NEAR.legal_actions(state, state.current)), rng)
    return out[:count]


def _other_hidden_cards(state: Near, seat: int, rng: random.Random) -> Near:
    """The same position for ``seat``: the other hand and the pile dealt anew from their cards."""
    twin = state.copy()
    other = 1 - seat
    unseen = twin.hands[other] + twin.pile
    while True:
        rng.shuffle(unseen)
        size = len(twin.hands[other])
        if unseen[:size] != state.hands[other] or not state.pile:
            break
    twin.hands[other], twin.pile = unseen[:size], unseen[size:]
    return twin


def test_a_kind_without_bots_of_its_own_gets_the_generic_ones() -> None:
    assert for_kind(NEAR.kind) is DEFAULT
    assert for_kind(None) is DEFAULT


def test_the_expert_plays_the_toy_game_legally_and_deterministically() -> None:
    for state in _positions(1, 12):
        seat = state.current
        a = expert.search(NEAR, state, seat, random.Random(7), budget_ms=0, playouts=6)
        b = expert.search(NEAR, state, seat, random.Random(7), budget_ms=0, playouts=6)
        assert a == b
        assert a in NEAR.legal_actions(state, seat)


def test_the_expert_never_reads_the_toy_games_hidden_cards() -> None:
    shuffler = random.Random(3)
    moved = 0
    for state in _positions(2, 20):
        seat = state.current
        twin = _other_hidden_cards(state, seat, shuffler)
        assert NEAR.view(twin, seat) == NEAR.view(state, seat)
        moved += twin.hands != state.hands
        a = expert.search(NEAR, state, seat, random.Random(5), budget_ms=0, playouts=6)
        b = expert.search(NEAR, twin, seat, random.Random(5), budget_ms=0, playouts=6)
        assert a == b
    assert moved >= 15


def _match(rounds: int, seed: int) -> float:
    """The expert's share of the decided rounds against random, each seat half the time."""
    rng = random.Random(seed)
    wins = decided = 0
    for r in range(rounds):
        state, _ = NEAR.new_game(players=2, rng=random.Random(f"deal:{seed}:{r // 2}"))
        me = r % 2
        while not state.over:
            seat = state.current
            legal = NEAR.legal_actions(state, seat)
            if seat == me:
                move = expert.search(NEAR, state, seat, rng, budget_ms=0, playouts=8)
            else:
                move = rng.choice(legal)
            state, _ = NEAR.apply(state, move, rng)
        if state.winner is not None:
            decided += 1
            wins += state.winner == me
    return wins / decided


def test_the_expert_beats_random_at_the_toy_game() -> None:
    assert _match(30, seed=11) >= 0.65  # 0.5 between equals


def test_decide_runs_the_expert_on_a_registered_game_given_its_state(toy: None) -> None:
    for state in _positions(4, 6):
        seat = state.current
        view = NEAR.view(state, seat)
        chosen = decide(view, [], level="expert", rng=random.Random(1), playouts=4, state=state)
        assert chosen is not None
        assert NEAR.action_from_dict({**chosen, "seat": seat}) in NEAR.legal_actions(state, seat)
        # Without a state (the toy's bots rebuild none from a view) and at level heuristic
        # (the toy has no heuristic): a random legal move.
        for level in ("expert", "heuristic", "random"):
            chosen = decide(view, [], level=level, rng=random.Random(1), playouts=4)
            assert chosen is not None
            assert {**chosen, "seat": seat} in view["legal_actions"]


def test_the_canonical_rng_gives_the_same_shuffle_whatever_the_order() -> None:
    a, b = ["c", "a", "b", "d"], ["d", "b", "a", "c"]
    expert.CanonicalRNG(random.Random(2)).shuffle(a)
    expert.CanonicalRNG(random.Random(2)).shuffle(b)
    assert a == b and sorted(a) == ["a", "b", "c", "d"]
    assert expert.CanonicalRNG(random.Random(2)).choice({3, 1, 2}) == expert.CanonicalRNG(
        random.Random(2)
    ).choice([2, 3, 1])


def test_templates_are_expanded_or_sampled() -> None:
    from games.bots.policies import MAX_INSTANCES, expand

    small = Action("mercy", 0, choose=Pick(2, ("a", "b", "c")))
    assert len(expand(small, random.Random(1))) == 3
    big = Action("mercy", 0, choose=Pick(5, tuple(f"c{i}" for i in range(20))))
    sampled = expand(big, random.Random(1))
    assert len(sampled) == MAX_INSTANCES == len(set(sampled))
    assert all(len(a.cards or ()) == 5 and a.choose is None for a in sampled)
    assert expand(Move("draw", 0), random.Random(1)) == [Move("draw", 0)]
