"""Bots under the house rules: every level keeps choosing accepted actions with any combination
on, and the heuristic answers stacks, doubles pairs, uses mercy on its worst cards and plays
blind."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from games.bots import decide
from games.bots.schedule import to_ask
from games.engine.scenario import build_position
from games.engine.uno.actions import Action
from games.engine.uno.allwild.house_rules import HOUSE_RULES
from games.engine.uno.allwild.rules import apply
from games.engine.uno.allwild.view import view
from games.engine.uno.state import MATCH_OVER, State

pytestmark = pytest.mark.pure

COMBINATIONS = [
    dict(zip(HOUSE_RULES, bits, strict=True))
    for bits in itertools.product([False, True], repeat=len(HOUSE_RULES))
]


def _name(options: dict[str, bool]) -> str:
    return "+".join(k for k, v in options.items() if v) or "none"


def _bot_game(
    options: dict[str, bool], level: str, seed: int, players: int = 3, limit: int | None = None
) -> int:
    """A single-round match of bots only, asked in the service's order; returns the actions.
    With ``limit``, stop after that many actions (the round need not end)."""
    from games.engine.uno.allwild.rules import new_game

    rng = random.Random(seed)
    state, _ = new_game(players=players, rng=rng, options=options, target_score=0)
    actions = 0
    while state.phase != MATCH_OVER:
        if limit is not None and actions >= limit:
            break
        assert actions < 3000, f"{level} bots did not finish a round under {_name(options)}"
        for seat, allowed in to_ask(state, range(players)):
            seen = view(state, seat)
            if not seen["legal_actions"]:
                continue
            choice = decide(seen, [], level=level, rng=rng, playouts=2)
            if choice is None or (allowed is not None and choice["type"] not in allowed):
                continue
            # Any refusal raises here: a bot must only ever choose accepted actions.
            state, _ = apply(state, Action.from_dict({**choice, "seat": seat}), rng)
            actions += 1
            break
        else:
            raise AssertionError(f"no bot acted in phase {state.phase}")
    return actions


@pytest.mark.parametrize("options", COMBINATIONS, ids=_name)
def test_heuristic_bots_finish_rounds_under_every_combination(options: dict[str, bool]) -> None:
    assert _bot_game(options, "heuristic", seed=11) > 0


@pytest.mark.parametrize("options", COMBINATIONS, ids=_name)
def test_random_bots_choose_accepted_actions_under_every_combination(
    options: dict[str, bool],
) -> None:
    # Uniformly random players draw half the time under blind play: a round may not end soon,
    # and that is not what this checks (every choice applies, templates filled in included).
    assert _bot_game(options, "random", seed=11, limit=600) > 0


@pytest.mark.parametrize(
    "options",
    [
        {"speed_mode": True, "force_swap_protection": True},
        {"stacking": True, "double_down": True},
        {"blind_play": True, "mercy": True},
    ],
    ids=_name,
)
def test_the_expert_keeps_playing_with_house_rules_on(options: dict[str, bool]) -> None:
    # Two experts heads-up can swell a round for hundreds of turns (docs/bots.md, what is left
    # out): this checks that every choice applies, not that the round ends.
    assert _bot_game(options, "expert", seed=3, players=2, limit=300) > 0


def _position(options: dict[str, bool], **position: Any) -> State:
    state, _, _ = build_position({"options": options, "position": position})
    return state


def _decide(state: State, seat: int, level: str = "heuristic") -> dict[str, Any] | None:
    return decide(view(state, seat), [], level=level, rng=random.Random(0), playouts=2)


def test_the_heuristic_stacks_when_it_can_and_takes_otherwise() -> None:
    seats = [
        {"hand": ["wild", "wild"]},
        {"hand": ["wild", "draw2-5", "draw4-1"]},
        {"hand": ["wild", "wild", "wild"]},
    ]
    state = _position(
        {"stacking": True},
        seats=seats,
        discard_pile=["draw2-1"],
        current=1,
        phase="stack",
        stack=2,
    )
    assert _decide(state, 1) == {"type": "play", "card": "draw2-5"}
    state.discard_pile.insert(0, state.seats[1].hand.pop(2))  # a Draw 4 on top: only a Draw 4
    state.seats[1].hand.append("skip-1")
    state.draw_pile.remove("skip-1")
    assert _decide(state, 1) == {"type": "take_stack"}


def test_the_heuristic_uses_mercy_on_its_worst_cards() -> None:
    hand = ["wild"] * 5 + ["draw4-1", "draw4-2", "reverse", "reverse", "reverse"]
    hand += ["skip", "skip", "draw2-1", "draw2-2", "draw4-3"]
    state = _position(
        {"mercy": True}, seats=[{"hand": ["wild", "wild"]}, {"hand": hand}], discard_pile=["wild"]
    )
    choice = _decide(state, 1)
    assert choice is not None and choice["type"] == "mercy"
    # Draw 4 60, Draw 2 50: the five cards worth most to the winner.
    assert sorted(choice["cards"]) == ["draw2-1", "draw2-2", "draw4-1", "draw4-2", "draw4-3"]


def test_the_heuristic_plays_a_pair_of_the_card_it_would_play() -> None:
    state = _position(
        {"double_down": True},
        seats=[{"hand": ["wild-1", "wild-2", "force_swap", "force_swap"]}, {"hand": ["skip"] * 6}],
        discard_pile=["reverse"],
    )
    assert _decide(state, 0) == {"type": "play_pair", "cards": ["wild-1", "wild-2"]}


def test_the_heuristic_plays_blind_and_aims_at_the_shortest_hand() -> None:
    seats = [
        {"hand": ["force_swap", "wild", "wild", "wild"]},
        {"hand": ["skip"] * 5},
        {"hand": ["reverse", "reverse"]},
    ]
    state = _position({"blind_play": True}, seats=seats, discard_pile=["wild"])
    assert _decide(state, 0) == {"type": "play_top"}
    state, _ = apply(state, Action("play_top", 0), random.Random(0))
    assert state.phase == "choose"
    assert _decide(state, 0) == {"type": "choose_target", "target": 2}


def test_the_expert_plays_as_the_heuristic_where_its_search_does_not_apply() -> None:
    state = _position(
        {"double_down": True, "mercy": True},
        seats=[{"hand": ["wild-1", "wild-2", "draw2", "skip"]}, {"hand": ["skip"] * 6}],
        discard_pile=["reverse"],
    )
    assert _decide(state, 0, "expert") == _decide(state, 0, "heuristic")


def test_a_bot_without_the_uno_rule_waits_off_turn_during_a_stack() -> None:
    seats = [
        {"hand": ["wild"]},
        {"hand": ["wild", "draw2-5"]},
        {"hand": ["wild", "wild", "wild"]},
    ]
    state = _position(
        {"stacking": True}, seats=seats, discard_pile=["draw2-1"], current=1, phase="stack", stack=2
    )
    seen = view(state, 0)
    assert [a["type"] for a in seen["legal_actions"]] == ["uno"]
    assert decide(seen, [], level="heuristic-say_uno", rng=random.Random(0)) is None
