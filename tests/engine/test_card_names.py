"""Every game names its cards (``Game.card_name``) for screens the server draws (the moderators'
replay): every card of every preset has a name a person reads, not its id."""

from __future__ import annotations

from typing import Any

import pytest

from games.engine.gin.game import GIN_RUMMY
from games.engine.interface import Game
from games.engine.uno.allwild.game import ALL_WILD
from games.engine.uno.nomercy.game import NO_MERCY
from games.engine.uno.splash.game import SPLASH


@pytest.mark.parametrize("game", [ALL_WILD, SPLASH, NO_MERCY, GIN_RUMMY], ids=lambda g: g.kind)
def test_every_card_of_every_preset_has_a_readable_name(game: Game[Any, Any]) -> None:
    for preset in game.presets:
        for card in game.deck(preset):  # type: ignore[attr-defined]
            name = game.card_name(card)
            assert (
                name
                and (name[0].isupper() or name[0].isdigit())
                and "-" not in name
                and "_" not in name
            ), card


def test_cards_are_named_as_printed() -> None:
    assert ALL_WILD.card_name("targeted_draw2-3") == "Targeted Draw 2"
    assert ALL_WILD.card_name("draw4-1") == "Draw 4"
    assert SPLASH.card_name("red-7-b") == "Red 7"
    assert SPLASH.card_name("blue-skip-a") == "Blue Skip"
    assert SPLASH.card_name("wd4-2") == "Wild Draw Four"
    assert NO_MERCY.card_name("green-discard_all-c") == "Green Discard All"
    assert NO_MERCY.card_name("roulette-8") == "Wild Color Roulette"
    assert NO_MERCY.card_name("wd10-3") == "Wild Draw Ten"
    assert GIN_RUMMY.card_name("Th") == "10 of hearts"
    assert GIN_RUMMY.card_name("Qc") == "Queen of clubs"
    assert GIN_RUMMY.card_name("7d") == "7 of diamonds"
