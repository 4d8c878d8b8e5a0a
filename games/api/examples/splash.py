"""Uno Splash's action requests, as OpenAPI examples."""

from __future__ import annotations

from games.api.examples.base import action

ACTIONS = [
    action(
        "Uno Splash Wild Draw Four naming green",
        type="play",
        card="wd4-2",
        colour="green",
        expected_version=7,
    ),
    action(
        "Uno Splash opening Wild colour", type="choose_colour", colour="blue", expected_version=1
    ),
    action("Uno Splash accept a Wild Draw Four", type="accept", expected_version=8),
    action("Uno Splash challenge a Wild Draw Four", type="challenge", expected_version=8),
]
