"""After a toast, nothing is left over the navigation (issue 35, §5): the toast slid up by twice
its height still showed its lower edge, a light box at top centre over the top bar, on every
screen until a reload. Signing up shows one ("Welcome, …"); once it has gone, no element outside
the top bar overlaps it, on that screen and on the next ones reached through the top bar, in
English and Danish at 390×844 (touch)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.web.conftest import Client
from tests.web.phones import LANGUAGES, visitor

pytestmark = pytest.mark.django_db(transaction=True)

WORDS = {
    "en": {"username": "Username", "password": "Password", "welcome": "Welcome"},
    "da": {"username": "Brugernavn", "password": "Adgangskode", "welcome": "Velkommen"},
}

# Every element drawn (visible, not transparent, with a size) outside the top bar whose box meets
# the top bar's, the page scrolled to its top: nothing should be.
OVER_THE_TOP_BAR = """() => {
    window.scrollTo(0, 0);
    const bar = document.getElementById("topbar");
    const box = bar.getBoundingClientRect();
    const over = [];
    for (const el of document.body.querySelectorAll("*")) {
        if (bar.contains(el) || el.contains(bar)) continue;
        const style = getComputedStyle(el);
        const drawn = style.visibility === "visible" && style.display !== "none";
        if (!drawn || style.opacity === "0") continue;
        const r = el.getBoundingClientRect();
        if (!r.width || !r.height) continue;
        if (r.bottom > box.top && r.top < box.bottom && r.right > box.left && r.left < box.right) {
            const name = `${el.tagName.toLowerCase()}#${el.id}.${el.className}`;
            over.push(`${name} ${Math.round(r.top)}..${Math.round(r.bottom)}`);
        }
    }
    return over;
}"""

# The toast has been hidden and its slide away has ended.
TOAST_GONE = """() => {
    const toast = document.getElementById("toast");
    return !toast.classList.contains("show") && toast.getAnimations().length === 0;
}"""


def nothing_over_the_top_bar(page: Page) -> None:
    assert page.evaluate(OVER_THE_TOP_BAR) == []


def sign_up(client: Client, lang: str) -> None:
    page = client.page
    client.goto("/signup")
    # A short name: a one-line toast is the one whose lower edge stayed over the top bar.
    page.get_by_label(WORDS[lang]["username"]).fill(f"ole{lang}")
    page.get_by_label(WORDS[lang]["password"]).fill("correct-horse-battery-72")
    page.locator("form button[type=submit]").tap()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_nothing_covers_the_navigation_after_a_toast(clients: Any, lang: str) -> None:
    client = visitor(clients, lang)
    page = client.page
    sign_up(client, lang)
    toast = page.locator("#toast")
    expect(toast).to_have_class(re.compile(r"\bshow\b"))
    expect(toast).to_contain_text(WORDS[lang]["welcome"])
    expect(toast).to_be_visible()

    page.wait_for_function(TOAST_GONE, timeout=10_000)
    expect(toast).to_be_hidden()
    nothing_over_the_top_bar(page)
    client.shot(f"toast-gone-{lang}", page.locator("#topbar nav"))
    # Every screen of the top bar, reached by tapping its links: still nothing over it.
    for link in page.locator("#topbar nav a").all()[1:]:
        link.tap()
        expect(link).to_have_attribute("aria-current", "page")
        nothing_over_the_top_bar(page)
    client.axe(f"a screen after a toast ({lang})")
