"""Bots at Uno Splash: the heuristic picks only listed actions, beats random play, challenges on
the odds; ``manage.py simulate --game uno_splash``; a game against the computer and the takeover
of an absent seat through the service."""

from __future__ import annotations

import io
import random
from typing import Any

import pytest
from django.core.management import call_command

from games.bots import arena, splash
from games.engine.uno.actions import Action
from games.engine.uno.splash.game import SPLASH
from tests.bots.playing import (
    heuristic_choices_are_listed,
)


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (2, {}),
        (3, {}),
        (5, {}),
        (3, {"stacking": True}),
        (4, {"stacking": True, "double_down": True}),
    ],
)
def test_the_heuristic_only_ever_picks_a_listed_action(
    players: int, options: dict[str, bool]
) -> None:
    asked = heuristic_choices_are_listed(
        SPLASH, players=players, preset="classic", options=options, seeds=6, states=200
    )
    assert asked > 100


def test_the_heuristic_beats_random_play_heads_up() -> None:
    result = arena.run(["heuristic", "random"], games=200, players=2, seed=7, kind="uno_splash")
    heuristic = result.stats["heuristic"]
    assert result.rounds == 200
    assert heuristic.wins / heuristic.seat_rounds >= 0.7


def _respond_view(under: dict[str, Any], owner_hand: int) -> dict[str, Any]:
    card = {"id": "wd4-1", "type": "wd4", "colour": None, "rank": "wd4"}
    hand = [{"id": "blue-3-a", "type": "blue-3", "colour": "blue", "rank": "3"}]
    return {
        "you": 1,
        "hand": hand,
        "discard_pile": [card, under],
        "pending_choice": {"owner": 0, "seat": 1, "card": card},
        "seats": [{"hand_size": owner_hand}, {"hand_size": 1}],
    }


def test_the_heuristic_challenges_when_the_odds_favour_it() -> None:
    red = {"id": "red-9-a", "type": "red-9", "colour": "red", "rank": "9"}
    # Fourteen cards: one of the 24 red cards unseen among them is most likely.
    assert splash.should_challenge(_respond_view(red, 14))
    # One card left: a red one among the 70-odd unseen cards is unlikely.
    assert not splash.should_challenge(_respond_view(red, 1))
    # On a wild, the colour it named is not on the table: no challenge.
    wild = {"id": "wild-2", "type": "wild", "colour": None, "rank": "wild"}
    assert not splash.should_challenge(_respond_view(wild, 14))


def _stack_view(
    hand: list[dict[str, Any]], top: dict[str, Any], legal: list[str]
) -> dict[str, Any]:
    """Seat 1 owes a stack of 2 on ``top`` (red in force) holding ``hand``."""
    plays = [{"type": "play", "seat": 1, "card": c["id"]} for c in hand if c["rank"] in legal]
    return {
        "you": 1,
        "current_seat": 1,
        "hand": hand,
        "colour": "red",
        "discard_top": top,
        "discard_pile": [top],
        "pending_choice": None,
        "stack": {"total": 2, "seat": 1, "stackable": legal},
        "seats": [{"hand_size": 5, "active": True}, {"hand_size": len(hand), "active": True}],
        "direction": "clockwise",
        "legal_actions": [*plays, {"type": "take_stack", "seat": 1}],
    }


def test_the_heuristic_passes_a_stack_on_and_takes_it_when_it_cannot() -> None:
    rng = random.Random(0)
    top = {"id": "red-draw2-a", "type": "red-draw2", "colour": "red", "rank": "draw2"}
    blue_two = {"id": "blue-draw2-a", "type": "blue-draw2", "colour": "blue", "rank": "draw2"}
    four = {"id": "wd4-1", "type": "wd4", "colour": None, "rank": "wd4"}
    red_five = {"id": "red-5-a", "type": "red-5", "colour": "red", "rank": "5"}
    # A Draw Two goes on before a Wild Draw Four.
    view = _stack_view([four, blue_two, red_five], top, ["draw2", "wd4"])
    assert splash.choose(view, rng) == Action("play", 1, "blue-draw2-a")
    # Holding red (in force), a Wild Draw Four would be a bluff: the total is taken instead.
    view = _stack_view([four, red_five], top, ["draw2", "wd4"])
    assert splash.choose(view, rng) == Action("take_stack", 1)
    # Without red, the Wild Draw Four passes the stack on.
    blue_five = {**red_five, "id": "blue-5-a", "type": "blue-5", "colour": "blue"}
    chosen = splash.choose(_stack_view([four, blue_five], top, ["draw2", "wd4"]), rng)
    assert chosen == Action("play", 1, "wd4-1", colour="blue", uno=True)  # one card left


def test_simulate_plays_uno_splash() -> None:
    out = io.StringIO()
    call_command("simulate", game="uno_splash", games=6, bots="heuristic,random", stdout=out)
    text = out.getvalue()
    assert "6 games, 6 rounds, 2 players" in text and "\nheuristic " in text
    assert "wd4" in text and "skip" in text
