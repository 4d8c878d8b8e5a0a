"""The top bar leads to the rating boards (issue 32): on a 390×844 phone, in English and Danish,
alice taps "Rankings" in the top bar from her games, lands on the leaderboards with that link
marked as the current page, finds herself on Uno Splash's, goes on to the season board (still
marked: every board page is under it) and back to her games. The top bar's five links are each
at least 44 × 44 px and fit the phone's width (at 360 px too, the narrowest width the client is
laid out for), and axe-core finds nothing serious on the board."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.web.rated import on_phone, rated_players

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("lift_throttles"),
]

WORDS = {
    "en": {"boards": "Rankings", "board": "{game}: leaderboard"},
    "da": {"boards": "Rangliste", "board": "{game}: rangliste"},
}

# Each top-bar target's box, and how wide the page and the top bar's content are.
TOP_BAR = """() => {
    const bar = document.getElementById("topbar");
    const targets = [...bar.querySelectorAll("a[href]")].map((a) => {
        const r = a.getBoundingClientRect();
        return { text: a.textContent.trim(), left: r.left, right: r.right, top: r.top,
                 width: r.width, height: r.height };
    });
    return { targets, page: document.documentElement.scrollWidth, bar: bar.scrollWidth,
             viewport: window.innerWidth };
}"""


def top_bar_fits(page: Page, width: int) -> None:
    """Every link of the top bar is a 44 px target inside the screen, all on one row, and
    nothing scrolls sideways."""
    page.set_viewport_size({"width": width, "height": 844})
    found = page.evaluate(TOP_BAR)
    assert found["viewport"] == width
    assert found["page"] <= width, found
    assert found["bar"] <= width, found
    targets = found["targets"]
    assert len(targets) == 6, targets  # the logo and five links
    for target in targets:
        assert target["width"] >= 44 and target["height"] >= 44, (width, target)
        assert target["left"] >= 0 and target["right"] <= width, (width, target)
    assert len({round(t["top"]) for t in targets[1:]}) == 1, targets  # one row


def test_the_top_bar_leads_to_the_boards_on_a_phone(clients: Any, lang: str) -> None:
    words = WORDS[lang]
    alice, _bob = rated_players()
    mine = on_phone(clients, alice, lang, "/games")
    page = mine.page
    boards = page.locator("#topbar nav a", has_text=words["boards"])
    expect(boards).to_have_attribute("href", "/leaderboards")
    expect(boards).not_to_have_attribute("aria-current", "page")
    for width in (390, 360):
        top_bar_fits(page, width)
    page.set_viewport_size({"width": 390, "height": 844})

    boards.tap()
    expect(page).to_have_url(f"{mine.base}/leaderboards")
    expect(page.locator("h1")).to_have_text(words["board"].format(game="Uno All Wild"))
    expect(boards).to_have_attribute("aria-current", "page")
    page.locator(".board-tabs a", has_text="Uno Splash").tap()
    expect(page.locator("h1")).to_have_text(words["board"].format(game="Uno Splash"))
    expect(page.locator(".board .board-row.me")).to_have_count(1)
    expect(boards).to_have_attribute("aria-current", "page")
    top_bar_fits(page, 390)
    mine.axe(f"leaderboard from the top bar ({lang})")
    mine.shot(f"top-bar-boards-{lang}", boards)

    page.locator("#board-season-link").tap()
    expect(page).to_have_url(f"{mine.base}/seasons/uno_splash")
    expect(boards).to_have_attribute("aria-current", "page")
    page.locator('#topbar nav a[href="/games"]').tap()
    expect(page).to_have_url(f"{mine.base}/games")
    expect(boards).not_to_have_attribute("aria-current", "page")
