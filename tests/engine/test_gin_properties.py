"""Gin Rummy's properties over random legal playouts, checked after every step.

A hypothesis-drawn seed names a whole match: a single round (target 0) or a short match, players
who knock half the time they may (uniformly random players would rarely knock and the rounds
would mostly end at the wall), with timeouts and a player leaving now and then. Rounds follow each
other as in the service (``apply_move``). Example counts keep each test to a few seconds under the
``ci`` profile.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import EngineError, ReplayRNG
from games.engine.errors import ALL_CODES
from games.engine.gin.actions import SOURCES, Action
from games.engine.gin.cards import DECK
from games.engine.gin.game import GIN_RUMMY as GIN
from games.engine.gin.state import State
from games.engine.moves import apply_move

MAX_ACTIONS_PER_ROUND = 400  # 31 stock draws and 50 discard-pile takes at most, a turn each


@dataclass
class Playout:
    setup: dict[str, Any]
    setup_events: list[dict[str, Any]]
    states: list[State] = field(default_factory=list)
    steps: list[tuple[Action, list[dict[str, Any]]]] = field(default_factory=list)


def play(seed: int, target: int, timeout_rate: float, leave_rate: float) -> Playout:
    rng = random.Random(seed)
    setup = {"players": 2, "preset": "standard", "options": {}, "target_score": target}
    state, events = GIN.new_game(rng=rng, **setup)
    out = Playout(setup, events, [state])
    since_deal = 0
    while not GIN.is_match_over(state):
        seat = GIN.to_move(state)
        assert seat is not None
        if rng.random() < leave_rate:
            action = GIN.leave_action(rng.choice([0, 1]))
        elif rng.random() < timeout_rate:
            action = GIN.timeout_action(state, seat)
        else:
            listed = GIN.legal_actions(state, seat)
            ends = [a for a in listed if a.type in ("knock", "big_gin")]
            action = rng.choice(ends if ends and rng.random() < 0.5 else listed)
        before = state
        state, events = apply_move(GIN, state, action, rng)
        out.states.append(state)
        out.steps.append((action, events))
        since_deal = 0 if state.round != before.round else since_deal + 1
        assert since_deal < MAX_ACTIONS_PER_ROUND, "a round that never ends"
    return out


configs = st.tuples(
    st.integers(min_value=0, max_value=2**32 - 1),
    st.sampled_from([0, 30]),
    st.sampled_from([0.0, 0.05]),
    st.sampled_from([0.0, 0.002]),
)


def cards_in_play(s: State) -> list[str]:
    return s.hands[0] + s.hands[1] + s.stock + s.discard


def strings(data: Any) -> set[str]:
    if isinstance(data, dict):
        return {x for v in data.values() for x in strings(v)}
    if isinstance(data, list):
        return {x for v in data for x in strings(v)}
    return {data} if isinstance(data, str) else set()


@settings(max_examples=8)
@given(configs)
def test_the_52_cards_are_conserved_by_id_and_every_round_ends(config: Any) -> None:
    playout = play(*config)
    for s in playout.states:
        if not GIN.is_match_over(s):
            assert sorted(cards_in_play(s)) == sorted(DECK)
        assert len(s.hands[0]) + len(s.hands[1]) in (20, 21)
    for s in playout.states[::5]:
        assert json.loads(json.dumps(s.to_dict())) == s.to_dict()
        assert GIN.state_from_dict(s.to_dict()) == s


@settings(max_examples=5)
@given(configs)
def test_the_listed_actions_are_exactly_the_accepted_ones(config: Any) -> None:
    playout = play(*config)
    rng = random.Random(0)
    for s in playout.states[::3]:
        for seat in (0, 1):
            listed = GIN.legal_actions(s, seat)
            every = [Action(t, seat) for t in ("take_upcard", "pass", "big_gin")]
            every += [Action("draw", seat, source=src) for src in SOURCES]
            every += [Action(t, seat, card=c) for t in ("discard", "knock") for c in DECK]
            for action in every:
                try:
                    GIN.apply(s, action, rng)
                except EngineError as error:
                    assert error.code in ALL_CODES
                    assert action not in listed, f"{action} listed but refused: {error.code}"
                else:
                    assert action in listed, f"{action} accepted but not listed"


@settings(max_examples=5)
@given(configs)
def test_a_view_never_shows_the_opponents_hand_or_the_stock(config: Any) -> None:
    playout = play(*config)
    for s, (_, events) in zip(playout.states[1:], playout.steps, strict=True):
        for seat in (0, 1):
            view = GIN.view(s, seat)
            # Round results show both hands once the round is over: they are public then.
            seen = strings({k: v for k, v in view.items() if k != "round_results"})
            taken = {t["card"] for t in s.takes}
            hidden = (set(s.hands[1 - seat]) - taken) | set(s.stock)
            if not GIN.is_match_over(s):
                assert not seen & hidden, f"seat {seat} sees {sorted(seen & hidden)}"
            seen_events = [GIN.visible_event(e, seat) for e in events]
            for e in seen_events:
                assert e is None or "secret" not in e
            drawn = [e for e in events if e["type"] == "draw" and e.get("to") == 1 - seat]
            for event, shown in zip(events, seen_events, strict=True):
                if event in drawn:
                    assert shown is not None and "card" not in shown


@settings(max_examples=5)
@given(configs)
def test_replaying_the_log_rebuilds_the_state(config: Any) -> None:
    # As the service logs moves: an action that ends a round carries the next deal's outcomes.
    playout = play(*config)
    state, _ = GIN.new_game(rng=ReplayRNG(playout.setup_events), **playout.setup)
    for (action, events), expected in zip(playout.steps, playout.states[1:], strict=True):
        rng = ReplayRNG(events)
        state, _ = apply_move(GIN, state, action, rng)
        assert rng.remaining == 0 and state == expected


@settings(max_examples=5)
@given(configs)
def test_scores_only_grow_and_the_match_ends_at_the_target(config: Any) -> None:
    seed, target, _, _ = config
    playout = play(*config)
    for before, after in zip(playout.states, playout.states[1:], strict=False):
        assert all(a >= b for a, b in zip(after.scores, before.scores, strict=True))
    final = playout.states[-1]
    if final.left is None:
        assert final.winner is not None
        assert target == 0 or final.round_results[-1]["scores"][final.winner] >= target
