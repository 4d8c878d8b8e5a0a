"""The hand and the seats at phone size (issue 21, §1), in every game, at 390×844 and 360 px wide.

- A large hand (All Wild 32 cards, Splash 30, No Mercy 24: tests/web/positions/hand_large_*.json)
  fits the screen's width: no sideways scrolling, rows of overlapping cards in which every card
  shows a strip of at least 44 × 44 px that a tap reaches (nothing covers it), and the page's
  width stays the screen's. Gin Rummy's hand (11 cards at most, every card unique) is checked too.
- Identical cards show once with a count ("×2"), said to screen readers ("(2 alike)"); Enter on
  the group plays one of its cards (the server keeps the other), and the count goes.
- "Catch!" covers no seat's words, at tables of ten (All Wild, Splash) and six (No Mercy) where
  every other seat is catchable: bounding boxes are measured.
- The turn clock in the table's head is one line in Danish ("23 t 59 min tilbage").
- axe-core finds nothing serious; the Danish table has no English string.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from games.models import Game
from players.models import User
from tests.web.conftest import ARTIFACTS, Client, load_scenario
from tests.web.test_danish import assert_danish
from tests.web.test_gin_table import axe_clean
from tests.web.test_offline import PHONE_390

pytestmark = pytest.mark.django_db(transaction=True)

MIN_TARGET = 44

# For each card of the hand (scrolled into view): the part of it no later card covers (the strip
# a tap reaches), and whether a tap in the middle of that strip hits the card, not a neighbour.
STRIPS = """() => {
    const buttons = [...document.querySelectorAll(".hand > li > button.card")];
    const row = (b) => b.closest(".hand");
    return buttons.map((button, i) => {
        button.scrollIntoView({block: "center", inline: "nearest"});
        const box = button.getBoundingClientRect();
        let right = box.right;
        for (const other of buttons.slice(i + 1)) {
            const o = other.getBoundingClientRect();
            const sameRow = o.top < box.bottom - 1 && o.bottom > box.top + 1
                && row(other) === row(button);
            if (sameRow && o.left < right && o.right > box.left) {
                right = Math.min(right, o.left);
            }
        }
        const x = (box.left + right) / 2;
        const y = box.top + Math.min(box.height, 60) / 2;
        const hit = document.elementFromPoint(x, y);
        return {
            label: button.getAttribute("aria-label"),
            width: right - box.left,
            height: box.height,
            reached: Boolean(hit && button.contains(hit)),
        };
    });
}"""

# Every "Catch!" button and every piece of words in any seat that its box meets.
CATCH_OVERLAPS = """() => {
    const words = [".seat-name", ".seat-cards", ".seat-flags", ".seat-score .points", ".seat-bot",
                   ".uno-badge"].join(", ");
    const texts = [...document.querySelectorAll(".opponents .seat")].flatMap(
        (seat) => [...seat.querySelectorAll(words)]);
    const buttons = [...document.querySelectorAll(".opponents .catch-button")];
    const meets = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5
        && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
    const overlaps = [];
    for (const button of buttons) {
        const box = button.getBoundingClientRect();
        for (const text of texts) {
            const t = text.getBoundingClientRect();
            if (t.width && t.height && meets(box, t)) {
                overlaps.push(`${button.getAttribute("aria-label")} covers "${text.textContent}"`);
            }
        }
    }
    return {count: buttons.length, overlaps,
            heights: buttons.map((b) => b.getBoundingClientRect().height)};
}"""


def open_table(clients: Any, position: str, *, locale: str = "en-GB") -> tuple[Client, Page, str]:
    game = load_scenario(position)
    tokens = {p["name"]: p["token"] for p in game["players"]}
    if locale.startswith("da"):
        User.objects.filter(username="alice").update(language="da")
    alice = clients("alice", locale=locale, **PHONE_390)
    alice.sign_in_with_token(tokens["alice"], f"/games/{game['game_id']}")
    expect(alice.page.locator(".prompt.mine")).to_be_visible()
    return alice, alice.page, game["game_id"]


def screenshot(page: Page, name: str) -> None:
    """The screen as a phone shows it, scrolled to the hand (copied to docs/screenshots/ for
    docs/web-client.md)."""
    page.locator(".hand-area").evaluate("el => el.scrollIntoView({block: 'end'})")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / name))


def assert_hand_fits(page: Page, what: str) -> None:
    """No sideways scrolling, and every card a target of at least 44 × 44 px that a tap reaches."""
    width = page.evaluate("() => window.innerWidth")
    # A large coloured hand is a list per colour (issue 35): none of them scrolls sideways.
    for sizes in page.locator(".hand").evaluate_all(
        "els => els.map((el) => [el.scrollWidth, el.clientWidth])"
    ):
        assert sizes[0] <= sizes[1] + 1, f"{what}: the hand scrolls sideways {sizes}"
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width, what
    strips = page.evaluate(STRIPS)
    assert strips, f"{what}: no card in the hand"
    small = [s for s in strips if s["width"] < MIN_TARGET or s["height"] < MIN_TARGET]
    assert not small, f"{what}: cards narrower than {MIN_TARGET} px: {small}"
    hidden = [s["label"] for s in strips if not s["reached"]]
    assert not hidden, f"{what}: a tap misses these cards: {hidden}"


def assert_catch_covers_nothing(page: Page, seats: int, what: str) -> None:
    expect(page.locator(".opponents .catch-button")).to_have_count(seats - 1)
    found = page.evaluate(CATCH_OVERLAPS)
    assert not found["overlaps"], f"{what}: {found['overlaps']}"
    assert min(found["heights"]) >= MIN_TARGET, f"{what}: Catch! is too small {found['heights']}"


@pytest.mark.parametrize(
    ("position", "seats", "cards"),
    [
        ("hand_large_all_wild.json", 10, 32),
        ("hand_large_splash.json", 10, 30),
        ("hand_large_no_mercy.json", 6, 24),
    ],
)
def test_a_large_hand_fits_the_screen_and_catch_covers_no_seat(
    clients: Any, position: str, seats: int, cards: int
) -> None:
    alice, page, _ = open_table(clients, position)
    expect(page.locator("#hand-title")).to_contain_text(str(cards))
    for width in (390, 360):
        page.set_viewport_size({"width": width, "height": 844})
        assert_hand_fits(page, f"{position} at {width} px")
        assert_catch_covers_nothing(page, seats, f"{position} at {width} px")
    axe_clean(alice, f"a large hand ({position})")


def test_identical_cards_are_one_card_with_a_count_and_a_tap_plays_one(clients: Any) -> None:
    alice, page, game_id = open_table(clients, "hand_large_splash.json")
    sevens = page.locator(".hand button.card", has_text="Red 7")
    expect(sevens).to_have_count(1)
    expect(sevens).to_have_attribute("data-count", "×2")
    expect(sevens).to_have_attribute("aria-label", "Play Red 7 (2 alike)")
    expect(page.locator(".hand button.card", has_text="Wild Draw Four")).to_have_attribute(
        "aria-label", "Play Wild Draw Four (2 alike)"
    )
    # The shown cards: 30 in 25 groups (Red 7, Blue 3, Wild Draw Four twice, Wild three times).
    expect(page.locator(".hand button.card")).to_have_count(25)
    expect(page.locator(".hand .card[data-count]")).to_have_count(4)
    screenshot(page, "hand-large-en.png")

    # By keyboard, as any card: the group plays one of its two cards.
    sevens.focus()
    page.keyboard.press("Enter")
    expect(page.locator(".prompt.mine")).to_have_count(0)
    expect(sevens).to_have_attribute("aria-label", "Red 7")
    expect(sevens).not_to_have_attribute("data-count", re.compile(".*"))
    expect(page.locator("#hand-title")).to_contain_text("29")
    hand = Game.objects.get(pk=game_id).state["seats"][0]["hand"]
    assert sum(1 for card in hand if card.startswith("red-7-")) == 1


def test_the_danish_table_with_a_large_hand(clients: Any) -> None:
    alice, page, _ = open_table(clients, "hand_large_splash.json", locale="da-DK")
    timer = page.locator("#turn-timer")
    expect(timer).to_contain_text("tilbage")
    for width in (390, 360):
        page.set_viewport_size({"width": width, "height": 844})
        lines = timer.evaluate(
            """el => {
                const range = document.createRange();
                range.selectNodeContents(el);
                return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
            }"""
        )
        text = timer.inner_text()
        assert lines == 1, f"the turn clock takes {lines} lines at {width} px: {text!r}"
        widths = timer.evaluate("el => [el.scrollWidth, el.clientWidth]")
        assert widths[0] <= widths[1], f"the turn clock is cut short at {width} px: {widths}"
    page.set_viewport_size({"width": 390, "height": 844})
    expect(page.locator(".hand button.card", has_text="Rød 7")).to_have_attribute(
        "aria-label", "Spil Rød 7 (2 ens)"
    )
    assert_hand_fits(page, "the Danish hand")
    assert_danish(alice, "table with a large hand")
    axe_clean(alice, "the Danish table with a large hand")
    screenshot(page, "hand-large-da.png")


def test_a_gin_rummy_hand_fits_the_screen(clients: Any) -> None:
    """Every card of Gin Rummy's deck is unique: nothing to group; its hand wraps in its groups."""
    alice, page, _ = open_table(clients, "gin_knock.json")
    page.get_by_role("button", name="Take the upcard").click()
    expect(page.locator(".gin-hand button.card")).to_have_count(11)
    for width in (390, 360):
        page.set_viewport_size({"width": width, "height": 844})
        sizes = page.locator(".gin-hand").evaluate("el => [el.scrollWidth, el.clientWidth]")
        assert sizes[0] <= sizes[1] + 1, f"Gin Rummy's hand scrolls sideways at {width} px"
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width
        boxes = page.locator(".gin-hand button.card").evaluate_all(
            "els => els.map((e) => e.getBoundingClientRect()).map((r) => [r.width, r.height])"
        )
        assert len(boxes) == 11 and all(w >= MIN_TARGET and h >= MIN_TARGET for w, h in boxes)


def test_a_group_that_takes_a_target_plays_one_card_at_the_player_picked(clients: Any) -> None:
    """All Wild: three Targeted Draw 2 are one card; playing it asks whom, and sends one id."""
    alice, page, game_id = open_table(clients, "hand_large_all_wild.json")
    group = page.locator(".hand button.card", has_text="Targeted Draw 2")
    expect(group).to_have_attribute("data-count", "×3")
    expect(group).to_have_attribute(
        "aria-label", "Play Targeted Draw 2 and choose a player (3 alike)"
    )
    group.click()
    picker = page.locator("dialog[open]")
    picker.get_by_role("button", name="carol").click()
    expect(page.locator(".prompt.mine")).to_have_count(0)
    expect(group).to_have_attribute("data-count", "×2")
    expect(page.locator(".opponents .seat", has_text="carol").locator(".seat-cards")).to_have_text(
        "3 cards"
    )
    hand = Game.objects.get(pk=game_id).state["seats"][0]["hand"]
    assert sum(1 for card in hand if card.startswith("targeted_draw2-")) == 2
