"""Bots at Uno Show 'Em No Mercy: the heuristic picks only listed actions, stacks when able, saves
its Wild Draw 10, holds a 7 for the player on UNO, beats random play; ``manage.py simulate --game
uno_no_mercy``; a game against the computer and the takeover of an absent seat through the
service."""

from __future__ import annotations

import io
import random
from typing import Any

import pytest
from django.core.management import call_command

from games.bots import arena, nomercy
from games.engine.registry import get_game
from tests.bots.playing import (
    heuristic_choices_are_listed,
)

NO_MERCY = get_game("uno_no_mercy")


def card(card_id: str) -> dict[str, Any]:
    kind, _, _ = card_id.rpartition("-")
    colour, _, rank = kind.partition("-")
    if not rank:  # a wild: wd10-1
        return {"id": card_id, "type": kind, "colour": None, "rank": kind}
    return {"id": card_id, "type": kind, "colour": colour, "rank": rank}


def seat_rows(*sizes: int) -> list[dict[str, Any]]:
    return [{"seat": i, "hand_size": n, "active": True} for i, n in enumerate(sizes)]


@pytest.mark.parametrize("players", [2, 3, 6])
def test_the_heuristic_only_ever_picks_a_listed_action(players: int) -> None:
    asked = heuristic_choices_are_listed(
        NO_MERCY, players=players, preset="standard", options={}, seeds=8, states=150
    )
    assert asked > 60 * players


def test_the_heuristic_beats_random_play_heads_up() -> None:
    result = arena.run(["heuristic", "random"], games=300, players=2, seed=7, kind="uno_no_mercy")
    heuristic = result.stats["heuristic"]
    assert heuristic.wins / heuristic.seat_rounds >= 0.66


def stack_view(hand: list[str], total: int, sizes: tuple[int, ...]) -> dict[str, Any]:
    cards = [card(c) for c in hand]
    plays = [
        {"type": "play", "card": c["id"], **({"colour": "red"} if not c["colour"] else {})}
        for c in cards
        if c["rank"] in nomercy.DRAW_VALUE
    ]
    return {
        "you": 0,
        "current_seat": 0,
        "direction": "clockwise",
        "hand": cards,
        "seats": seat_rows(*sizes),
        "stack": {"total": total},
        "pending_choice": None,
        "legal_actions": [*plays, {"type": "take_stack"}],
    }


def test_facing_a_stack_it_stacks_the_smallest_draw_card_and_saves_the_wild_draw_10() -> None:
    view = stack_view(["wd10-1", "red-draw4-a", "blue-draw2-a", "red-5-a"], 2, (4, 5, 5))
    action = nomercy.choose(view, random.Random(0))
    assert action is not None and action.card == "blue-draw2-a"
    view = stack_view(["wd10-1", "red-5-a"], 2, (2, 5, 5))
    action = nomercy.choose(view, random.Random(0))
    assert action is not None and action.type == "take_stack"


def test_the_wild_draw_10_is_spent_when_it_knocks_the_next_player_out() -> None:
    view = stack_view(["wd10-1", "red-draw4-a", "red-5-a"], 4, (3, 12, 5))
    action = nomercy.choose(view, random.Random(0))
    assert action is not None and action.card == "wd10-1"


def test_it_holds_its_7_for_the_player_on_uno() -> None:
    hand = ["red-7-a", "red-5-a", "red-3-a", "blue-2-a"]
    legal = [
        {"type": "play", "card": "red-7-a", "target": 1},
        {"type": "play", "card": "red-7-a", "target": 2},
        {"type": "play", "card": "red-5-a"},
        {"type": "play", "card": "red-3-a"},
    ]
    view = {
        "you": 0,
        "current_seat": 0,
        "direction": "clockwise",
        "hand": [card(c) for c in hand],
        "discard_pile": [card("red-9-a")],
        "seats": seat_rows(4, 5, 5),
        "pending_choice": None,
        "legal_actions": legal,
    }
    action = nomercy.choose(view, random.Random(0))
    assert action is not None and action.card != "red-7-a"  # nobody is on UNO: kept
    view["seats"] = seat_rows(4, 5, 1)
    action = nomercy.choose(view, random.Random(0))
    assert action is not None and (action.card, action.target) == ("red-7-a", 2)


def test_simulate_plays_uno_no_mercy() -> None:
    out = io.StringIO()
    call_command("simulate", game="uno_no_mercy", games=6, bots="heuristic,random", stdout=out)
    text = out.getvalue()
    assert "6 games, 6 rounds, 2 players" in text and "\nheuristic " in text
