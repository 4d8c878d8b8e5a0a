"""Rules and help at the table, and the standings explained (issue 21, section 1), at 390 x 844.

Each game's table has "?" in its head: the help sheet with what each card does and the rules in
short (web/static/web/help.js, the words from games/<kind>_help.js). A card of the hand held
down (or "?" on it, or its context menu) shows that card's help and is not played. A new player
gets the first-game walkthrough once. A game that ends with players tied on points says why
they are placed as they are. Positions are loaded as `manage.py scenario load` does, so every
run is the same.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

from games.models import Game
from players.models import User
from tests.web.conftest import load_scenario, signed_in_at
from tests.web.test_danish import assert_danish

pytestmark = pytest.mark.django_db(transaction=True)

SCREEN = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 1, "has_touch": True}
HOLD_MS = 800

# Per game: the position, who opens it, the game's name, a card the sheet must explain (its
# name, and words of what it does), and a card of that player's hand with words of its help.
GAMES = {
    "uno_all_wild": (
        "news.json",
        "alice",
        "Uno All Wild",
        ("Targeted Draw 2", "they draw 2 cards but keep their turn"),
        ("reverse-1", "Reverse", "direction of play flips"),
    ),
    "uno_splash": (
        "splash_challenge.json",
        "alice",
        "Uno Splash",
        ("Wild Draw Four", "or challenges"),
        ("green-9-a", "Number cards (0–9)", "same colour or the same number"),
    ),
    "uno_no_mercy": (
        "no_mercy_knockout.json",
        "alice",
        "Uno Show 'Em No Mercy",
        ("Wild Color Roulette", "until one of that colour comes"),
        ("red-5-a", "Other number cards", "same colour or the same number"),
    ),
    "gin_rummy": (
        "gin_knock.json",
        "alice",
        "Gin Rummy",
        ("Jack, Queen, King", "Count 10 each"),
        ("As", "Ace", "Aces are low only"),
    ),
}


def open_table(clients: Any, position: str, name: str, **options: Any) -> tuple[Any, Page, str]:
    data, client = signed_in_at(clients, position, name, **{**SCREEN, **options})
    expect(client.page.locator(".table-head")).to_be_visible()
    return client, client.page, data["game_id"]


def assert_head_fits(page: Page) -> None:
    """The table's head is one line with "?" in it, and its clock is shown whole."""
    timer = page.locator(".table-head .timer")
    expect(timer).not_to_have_text("")
    head = page.locator(".table-head").evaluate(
        """el => {
            const timer = el.querySelector(".timer");
            const help = el.querySelector(".help-button").getBoundingClientRect();
            return {
                height: el.getBoundingClientRect().height,
                clipped: timer.scrollWidth > timer.clientWidth,
                inside: help.right <= el.getBoundingClientRect().right,
            };
        }"""
    )
    assert head == {"height": head["height"], "clipped": False, "inside": True}, head
    assert head["height"] < 48, head


def help_sheet(page: Page) -> Locator:
    return page.locator("dialog.help-sheet[open]")


def hand_card(page: Page, card_id: str) -> Locator:
    return page.locator(f'.hand li[data-key="{card_id}"] .card')


def version(game_id: str) -> int:
    return Game.objects.get(id=game_id).version


def fits(page: Page) -> list[str]:
    """Text in the open sheet that spills out of it or of its box sideways (nothing may)."""
    return page.evaluate(
        """() => {
            const sheet = document.querySelector("dialog.help-sheet[open]");
            const box = sheet.getBoundingClientRect();
            const out = [];
            if (sheet.scrollWidth > sheet.clientWidth) out.push("the sheet scrolls sideways");
            if (box.right > window.innerWidth || box.left < 0) out.push("wider than the screen");
            for (const el of sheet.querySelectorAll("h2, h3, p, li, strong, button")) {
                const r = el.getBoundingClientRect();
                const spills = el.scrollWidth > el.clientWidth + 1 || r.right > box.right + 1;
                if (spills) out.push(el.textContent.slice(0, 40));
            }
            return out;
        }"""
    )


