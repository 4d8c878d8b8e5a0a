"""Play again against the computer (issue 35, §2): on the results of a finished game against
bots, one tap deals a new game of the same kind with the same bots (names and levels) and
options, and opens its table: no empty lobby, no bots to add again. English and Danish at
390×844 (touch)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from games.models import Game
from tests.web.finished import finished_against_bots
from tests.web.phones import LANGUAGES, phone

pytestmark = pytest.mark.django_db(transaction=True)

PLAY_AGAIN = {"en": "Play again", "da": "Spil igen"}
LOBBY = {"en": "Game lobby", "da": "Spillets lobby"}


def bots_of(game: Game) -> list[tuple[str, str]]:
    return sorted((s.bot_name, s.bot_level) for s in game.seats.all() if s.is_bot and not s.user)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_play_again_deals_a_new_game_against_the_same_bots(clients: Any, lang: str) -> None:
    old_id, user, token = finished_against_bots("uno_no_mercy", bots=2, language=lang)
    old = Game.objects.get(pk=old_id)
    client = phone(clients, user, token, lang, f"/games/{old_id}")
    page = client.page
    play_again = page.get_by_role("button", name=PLAY_AGAIN[lang])
    expect(play_again).to_be_visible()

    play_again.tap()

    expect(page).not_to_have_url(re.compile(f"/games/{old_id}$"))
    new = Game.objects.get(rematch_of_id=old_id)
    expect(page).to_have_url(re.compile(f"/games/{new.pk}$"))
    assert new.status == Game.ACTIVE
    assert (new.kind, new.target_score, new.options) == (old.kind, old.target_score, old.options)
    assert bots_of(new) == bots_of(old) == [("Ada", "heuristic"), ("Alan", "heuristic")]
    # The table at once, with both bots at it; never the lobby.
    expect(page.locator(".hand")).to_be_visible()
    for name in ("Ada", "Alan"):
        expect(page.get_by_text(re.compile(f"^{name}")).first).to_be_visible()
    expect(page.get_by_role("heading", name=LOBBY[lang])).to_have_count(0)
    client.shot(f"play-again-{lang}", page.locator(".hand"))
    client.axe(f"the table of a game played again ({lang})")
