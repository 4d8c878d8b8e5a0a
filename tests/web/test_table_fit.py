"""The table at phone size (issue 35, items 1 and 8), on a 390x844 touch screen.

- A No Mercy hand of 24 different cards (nothing to group by face) fits one screen together with
  the stack and its prompt: every card's box inside the viewport at once, in rows by colour with
  each colour's count, every card a strip of 44 px or more that a tap reaches, named for a screen
  reader; the screen brings them into view itself when the turn comes.
- A touched card does not stay lifted over its neighbour's name.
- Unplayable cards are no tab stops; after a card played by keyboard the focus is in the hand,
  not at the page's top; the table's small buttons are 44 px targets.
- The same in Danish; axe-core finds nothing serious.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from games.models import Seat
from tests.web.conftest import ARTIFACTS
from tests.web.test_danish import assert_danish
from tests.web.test_gin_table import axe_clean
from tests.web.test_hand_layout import STRIPS, open_table

pytestmark = pytest.mark.django_db(transaction=True)

MIN_TARGET = 44

# Each card's box, the viewport's height and where the prompt and the stack banner are.
BOXES = """() => {
    const box = (el) => {
        const r = el.getBoundingClientRect();
        return [r.top, r.bottom, r.left, r.right];
    };
    return {
        cards: [...document.querySelectorAll(".hand button.card")].map(box),
        prompt: box(document.querySelector(".prompt")),
        banner: box(document.querySelector(".stack-banner")),
        bar: document.querySelector(".topbar").getBoundingClientRect().bottom,
        height: window.innerHeight, width: window.innerWidth,
    };
}"""


def assert_all_in_one_screen(page: Page, what: str) -> None:
    found = page.evaluate(BOXES)
    bar, height, width = found["bar"], found["height"], found["width"]
    assert len(found["cards"]) == 24, what
    outside = [b for b in found["cards"] if b[0] < bar or b[1] > height or b[2] < 0 or b[3] > width]
    assert not outside, f"{what}: {len(outside)} cards outside the screen: {outside[:3]}"
    for name in ("prompt", "banner"):
        top, bottom = found[name][0], found[name][1]
        assert bar <= top and bottom <= height, f"{what}: the {name} is out of sight {found[name]}"


def test_a_24_card_no_mercy_hand_fits_one_screen_with_the_stack_prompt(clients: Any) -> None:
    alice, page, game_id = open_table(clients, "hand_24_no_mercy.json")
    # A bot's seat says so whole ("Bot · Medium", not "Bot · Me…").
    Seat.objects.filter(game_id=game_id, position=1).update(
        user=None, bot_level="heuristic", bot_name="Bea"
    )
    page.reload()
    expect(page.locator(".seat-bot").first).to_have_text("Bot · Medium")
    cut = page.locator(".seat-bot").evaluate_all(
        "els => els.filter((e) => e.scrollWidth > e.clientWidth).map((e) => e.textContent)"
    )
    assert not cut, f"seat labels cut short: {cut}"
    expect(page.locator("#hand-title")).to_have_text("Your hand: 24 cards")
    expect(page.locator(".prompt.mine")).to_have_text(
        "Stack a Draw card worth 2 or more, or take 2 cards."
    )
    # The stack is said once: its banner says how many and for whom, not what to do again.
    expect(page.locator(".stack-banner")).to_have_text("+22 cards for you")
    # Rows by colour, each with its count, for the eye and for a screen reader.
    rows = page.locator(".hand-colours .colour-row")
    expect(rows).to_have_count(5)
    expect(rows.nth(0)).to_have_attribute("aria-label", "Red: 6 cards")
    expect(rows.nth(0).locator(".colour-count")).to_have_text("R6")
    expect(rows.nth(4)).to_have_attribute("aria-label", "Wild cards: 4 cards")
    expect(rows.nth(0).locator("button.card").first).to_have_attribute("aria-label", "Red 1")
    # The table scrolled itself when the turn came: no scrolling by hand.
    assert_all_in_one_screen(page, "the 24-card hand as the turn comes")
    strips = page.evaluate(STRIPS)
    small = [s for s in strips if s["width"] < MIN_TARGET or s["height"] < MIN_TARGET]
    assert not small, f"cards narrower than {MIN_TARGET} px: {small}"
    assert all(s["reached"] for s in strips), [s["label"] for s in strips if not s["reached"]]
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "hand-24-no-mercy-en.png"))
    axe_clean(alice, "the 24-card No Mercy hand")


def test_the_24_card_hand_in_danish(clients: Any) -> None:
    alice, page, _ = open_table(clients, "hand_24_no_mercy.json", locale="da-DK")
    expect(page.locator(".hand-colours .colour-row").nth(0)).to_have_attribute(
        "aria-label", "Rød: 6 kort"
    )
    expect(page.locator(".stack-banner")).to_have_text("+22 kort til dig")
    assert_all_in_one_screen(page, "the Danish 24-card hand")
    assert_danish(alice, "the 24-card No Mercy hand")
    page.screenshot(path=str(ARTIFACTS / "hand-24-no-mercy-da.png"))


# The name of the card right of `i` and the element found in the middle of that name.
NEIGHBOUR_NAME = """(i) => {
    const cards = [...document.querySelectorAll(".hand button.card")];
    const name = cards[i + 1].querySelector(".card-name").getBoundingClientRect();
    const hit = document.elementFromPoint(name.left + 6, name.top + name.height / 2);
    return Boolean(hit && cards[i + 1].contains(hit));
}"""


def test_a_touched_card_does_not_hide_its_neighbour_s_name(clients: Any) -> None:
    _, page, _ = open_table(clients, "hand_24_no_mercy.json")
    first = page.locator(".hand button.card").first  # Red 1: not playable on a stack
    first.tap(force=True)
    assert page.evaluate(NEIGHBOUR_NAME, 0), "the touched card covers its neighbour's name"


def test_only_playable_cards_are_tab_stops_and_the_keyboard_stays_in_the_hand(
    clients: Any,
) -> None:
    _, page, _ = open_table(clients, "hand_24_no_mercy.json")
    tabbable = page.locator(".hand button.card:not([tabindex='-1'])")
    # On a stack of 2: the Draw 2s, the Wild Draw 6, 10 and the Reverse Draw 4 (worth 4 or more).
    labels = tabbable.evaluate_all("els => els.map((e) => e.getAttribute('aria-label'))")
    assert labels and all(label.startswith("Play ") for label in labels), labels
    assert page.locator(".hand button.card[aria-disabled='true']:not([tabindex='-1'])").count() == 0
    # The table's small buttons are 44 px targets.
    for selector in (".sort-button", ".log summary", ".help-button"):
        heights = page.locator(selector).evaluate_all(
            "els => els.map((e) => e.getBoundingClientRect().height)"
        )
        assert heights and min(heights) >= MIN_TARGET, (selector, heights)
    # Tab from the hand's title reaches the first playable card; Enter plays it.
    page.locator("#hand-title").focus()
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    expect(page.locator(":focus")).to_have_attribute("aria-label", labels[0])
    page.keyboard.press("Enter")
    expect(page.locator(".prompt.mine")).to_have_count(0)
    expect(page.locator("#hand-title")).to_be_focused()
