"""My games sorted by urgency (issue 35, "What makes it feel like a game"): the games waiting for
my move first, the least time left first; then the others' turns in the same order (the soonest
to come back to me first), in English and Danish at 390×844 (touch).

The others' turns are made so that the server's order (newest first) and the urgent one differ:
the older game has the less time left."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games.models import Game
from tests.games.conftest import make_player, start_game
from tests.web.phones import API_AND_BROWSER, LANGUAGES, phone
from tests.web.test_notices import turn_to

pytestmark = API_AND_BROWSER

WITH = {"en": "With {}", "da": "Med {}"}


def due_in(game_id: str, delta: timedelta) -> None:
    """The turn's deadline, moved (deadlines live in the database: the sweep reads them there)."""
    Game.objects.filter(pk=game_id).update(turn_deadline=timezone.now() + delta)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_my_games_lists_my_turns_then_theirs_by_the_time_left(clients: Any, lang: str) -> None:
    alice = make_player("alice")
    bob, carol, dave, erin = (make_player(n) for n in ("bob", "carol", "dave", "erin"))
    # Two of my turns: bob's game has hours left, carol's twenty minutes.
    for other, left in ((bob, timedelta(hours=5)), (carol, timedelta(minutes=20))):
        game = start_game(alice, other)
        turn_to(alice, [alice, other], game)
        due_in(game, left)
    # Two of theirs: dave's (the older) is due in an hour, erin's (the newer) in ten.
    for other, left in ((dave, timedelta(hours=1)), (erin, timedelta(hours=10))):
        game = start_game(alice, other)
        turn_to(other, [alice, other], game)
        due_in(game, left)

    client = phone(clients, alice.user, alice.token, lang, "/games")
    page = client.page
    rows = page.locator(".game-row .game-title")
    expect(rows).to_have_count(4)
    expect(rows).to_have_text([WITH[lang].format(n) for n in ("Carol", "Bob", "Dave", "Erin")])
    expect(page.locator(".game-row.mine")).to_have_count(2)
    expect(page.locator(".game-row.mine .time-left.urgent")).to_have_count(1)
    client.shot(f"my-games-urgency-{lang}", rows.first)
    client.axe(f"my games sorted by urgency ({lang})")
