"""Gin Rummy's action requests, as OpenAPI examples."""

from __future__ import annotations

from games.api.examples.base import action

ACTIONS = [
    action("Gin Rummy: take the upcard", type="take_upcard", expected_version=1),
    action(
        "Gin Rummy: draw from the discard pile", type="draw", source="discard", expected_version=6
    ),
    action("Gin Rummy: discard the king of clubs", type="discard", card="Kc", expected_version=7),
    action(
        "Gin Rummy: knock, the 4 of hearts face down", type="knock", card="4h", expected_version=9
    ),
    action("Gin Rummy: big gin", type="big_gin", expected_version=9),
]
