"""Uno Splash's action requests, as OpenAPI examples."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample

ACTIONS = [
    OpenApiExample(
        "Uno Splash Wild Draw Four naming green",
        value={"type": "play", "card": "wd4-2", "colour": "green", "expected_version": 7},
        request_only=True,
    ),
    OpenApiExample(
        "Uno Splash opening Wild colour",
        value={"type": "choose_colour", "colour": "blue", "expected_version": 1},
        request_only=True,
    ),
    OpenApiExample(
        "Uno Splash accept a Wild Draw Four",
        value={"type": "accept", "expected_version": 8},
        request_only=True,
    ),
    OpenApiExample(
        "Uno Splash challenge a Wild Draw Four",
        value={"type": "challenge", "expected_version": 8},
        request_only=True,
    ),
]
