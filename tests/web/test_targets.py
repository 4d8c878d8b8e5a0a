"""Every target on the main screens is at least 44 × 44 px (issue 35, §9; WCAG 2.5.5's size), in
English and Danish at 390×844 (touch): the top bar's logo and links, "Sign up" under "Log in" (a
full-width button now, not a 19 px link in a sentence), the links and buttons of my games, a new
game (both ways to play), the inbox, friends, settings, the lobby and the leaderboards.

A checkbox or radio button is measured by its label, which is what a finger taps. The one
exception (WCAG 2.5.8's "inline"): a link inside a sentence, whose size is the text's; the
screens checked here have none, and the check says which it let pass.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from social import services as social
from tests.games.conftest import game_url, make_player, start_game
from tests.games.test_lobby_api import finished_game
from tests.web.phones import API_AND_BROWSER, LANGUAGES, phone, visitor

pytestmark = API_AND_BROWSER

SIGN_UP = {"en": "Sign up", "da": "Opret konto"}
LOG_IN = {"en": "Log in", "da": "Log ind"}

# [small targets, inline links let pass]: each as "tag "words" width×height".
SMALL_TARGETS = """() => {
    const small = [], inline = [];
    const targets = "a[href], button, select, summary, input, textarea, [role=button]";
    for (const el of document.querySelectorAll(targets)) {
        if (el.closest("[hidden], .visually-hidden") || el.matches(".skip-link")) continue;
        const style = getComputedStyle(el);
        if (style.visibility !== "visible" || style.display === "none") continue;
        const box = el.matches("input[type=checkbox], input[type=radio]");
        const r = (box ? el.closest("label") || el : el).getBoundingClientRect();
        if (!r.width && !r.height) continue;
        if (r.width >= 44 && r.height >= 44) continue;
        const label = el.textContent || el.value || el.getAttribute("aria-label") || "";
        const size = `${Math.round(r.width)}×${Math.round(r.height)}`;
        const what = `${el.tagName.toLowerCase()} "${label.trim().slice(0, 30)}" ${size}`;
        const text = el.parentElement.textContent.trim();
        const sentence = el.tagName === "A" && style.display === "inline"
            && text !== el.textContent.trim();
        (sentence ? inline : small).push(what);
    }
    return [small, inline];
}"""


def no_small_targets(page: Page, screen: str) -> None:
    small, inline = page.evaluate(SMALL_TARGETS)
    assert small == [], f"targets under 44 × 44 px on {screen}: {small}"
    assert inline == [], f"inline links on {screen} (allowed, but say so here): {inline}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_target_of_the_signed_out_screens_is_44_px(clients: Any, lang: str) -> None:
    client = visitor(clients, lang)
    page = client.page
    client.goto("/login")
    log_in = page.locator("form button[type=submit]")
    sign_up = page.get_by_role("link", name=SIGN_UP[lang])
    expect(sign_up).to_be_visible()
    no_small_targets(page, "log in")
    # "Sign up" sits right under "Log in", as wide as it.
    above, below = log_in.bounding_box(), sign_up.bounding_box()
    assert above and below
    assert 0 < below["y"] - (above["y"] + above["height"]) < 80
    assert below["width"] >= above["width"] - 1
    client.shot(f"targets-log-in-{lang}", sign_up)
    client.axe(f"log in ({lang})")
    sign_up.tap()
    expect(page.get_by_role("link", name=LOG_IN[lang])).to_be_visible()
    no_small_targets(page, "sign up")
    # Signed up from there, the top bar's targets (the logo among them) are 44 px too.
    page.locator("input[name=username]").fill(f"lars{lang}")
    page.locator("input[name=password]").fill("correct-horse-battery-72")
    page.locator("form button[type=submit]").tap()
    expect(page.locator("#topbar nav a")).to_have_count(5)
    no_small_targets(page, "my games, new")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_target_of_the_signed_in_screens_is_44_px(clients: Any, lang: str) -> None:
    alice, bob = make_player("alice"), make_player("bob")
    start_game(alice, bob)
    old = finished_game(bob, alice)
    assert bob.post(game_url(old, "rematch/")).status_code == 200  # alice is invited
    social.follow(user=bob.user, other=alice.user)  # a notice, and with hers a friend
    social.follow(user=alice.user, other=bob.user)

    client = phone(clients, alice.user, alice.token, lang, "/games")
    page = client.page
    expect(page.locator(".game-row.invitation")).to_have_count(1)
    expect(page.locator(".game-row")).to_have_count(3)
    no_small_targets(page, "my games")
    for path, ready in (
        ("/games/new", "form select"),
        ("/notifications", ".inbox li"),
        ("/friends", ".friend .friend-actions button"),
        ("/settings", "main form"),
        ("/lobby", ".seek-form button[type=submit]"),
        ("/leaderboards", ".board-tabs a"),
    ):
        client.goto(path)
        expect(page.locator(ready).first).to_be_visible()
        no_small_targets(page, path)
    client.goto("/games/new?vs=computer")
    expect(page.locator("form select[name=bots]")).to_be_visible()
    no_small_targets(page, "a new game against the computer")
