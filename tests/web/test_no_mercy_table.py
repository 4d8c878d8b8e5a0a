"""Uno Show 'Em No Mercy in the web client (web/static/web/games/uno_no_mercy.js), in three
browsers on phones: the stack's total and who must answer it, the knockout shown to everyone,
the player picker of a 7 (players in the round only) and the hand that arrives from it."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.web.conftest import load_scenario

pytestmark = pytest.mark.django_db(transaction=True)


def card(page: Page, name: str) -> Any:
    return page.locator(".hand button.card", has_text=name).first


def wait_turn(page: Page) -> None:
    expect(page.locator(".prompt.mine")).to_be_visible()


def test_a_wild_draw_10_knocks_a_player_out_and_a_7_swaps_hands(clients: Any) -> None:
    game = load_scenario("no_mercy_knockout.json")
    game_id = game["game_id"]
    tokens = {p["name"]: p["token"] for p in game["players"]}
    alice, bob, carol = clients("alice"), clients("bob"), clients("carol")
    for who, name in ((alice, "alice"), (bob, "bob"), (carol, "carol")):
        who.sign_in_with_token(tokens[name], f"/games/{game_id}")
    a, b, c = alice.page, bob.page, carol.page

    # 1. Alice's Wild Draw 10 names its colour; Bob owes 10 and cannot stack on it.
    wait_turn(a)
    expect(card(a, "Wild Draw 10")).to_have_attribute("data-symbol", "+10")
    card(a, "Wild Draw 10").click()
    a.locator(".colour-picker").get_by_role("button", name="Red").click()
    for page in (a, b, c):
        expect(page.locator(".stack-banner")).to_contain_text("+10")
    expect(c.locator(".stack-banner")).to_contain_text("10 cards for bob")
    expect(b.locator(".stack-banner")).to_contain_text("10 cards for you")
    expect(b.locator(".prompt")).to_contain_text("Nothing you hold stacks on it: take 10 cards.")
    bob.axe("the No Mercy stack prompt")

    # 2. Bob takes them and is knocked out at 25: everyone sees it, Alice gets 250.
    b.get_by_role("button", name="Take 10 cards").click()
    # A one-round game (target 0): no next round to be dealt into (issue 35, item 3).
    expect(b.locator(".prompt")).to_contain_text(
        "You hit 25 cards and are out: this was the only round."
    )
    expect(c.locator(".seat.knocked-out")).to_contain_text("knocked out")
    for page in (a, b, c):
        page.locator("details.log summary").click()
        expect(page.locator(".log")).to_contain_text("bob reached 25 cards and is knocked out")
        expect(page.locator(".log")).to_contain_text("alice scores 250 points for knocking out bob")

    # 3. Carol plays her red 3; Alice's 7 offers Carol only (Bob is out of the round).
    wait_turn(c)
    card(c, "Red 3").click()
    wait_turn(a)
    card(a, "Red 7").click()
    picker = a.locator(".target-picker")
    expect(picker.locator("button.target-choice")).to_have_count(1)
    alice.axe("the player picker of a 7")
    picker.get_by_role("button", name="carol (2 cards)").click()

    # 4. The hands are swapped: each says where it came from.
    expect(c.locator(".hand-arrived")).to_contain_text("Your hand came from alice.")
    expect(a.locator(".hand-arrived")).to_contain_text("Your hand came from carol.")
    expect(a.locator(".hand button.card")).to_have_count(2)
    expect(c.locator(".hand button.card")).to_have_count(2)
