"""Gin Rummy's action requests, as OpenAPI examples."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample

ACTIONS = [
    OpenApiExample(
        "Gin Rummy: take the upcard",
        value={"type": "take_upcard", "expected_version": 1},
        request_only=True,
    ),
    OpenApiExample(
        "Gin Rummy: draw from the discard pile",
        value={"type": "draw", "source": "discard", "expected_version": 6},
        request_only=True,
    ),
    OpenApiExample(
        "Gin Rummy: discard the king of clubs",
        value={"type": "discard", "card": "Kc", "expected_version": 7},
        request_only=True,
    ),
    OpenApiExample(
        "Gin Rummy: knock, the 4 of hearts face down",
        value={"type": "knock", "card": "4h", "expected_version": 9},
        request_only=True,
    ),
    OpenApiExample(
        "Gin Rummy: big gin",
        value={"type": "big_gin", "expected_version": 9},
        request_only=True,
    ),
]