@pytest.mark.parametrize("kind", list(GAMES))
def test_the_help_sheet_opens_from_the_table_and_a_held_card_shows_its_help(
    clients: Any, kind: str
) -> None:
    position, name, game_name, (sheet_card, sheet_text), (card_id, card_name, card_text) = GAMES[
        kind
    ]
    client, page, game_id = open_table(clients, position, name)
    head = page.locator(".table-head")
    assert_head_fits(page)
    help_button = head.get_by_role("button", name="Help: cards and rules")
    help_button.click()
    sheet = help_sheet(page)
    expect(sheet.get_by_role("heading", name=f"How to play {game_name}")).to_be_focused()
    expect(sheet.get_by_role("heading", name="What each card does")).to_be_visible()
    expect(sheet.get_by_role("heading", name="The rules in short")).to_be_visible()
    explained = sheet.locator(".help-cards li", has=page.locator("strong", has_text=sheet_card))
    expect(explained).to_contain_text(sheet_text)
    assert not fits(page)
    # Every sentence has its words (a missing string would show its key), nothing else is said.
    expect(sheet).not_to_contain_text("help.")
    expect(sheet).not_to_contain_text("null")
    if kind == "uno_all_wild":
        # The rulebook's deck (the game's preset): Shuffle Hands, no Skip Two.
        names = sheet.locator(".help-cards strong").all_inner_texts()
        assert "Shuffle Hands" in names and "Skip Two" not in names, names
    client.shot(f"help-sheet-{kind}", sheet)
    client.axe(f"{kind}'s help sheet")
    sheet.get_by_role("button", name="Close").click()
    expect(help_sheet(page)).to_have_count(0)
    expect(help_button).to_be_focused()

    # A card held down shows its help, and the tap that ends the hold plays nothing.
    before = version(game_id)
    card = hand_card(page, card_id)
    box = card.bounding_box()
    assert box
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.wait_for_timeout(HOLD_MS)
    page.mouse.up()
    one = help_sheet(page)
    expect(one.get_by_role("heading", name=card_name)).to_be_visible()
    expect(one.locator(".help-one")).to_contain_text(card_text)
    # The card held is the one drawn beside its help.
    symbol = card.get_attribute("data-symbol")
    expect(one.locator(".help-one .card")).to_have_attribute("data-symbol", symbol or "")
    client.shot(f"help-card-{kind}", one)
    client.axe(f"{kind}'s help of one card")
    one.get_by_role("button", name="Close").click()
    expect(help_sheet(page)).to_have_count(0)
    expect(card).to_be_focused()
    page.wait_for_timeout(300)
    assert version(game_id) == before

    # By keyboard: "?" on a card of the hand; from there, everything.
    card.focus()
    page.keyboard.press("?")
    expect(help_sheet(page).get_by_role("heading", name=card_name)).to_be_visible()
    help_sheet(page).get_by_role("button", name="All cards and rules").click()
    expect(help_sheet(page).get_by_role("heading", name=f"How to play {game_name}")).to_be_visible()
    page.keyboard.press("Escape")
    expect(help_sheet(page)).to_have_count(0)
    assert version(game_id) == before


def test_a_first_game_shows_the_walkthrough_once(clients: Any) -> None:
    client, page, _ = open_table(clients, "news.json", "alice", walkthrough=True)
    walk = help_sheet(page)
    expect(walk.get_by_role("heading", name="Your first game of Uno All Wild")).to_be_visible()
    expect(walk.locator(".help-steps li")).to_have_count(5)
    expect(walk.get_by_role("button", name="Got it")).to_be_focused()
    client.shot("help-walkthrough", walk)
    client.axe("the first-game walkthrough")
    walk.get_by_role("button", name="Got it").click()
    expect(help_sheet(page)).to_have_count(0)
    page.wait_for_function("() => localStorage.getItem('uaw.walkthrough.uno_all_wild') !== null")

    # Not again: neither on this table opened anew, nor after a reload.
    page.reload()
    expect(page.locator(".hand button.card").first).to_be_visible()
    page.wait_for_timeout(500)
    expect(help_sheet(page)).to_have_count(0)

    # Reopened from the help sheet.
    page.get_by_role("button", name="Help: cards and rules").click()
    help_sheet(page).get_by_role("button", name="Show the walkthrough again").click()
    expect(
        help_sheet(page).get_by_role("heading", name="Your first game of Uno All Wild")
    ).to_be_visible()
    page.keyboard.press("Escape")
    expect(help_sheet(page)).to_have_count(0)

    # Another game's first table has its own; going from it to the whole sheet is seeing it too.
    other, other_page, _ = open_table(clients, "gin_knock.json", "alice", walkthrough=True)
    walk = help_sheet(other_page)
    expect(walk.get_by_role("heading", name="Your first game of Gin Rummy")).to_be_visible()
    walk.get_by_role("button", name="All cards and rules").click()
    expect(walk.get_by_role("heading", name="How to play Gin Rummy")).to_be_visible()
    walk.get_by_role("button", name="Close").click()
    other_page.reload()
    expect(other_page.locator(".hand button.card").first).to_be_visible()
    other_page.wait_for_timeout(500)
    expect(help_sheet(other_page)).to_have_count(0)


