"""Each game's OpenAPI examples of its action requests, one module per game; the action
endpoint's schema shows them all, game by game, in the order of ``BY_KIND``."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample

from games.api.examples import allwild, gin, splash
from games.engine import registry
from games.engine.gin.state import GAME as GIN_RUMMY
from games.engine.uno.splash.rules import GAME as UNO_SPLASH

# A game without examples (Uno Show 'Em No Mercy, so far) is simply not here.
BY_KIND: dict[str, list[OpenApiExample]] = {
    registry.DEFAULT_KIND: allwild.ACTIONS,
    UNO_SPLASH: splash.ACTIONS,
    GIN_RUMMY: gin.ACTIONS,
}


def action_examples() -> list[OpenApiExample]:
    """Every game's action examples, for the action endpoint's schema."""
    return [example for examples in BY_KIND.values() for example in examples]
