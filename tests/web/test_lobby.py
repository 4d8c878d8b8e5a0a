"""The lobby (/lobby, issue 34) in Chromium on a 390×844 phone, in English and Danish: alice
seeks a game of Uno Splash for two and sees her seek waiting; bob finds it among the players
looking for a game, takes it and lands at the started table (dave's seek for three offers a seek
like it instead); carol's public game is listed with
her rating and joined. axe-core finds nothing serious on the page."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.models import Game, Seat
from games.services import create_game
from ratings.models import Rating
from social import pairing
from social.models import Seek
from tests.games.conftest import Player, make_player
from tests.web.conftest import PHONE

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("lift_throttles"),
]

SIZE = {**PHONE, "viewport": {"width": 390, "height": 844}, "device_scale_factor": 1}
WORDS = {
    "en": {
        "locale": "en-GB",
        "seek": "Find a game",
        "play": "Play Alice now",
        "same": "Seek the same game as Dave",
    },
    "da": {
        "locale": "da-DK",
        "seek": "Find et spil",
        "play": "Spil mod Alice nu",
        "same": "Søg samme spil som Dave",
    },
}


def test_a_seek_is_posted_found_by_another_player_and_starts_a_game(
    clients: object, transactional_db: None, lang: str
) -> None:
    words = WORDS[lang]
    alice, bob, carol, dave = (make_player(name) for name in ("alice", "bob", "carol", "dave"))
    player: Player
    for player in (alice, bob, carol, dave):
        player.user.language = lang
        player.user.save(update_fields=["language"])
    Rating.objects.create(user=carol.user, kind="uno_splash", shown=1620)
    public = create_game(host=carol.user, kind="uno_splash", max_players=3, visibility="public")

    mine = clients("alice", locale=words["locale"], **SIZE)  # type: ignore[operator]
    mine.sign_in_with_token(alice.token, "/lobby")
    page = mine.page
    page.locator("#seek-game").select_option("uno_splash")
    page.locator("#seek-seats").select_option("2")
    page.get_by_role("button", name=words["seek"]).click()
    expect(page.locator("#mine-title")).to_be_visible()
    assert Seek.objects.get(user=alice.user).status == Seek.OPEN
    games = page.locator(".friends[aria-labelledby=open-title] .friend")
    expect(games).to_contain_text("Carol (1620)")
    mine.axe(f"lobby ({lang})")
    mine.shot(f"lobby-{lang}", page.locator("#mine-title"), games.first)
    for width in (390, 360):
        page.set_viewport_size({"width": width, "height": 740})
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width

    theirs = clients("bob", locale=words["locale"], **SIZE)  # type: ignore[operator]
    # A seek for three is not taken alone: its button posts a seek like it.
    pairing.post_seek(user=dave.user, kind="uno_splash", seats=3)
    theirs.sign_in_with_token(bob.token, "/lobby")
    expect(theirs.page.get_by_role("button", name=words["same"])).to_be_visible()
    theirs.page.get_by_role("button", name=words["play"]).click()
    theirs.page.wait_for_url(re.compile(r"/games/[0-9a-f-]{36}$"))
    seek = Seek.objects.get(user=alice.user)
    expect(theirs.page).to_have_url(f"{theirs.base}/games/{seek.game_id}")
    game = Game.objects.get(pk=seek.game_id)
    assert (game.status, game.kind, seek.status) == (Game.ACTIVE, "uno_splash", Seek.MATCHED)

    page.reload()
    page.locator(".friends[aria-labelledby=open-title] .friend button").click()
    expect(page).to_have_url(f"{mine.base}/games/{public.pk}")
    assert Seat.objects.filter(game=public, user=alice.user).exists()
