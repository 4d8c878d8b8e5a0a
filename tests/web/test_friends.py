"""The friends page (issue 34) in Chromium on a 390×844 phone, in English and Danish: alice
finds bob by the start of his name, follows him (he follows back: friends), sees him online,
challenges him to a game of Uno Splash; bob accepts on his own friends page and lands at the
started table. axe-core finds nothing serious on the page at any step."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games.models import Game
from social.models import Challenge, Follow, Profile
from tests.games.conftest import Player, make_player
from tests.web.conftest import PHONE

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("lift_throttles"),
]

SIZE = {**PHONE, "viewport": {"width": 390, "height": 844}, "device_scale_factor": 1}
WORDS = {
    "en": {"locale": "en-GB", "follow": "Follow Bøb", "online": "Online now", "accept": "Accept"},
    "da": {"locale": "da-DK", "follow": "Følg Bøb", "online": "Online nu", "accept": "Tag imod"},
}


@pytest.fixture
def alice(transactional_db: None) -> Player:
    return make_player("alice")


@pytest.fixture
def bob(transactional_db: None) -> Player:
    player = make_player("bob")
    player.user.display_name = "Bøb"
    player.user.save()
    return player


def test_a_friend_found_followed_and_challenged_starts_a_game(
    clients: object, alice: Player, bob: Player, lang: str
) -> None:
    words = WORDS[lang]
    for player in (alice, bob):
        player.user.language = lang
        player.user.save(update_fields=["language"])
    mine = clients("alice", locale=words["locale"], **SIZE)  # type: ignore[operator]
    mine.sign_in_with_token(alice.token, "/friends")
    page = mine.page
    expect(page.locator("h1")).to_be_visible()

    page.locator("#friend-search").fill("BO")  # "Bøb", by case and accent
    page.locator(".search-form button[type=submit]").click()
    page.get_by_role("button", name=words["follow"]).click()
    expect(page.locator("#following-title")).to_be_visible()  # bob waits to follow back
    assert Follow.objects.filter(follower=alice.user, followee=bob.user).exists()

    Follow.objects.create(follower=bob.user, followee=alice.user)  # bob follows back
    Profile.objects.filter(user=bob.user).update(last_seen_at=timezone.now() - timedelta(minutes=1))
    page.reload()
    friend = page.locator(".friends[aria-labelledby=friends-title] .friend").first
    expect(friend).to_contain_text(words["online"])
    mine.axe(f"friends ({lang})")

    friend.locator("button[aria-expanded]").click()
    page.locator(".challenge-form select").select_option("uno_splash")
    mine.shot(f"friends-{lang}", friend.locator(".challenge-form"))
    page.locator(".challenge-form button[type=submit]").click()
    page.wait_for_function("() => document.querySelectorAll('#challenges-title').length === 1")
    mine.axe(f"friends with a challenge sent ({lang})")
    for width in (390, 360):  # the top bar's four links fit a small phone in both languages
        page.set_viewport_size({"width": width, "height": 740})
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    challenge = Challenge.objects.get(challenger=alice.user, challenged=bob.user)

    theirs = clients("bob", locale=words["locale"], **SIZE)  # type: ignore[operator]
    theirs.sign_in_with_token(bob.token, "/friends")
    theirs.page.get_by_role("button", name=words["accept"]).click()
    expect(theirs.page).to_have_url(f"{theirs.base}/games/{challenge.game_id}")
    game = Game.objects.get(pk=challenge.game_id)
    assert (game.status, game.kind) == (Game.ACTIVE, "uno_splash")
