"""sample_hidden: a state a seat cannot tell from the real one (for search that must not peek)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games.engine.registry import get_game
from games.engine.uno.allwild.view import view
from games.engine.uno.state import State

from .playout import run_playout

GAME = get_game("uno_all_wild")
CONFIGS = [
    (2, "standard", {}),
    (4, "mattel_2021", {}),
    (3, "standard", {"blind_play": True}),
    (5, "standard", {"stacking": True, "double_down": True, "mercy": True}),
    (3, "mattel_2021", {"blind_play": True, "force_swap_protection": True}),
]


def cards(state: State) -> Counter[str]:
    return Counter(
        [c for seat in state.seats for c in seat.hand] + state.draw_pile + state.discard_pile
    )


@pytest.mark.parametrize(("players", "preset", "options"), CONFIGS)
def test_sampling_hidden_cards_never_changes_what_the_seat_sees(
    players: int, preset: str, options: dict[str, bool]
) -> None:
    playout = run_playout(
        11, players=players, preset=preset, options=options, target_score=0, keep_states=True
    )
    rng = random.Random(5)
    changed = 0
    for state in playout.states[::3]:
        for seat in range(players):
            sample = GAME.sample_hidden(state, seat, rng)
            assert view(sample, seat) == view(state, seat)
            assert cards(sample) == cards(state)
            assert [len(s.hand) for s in sample.seats] == [len(s.hand) for s in state.seats]
            if not options.get("blind_play"):
                assert sample.seats[seat].hand == state.seats[seat].hand
            changed += sample.to_dict() != state.to_dict()
    assert changed, "sampling never dealt a hidden card differently"


def test_sampling_leaves_the_given_state_alone() -> None:
    state = run_playout(3, players=3, preset="standard", options={}, target_score=0).initial
    before = state.to_dict()
    GAME.sample_hidden(state, 0, random.Random(1))
    assert state.to_dict() == before


def test_under_blind_play_the_seat_s_own_hand_is_sampled_too() -> None:
    playout = run_playout(
        2,
        players=2,
        preset="standard",
        options={"blind_play": True},
        target_score=0,
        keep_states=True,
    )
    rng = random.Random(2)
    own_changed = any(
        GAME.sample_hidden(state, 0, rng).seats[0].hand != state.seats[0].hand
        for state in playout.states
        if len(state.seats[0].hand) > 1
    )
    assert own_changed
