"""Uno All Wild's action requests, as OpenAPI examples (the house rules' last)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample

ACTIONS = [
    OpenApiExample(
        "Play a card",
        value={"type": "play", "card": "wild-4", "expected_version": 12},
        request_only=True,
    ),
    OpenApiExample(
        "Play a Force Swap on seat 2 and say UNO",
        value={
            "type": "play",
            "card": "force_swap-3",
            "target": 2,
            "uno": True,
            "expected_version": 12,
        },
        request_only=True,
    ),
    OpenApiExample("Draw", value={"type": "draw", "expected_version": 12}, request_only=True),
    OpenApiExample(
        "Play the card just drawn",
        value={"type": "play_drawn", "expected_version": 13},
        request_only=True,
    ),
    OpenApiExample(
        "Pass after drawing",
        value={"type": "pass", "expected_version": 13},
        request_only=True,
    ),
    OpenApiExample("Say UNO", value={"type": "uno", "expected_version": 14}, request_only=True),
    OpenApiExample(
        "Catch seat 1 without UNO",
        value={"type": "catch", "target": 1, "expected_version": 14},
        request_only=True,
    ),
    OpenApiExample(
        "Choose the target of the opening card",
        value={"type": "choose_target", "target": 2, "expected_version": 1},
        request_only=True,
    ),
    OpenApiExample(
        "Stacking: take the cards owed",
        value={"type": "take_stack", "expected_version": 15},
        request_only=True,
    ),
    OpenApiExample(
        "Double down: two Targeted Draw 2s, at seats 1 and 2",
        value={
            "type": "play_pair",
            "cards": ["targeted_draw2-3", "targeted_draw2-9"],
            "targets": [1, 2],
            "expected_version": 15,
        },
        request_only=True,
    ),
    OpenApiExample(
        "Blind play: play the top card of your hand",
        value={"type": "play_top", "expected_version": 15},
        request_only=True,
    ),
    OpenApiExample(
        "Mercy: discard five cards",
        value={
            "type": "mercy",
            "cards": ["draw4-1", "draw4-2", "wild-3", "wild-7", "skip-2"],
            "expected_version": 15,
        },
        request_only=True,
    ),
]
