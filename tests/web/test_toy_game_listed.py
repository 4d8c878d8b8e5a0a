"""The web client's list of games is the server's: the toy game of tests/toygame/, registered
by its one line, is offered by the new game screen as the real games are (catalog.js reads
GET games/options/; nothing in web/ names it), and its table is drawn by the fallback renderer
until the client has one of its own."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from games.kinds import registry as kinds
from players.models import ApiToken, User
from tests.toygame import TOY, registered
from tests.web.conftest import PHONE

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def toy() -> Iterator[None]:
    with registered():
        yield


def test_the_new_game_screen_offers_the_registered_toy_game(clients: Any) -> None:
    user = User.objects.create_user(username="hostt", display_name="Hostt")
    _, token = ApiToken.issue(user, name="test", scope=ApiToken.SCOPE_PLAY)
    # The service worker keeps the games list for offline use: this test reads it fresh.
    host = clients("hostt", **{**PHONE, "service_workers": "block"})
    host.sign_in_with_token(token, "/login")
    page = host.page
    host.goto("/games/new")

    game = page.get_by_label("Game", exact=True)
    expect(game).to_be_visible()
    names = [kinds.adapter_of(kind).game.name for kind in (a.kind for a in kinds.adapters())]
    assert game.locator("option").all_inner_texts() == names
    assert TOY.name in names

    game.select_option(TOY.kind)
    expect(page.get_by_label("Rules", exact=True)).to_have_value("plain")
    assert page.get_by_label("Seats").locator("option").all_inner_texts() == ["2 players"]
    expect(game).to_have_accessible_description(re.compile("cannot show this game's table yet"))
    # A game without house rules has no house rules field (and no stray "null" in its place).
    expect(page.get_by_text("House rules")).to_have_count(0)
    expect(page.get_by_text("null", exact=True)).to_have_count(0)
    host.shot("toy-game-listed", game)
