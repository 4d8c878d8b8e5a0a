"""Season boards and the rated badge (issue 32) in Chromium on a 390×844 phone, in English and
Danish: alice goes from the Uno Splash leaderboard to this month's season board, reads last
month's, and switches game keeping the month; the lobby and her games list mark rated games.
axe-core finds nothing serious on the season board or the lobby."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.games.conftest import make_player, new_lobby
from tests.web.rated import on_phone, season_players

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("lift_throttles"),
]

DANISH_MONTHS = [
    "januar", "februar", "marts", "april", "maj", "juni",
    "juli", "august", "september", "oktober", "november", "december",
]  # fmt: skip
WORDS = {
    "en": {
        "to_season": "This month's season board",
        "title": "Uno Splash: season, {month}",
        "wins": ["3 wins", "2 wins", "1 win"],
        "rated": "Rated",
    },
    "da": {
        "to_season": "Månedens sæsontavle",
        "title": "Uno Splash: sæson, {month}",
        "wins": ["3 sejre", "2 sejre", "1 sejr"],
        "rated": "Ratet",
    },
}


def month_name(month: str, lang: str) -> str:
    day = date.fromisoformat(f"{month}-01")
    return f"{DANISH_MONTHS[day.month - 1]} {day.year}" if lang == "da" else f"{day:%B %Y}"


def fits_the_phone(page: Any) -> None:
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390


def test_the_season_boards_this_month_and_last(clients: Any, lang: str) -> None:
    words = WORDS[lang]
    alice, months = season_players()
    mine = on_phone(clients, alice, lang, "/leaderboards/uno_splash")
    page = mine.page
    page.get_by_role("link", name=words["to_season"]).click()
    expect(page).to_have_url(f"{mine.base}/seasons/uno_splash")
    this = month_name(months["this"], lang)
    expect(page.locator("h1")).to_have_text(words["title"].format(month=this))
    rows = page.locator(".board.season .board-row")
    expect(rows).to_have_count(3)
    expect(rows.locator(".board-name")).to_have_text(["Freja", "Alice", "Magnus"])
    expect(rows.locator(".board-games")).to_have_text(words["wins"])
    expect(rows.locator(".board-rating")).to_have_text(
        ["1,760", "1,660", "1,610"] if lang == "en" else ["1.760", "1.660", "1.610"]
    )
    expect(page.locator(".board-row.me .board-place")).to_have_text("2")
    expect(page.locator(".season-months a[aria-current=page]")).to_have_text(this)
    fits_the_phone(page)
    mine.axe(f"season board ({lang})")
    mine.shot(f"season-{lang}", rows.first)

    # Last month's board stays readable, and another game's tab keeps the month.
    page.locator(".season-months a", has_text=month_name(months["last"], lang)).click()
    expect(page).to_have_url(f"{mine.base}/seasons/uno_splash/{months['last']}")
    expect(rows.locator(".board-name")).to_have_text(["Ida", "Alice"])
    page.reload()  # the month's own address serves the page too
    expect(rows.locator(".board-name")).to_have_text(["Ida", "Alice"])
    page.locator(".board-tabs a", has_text="Gin Rummy").click()
    expect(page).to_have_url(f"{mine.base}/seasons/gin_rummy/{months['last']}")
    expect(page.locator(".empty")).to_be_visible()
    expect(rows).to_have_count(0)


def test_the_lobby_and_my_games_mark_rated_games(clients: Any, lang: str) -> None:
    words = WORDS[lang]
    alice, bob, carol = (make_player(name) for name in ("alice", "bob", "carol"))
    rated = new_lobby(bob, game="uno_splash", visibility="public")
    casual = new_lobby(carol, game="uno_splash", visibility="public", options={"stacking": True})
    assert rated["rated"] and not casual["rated"]
    mine = new_lobby(alice, game="gin_rummy", max_players=2)
    assert mine["rated"]
    browser = on_phone(clients, alice, lang, "/lobby")
    page = browser.page
    listed = page.locator("ul[aria-labelledby=open-title] li")
    expect(listed).to_have_count(2)
    expect(listed.filter(has_text="Bob").locator(".pill-rated")).to_have_text(words["rated"])
    expect(listed.filter(has_text="Carol").locator(".pill-rated")).to_have_count(0)
    fits_the_phone(page)
    browser.axe(f"lobby ({lang})")
    browser.shot(f"lobby-rated-{lang}", listed.first)

    browser.goto("/games")
    row = page.locator(".game-row", has=page.locator(f"a[href='/games/{mine['id']}']"))
    expect(row.locator(".pill-rated")).to_have_text(words["rated"])
    fits_the_phone(page)
