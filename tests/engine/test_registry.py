"""The registry: a game kind becomes a ``Game``; the default kind is All Wild."""

from __future__ import annotations

import random

import pytest

from games.engine import EngineError, replay
from games.engine.registry import DEFAULT_KIND, get_game, kinds
from games.engine.uno.allwild.game import ALL_WILD


def test_uno_all_wild_is_the_default_game() -> None:
    assert DEFAULT_KIND == "uno_all_wild"
    assert get_game("uno_all_wild") is ALL_WILD
    assert get_game(None) is ALL_WILD
    assert kinds()[0] == "uno_all_wild"


def test_an_unknown_kind_is_refused_with_invalid_setup() -> None:
    with pytest.raises(EngineError) as error:
        get_game("chess")
    assert error.value.code == "invalid_setup"


def test_a_game_replays_through_the_registry() -> None:
    game = get_game("uno_all_wild")
    rng = random.Random(4)
    setup = {"players": 3, "preset": "standard", "options": {}, "target_score": 0}
    state, setup_events = game.new_game(rng=rng, **setup)
    steps = []
    for _ in range(30):
        if game.is_round_over(state) or game.is_match_over(state):
            break
        seat = game.to_move(state)
        action = rng.choice(game.legal_actions(state, seat))
        state, events = game.apply(state, action, rng)
        steps.append((action, events))
    rebuilt = replay(setup, steps, setup_events, kind="uno_all_wild")
    assert game.state_to_dict(rebuilt) == game.state_to_dict(state)
