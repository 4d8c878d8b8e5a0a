"""Uno All Wild's action requests, as OpenAPI examples (the house rules' last)."""

from __future__ import annotations

from games.api.examples.base import action

ACTIONS = [
    action("Play a card", type="play", card="wild-4", expected_version=12),
    action(
        "Play a Force Swap on seat 2 and say UNO",
        type="play",
        card="force_swap-3",
        target=2,
        uno=True,
        expected_version=12,
    ),
    action("Draw", type="draw", expected_version=12),
    action("Play the card just drawn", type="play_drawn", expected_version=13),
    action("Pass after drawing", type="pass", expected_version=13),
    action("Say UNO", type="uno", expected_version=14),
    action("Catch seat 1 without UNO", type="catch", target=1, expected_version=14),
    action(
        "Choose the target of the opening card", type="choose_target", target=2, expected_version=1
    ),
    action("Stacking: take the cards owed", type="take_stack", expected_version=15),
    action(
        "Double down: two Targeted Draw 2s, at seats 1 and 2",
        type="play_pair",
        cards=["targeted_draw2-3", "targeted_draw2-9"],
        targets=[1, 2],
        expected_version=15,
    ),
    action("Blind play: play the top card of your hand", type="play_top", expected_version=15),
    action(
        "Mercy: discard five cards",
        type="mercy",
        cards=["draw4-1", "draw4-2", "wild-3", "wild-7", "skip-2"],
        expected_version=15,
    ),
]
