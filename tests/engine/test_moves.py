"""``moves.apply_move``: a move that ends a round deals the next one, and the move's logged chance
outcomes alone rebuild it (what moderation's replay relies on past the first round)."""

from __future__ import annotations

import random
from typing import Any

from games.engine import ReplayRNG
from games.engine.moves import apply_move
from games.engine.registry import get_game
from tests.engine.playout import TURN_ACTIONS, pick_instance

GAME = get_game("uno_all_wild")


def test_the_move_that_ends_a_round_deals_the_next_and_replays_from_its_log() -> None:
    rng = random.Random(7)
    start, _ = GAME.new_game(players=2, rng=rng, preset="standard", options={}, target_score=5000)
    state, moves = start, []
    while state.round == 1:
        seat = GAME.to_move(state)
        assert seat is not None
        listed = [a for a in GAME.legal_actions(state, seat) if a.type in TURN_ACTIONS]
        action = pick_instance(rng.choice(listed), rng)
        state, events = apply_move(GAME, state, action, rng)
        moves.append((action, events))
        assert not GAME.is_round_over(state), "a move never leaves a finished round behind"
    types = [e["type"] for e in moves[-1][1]]
    assert "round_over" in types and types[-1] != "round_over", "the deal follows the round's end"

    rebuilt: Any = start
    for action, events in moves:
        replay_rng = ReplayRNG(events)
        rebuilt, _ = apply_move(GAME, rebuilt, action, replay_rng)
        assert replay_rng.remaining == 0
    assert rebuilt.round == 2
    assert GAME.state_to_dict(rebuilt) == GAME.state_to_dict(state)