def test_the_help_sheet_is_danish_in_a_danish_session(clients: Any) -> None:
    for kind, (position, name, *_rest) in GAMES.items():
        data = load_scenario(position)
        player = next(p for p in data["players"] if p["name"] == name)
        User.objects.filter(username=player["username"]).update(language="da")
        token = player["token"]
        client = clients(f"{name}-{kind}", locale="da-DK", **SCREEN)
        page = client.page
        client.sign_in_with_token(token, f"/games/{data['game_id']}")
        expect(page.locator(".table-head .timer")).to_contain_text("tilbage")
        assert_head_fits(page)
        client.shot(f"help-da-head-{kind}", page.locator(".table-head"))
        page.get_by_role("button", name="Hjælp: kort og regler").click()
        sheet = help_sheet(page)
        expect(sheet.get_by_role("heading", name="Hvad hvert kort gør")).to_be_visible()
        assert_danish(client, f"{kind}'s help sheet")
        expect(sheet).not_to_contain_text("help.")
        assert not fits(page)
        client.shot(f"help-da-{kind}", sheet)
        client.axe(f"{kind}'s Danish help sheet")
        sheet.get_by_role("button", name="Vis gennemgangen igen").click()
        expect(sheet.get_by_role("heading", name="Dit første spil", exact=False)).to_be_visible()
        assert_danish(client, f"{kind}'s walkthrough")
        client.close()


def test_players_tied_on_points_are_told_why_they_are_placed_so(clients: Any) -> None:
    client, page, _ = open_table(clients, "tie.json", "alice")
    expect(page.locator(".prompt.mine")).to_be_visible()
    page.locator(".hand button.card").first.click()
    standings = page.get_by_role("table", name="Final standings")
    expect(standings).to_be_visible()
    places = standings.locator("tbody tr").evaluate_all(
        "rows => rows.map((r) => [...r.children].map((c) => c.textContent.trim()))"
    )
    # Tied players share a place (docs/ratings.md: ratings rank them as one); among them the
    # order says nothing.
    # Level on 0 points, the others of a one-round game are placed by the points left in their
    # hands (Game.places; docs/ratings.md), and the standings say so.
    assert places == [
        ["1", "alice", "180"],
        ["2", "carol", "0"],
        ["3", "dave", "0"],
        ["4", "bob", "0"],
    ]
    expect(page.locator(".standings-tie")).to_have_count(0)
    tie = page.locator(".standings-why")
    expect(tie).to_contain_text("by the points left in their hands, fewest first")
    client.shot("help-standings-tie", tie)
    client.axe("the standings with a tie")


def test_a_finger_held_on_a_card_shows_its_help_and_plays_nothing(clients: Any) -> None:
    client, page, game_id = open_table(clients, "news.json", "alice")
    expect(page.locator(".prompt.mine")).to_be_visible()
    before = version(game_id)
    card = hand_card(page, "skip-1")
    box = card.bounding_box()
    assert box
    point = {"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2}
    touch = client.context.new_cdp_session(page)
    touch.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [point]})
    page.wait_for_timeout(HOLD_MS)
    touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    one = help_sheet(page)
    expect(one.get_by_role("heading", name="Skip")).to_be_visible()
    expect(one.locator(".help-one")).to_contain_text("The next player loses their turn.")
    one.get_by_role("button", name="Close").click()
    page.wait_for_timeout(300)
    assert version(game_id) == before
    expect(page.locator(".prompt.mine")).to_be_visible()

    # A quick tap still plays the card.
    touch.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [point]})
    touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    expect(page.locator(".prompt.mine")).to_have_count(0)
    assert version(game_id) == before + 1


def test_the_help_sheet_lists_the_house_rules_the_game_plays(clients: Any) -> None:
    client, page, _ = open_table(clients, "stacking.json", "alice")
    page.get_by_role("button", name="Help: cards and rules").click()
    heading = page.get_by_role("heading", name="House rules in this game")
    house = help_sheet(page).locator("section", has=heading)
    expect(house.locator("li strong")).to_have_count(3)
    assert sorted(house.locator("li strong").all_inner_texts()) == [
        "Double down",
        "Mercy",
        "Stacking",
    ]
    expect(house).to_contain_text("Targeted Draw 2 never stacks")
    client.axe("the help sheet with house rules")
