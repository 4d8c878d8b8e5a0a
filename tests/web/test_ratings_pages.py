"""The leaderboard and a player's profile (issue 32) in Chromium on a 390×844 phone, in English
and Danish: alice finds her own place (8th) on the Uno Splash board, opens bob's profile from it and
sees each game's rating with its history drawn as an SVG chart (no chart library: the page's
policy allows only the client's own files), the streak and the latest rated games. axe-core finds
nothing serious on either page."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from ratings.models import Rating, RatingChange
from tests.web.rated import on_phone, rated_players

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("lift_throttles"),
]

WORDS = {
    "en": {
        "place": "You are number {place}, rated 1,700.",
        "streak": "Wins in a row",
    },
    "da": {
        "place": "Du er nummer {place} med rating 1.700.",
        "streak": "Sejre i træk",
    },
}


def test_the_board_leads_to_a_profile_with_its_rating_charts(clients: object, lang: str) -> None:
    words = WORDS[lang]
    alice, bob = rated_players()
    mine = on_phone(clients, alice, lang, "/leaderboards/uno_splash")
    page = mine.page
    listed = Rating.objects.filter(kind="uno_splash", rated_games__gte=10)
    place = 1 + listed.filter(shown__gt=1700).count()
    assert place == 8  # freja to william, and bob
    expect(page.locator("#board-you")).to_have_text(words["place"].format(place=place))
    rows = page.locator(".board .board-row")
    expect(rows).to_have_count(listed.count())
    expect(page.locator(".board-row.me .board-place")).to_have_text(str(place))
    expect(page.locator(".board-tabs a[aria-current=page]")).to_have_text("Uno Splash")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    mine.axe(f"leaderboard ({lang})")
    mine.shot(f"leaderboard-{lang}", rows.first)

    page.locator(".board-row", has_text="Bob").locator("a").click()
    expect(page).to_have_url(f"{mine.base}/players/{bob.user.pk}/profile")
    expect(page.locator("h1")).to_have_text("Bob")
    charts = page.locator("svg.rating-chart")
    expect(charts).to_have_count(2)  # Gin Rummy and Uno Splash
    splash = page.locator("article", has_text="Uno Splash").locator("svg.rating-chart")
    # One point per rated game: the polyline has 40 of them, the last one marked.
    points = splash.locator("polyline").get_attribute("points") or ""
    assert len(points.split()) == 40
    expect(splash.locator("circle")).to_have_count(1)
    last = RatingChange.objects.filter(user=bob.user, kind="uno_splash").latest("created_at")
    expect(splash.locator("desc")).to_contain_text(str(last.shown_after))
    expect(page.locator("#stat-streak dt")).to_have_text(words["streak"])
    expect(page.locator(".recent-games li")).to_have_count(10)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    mine.axe(f"profile ({lang})")
    mine.shot(f"profile-{lang}", splash)
