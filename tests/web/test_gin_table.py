"""Gin Rummy in the web client (web/static/web/games/gin_rummy.js), in two browsers on 390x844
phones: the upcard taken (and the card just taken never offered as a discard), a draw from the
discard pile and one from the stock, the hand sorted into melds and deadwood with its count, the
opponent's cards, the stock and the discard top, a knock with its face-down discard, and the
layout at the end of the round (both hands, melds, a layoff, the points) shown to both players.
Every screen passes axe-core with no violation at all."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from players.models import User
from tests.web.conftest import Client, alice_and_bob_at, load_scenario
from tests.web.test_danish import assert_danish
from tests.web.test_offline import PHONE_390

pytestmark = pytest.mark.django_db(transaction=True)


def axe_clean(client: Client, screen: str) -> None:
    """axe-core on the page as it is: no violation of any impact."""
    client.axe(screen)  # loads axe-core, and fails on a serious or critical one
    violations = client.page.evaluate(
        """async () => (await axe.run(document, {resultTypes: ["violations"]})).violations
            .map((v) => ({id: v.id, impact: v.impact,
                          nodes: v.nodes.slice(0, 4).map((n) => n.target.join(" "))}))"""
    )
    assert not violations, f"axe-core on {screen} ({client.name}): {json.dumps(violations)}"


def my_turn(page: Page) -> None:
    expect(page.locator(".prompt.mine")).to_be_visible()


def test_two_players_take_draw_discard_and_a_knock_is_laid_out_for_both(clients: Any) -> None:
    _, alice, bob = alice_and_bob_at(clients, "gin_knock.json", **PHONE_390)
    a, b = alice.page, bob.page

    # The table: the opponent's ten cards, the stock's size, the upcard, the hand in melds.
    my_turn(a)
    expect(a.locator(".gin-opponents .seat-cards")).to_have_text("10 cards")
    expect(a.locator(".gin-stock")).to_have_attribute("data-count", "10")
    expect(a.locator(".gin-discard")).to_have_attribute("data-symbol", "K♦")
    expect(a.locator(".prompt")).to_contain_text("The upcard is King of diamonds")
    expect(a.locator(".gin-meld")).to_have_count(3)
    expect(a.locator(".gin-deadwood .gin-group-label")).to_have_text("Deadwood: 10")
    queen = a.locator(".gin-deadwood button.card")
    expect(queen).to_have_attribute("aria-label", "Queen of hearts")
    expect(b.locator(".prompt")).to_contain_text("alice may take the upcard")
    expect(b.get_by_role("button", name="Take the upcard")).to_have_count(0)
    alice.shot("gin-offer", a.get_by_role("button", name="Take the upcard"))
    axe_clean(alice, "the upcard offer")
    axe_clean(bob, "the table while the other player is offered the upcard")

    # 1. Alice takes the upcard: 11 cards, and the King of diamonds may not go straight back.
    a.get_by_role("button", name="Take the upcard").click()
    kd = a.locator(".gin-hand button.card.taken")
    expect(kd).to_have_attribute("aria-disabled", "true")
    expect(kd).to_have_attribute("aria-label", "King of diamonds (just taken: keep it this turn)")
    expect(a.locator(".gin-hand button.card")).to_have_count(11)
    expect(a.locator(".gin-deadwood-total")).to_have_text("Deadwood: 20")
    expect(a.locator(".prompt")).to_contain_text("Tap a card to discard it, or knock.")
    expect(b.locator(".gin-opponents .seat-cards")).to_have_text("11 cards")
    alice.shot("gin-discard-step", kd)
    axe_clean(alice, "the discard step")
    a.get_by_role("button", name="Discard Queen of hearts").click()
    expect(a.locator(".gin-deadwood-total")).to_have_text("Deadwood: 10")
    expect(a.locator(".gin-hand button.card")).to_have_count(10)

    # 2. Bob takes the Queen of hearts from the discard pile, then discards the Jack of diamonds.
    my_turn(b)
    expect(b.locator(".prompt")).to_contain_text("Draw from the stock, or take Queen of hearts.")
    b.get_by_role("button", name="Take Queen of hearts from the discard pile").click()
    expect(b.locator(".gin-hand button.card.taken")).to_have_attribute("aria-disabled", "true")
    expect(b.get_by_role("button", name="Knock…")).to_be_disabled()
    bob.shot("gin-bob-took", b.locator(".gin-hand"))
    axe_clean(bob, "Bob's discard step")
    b.get_by_role("button", name="Discard Jack of diamonds").click()
    expect(a.locator(".gin-discard")).to_have_attribute("data-symbol", "J♦")

    # 3. Alice draws the 9 of diamonds from the stock and knocks with it face down.
    my_turn(a)
    a.get_by_role("button", name="Draw from the stock (10 cards)").click()
    expect(a.locator(".gin-stock")).to_have_attribute("data-count", "9")
    expect(b.locator(".gin-stock")).to_have_attribute("data-count", "9")
    a.get_by_role("button", name="Knock…").click()
    expect(a.locator(".prompt")).to_contain_text("Tap the card to discard face down.")
    alice.shot("gin-knock-pick", a.locator(".gin-hand.picking"))
    axe_clean(alice, "picking the knock discard")
    a.get_by_role("button", name="Knock, 9 of diamonds face down").click()

    # 4. Both see the layout: Alice's melds and her King, Bob's aces, his 4 of spades laid off
    # onto her spades, the knock discard, and the score 39 - 10 = 29.
    for who, page in ((alice, a), (bob, b)):
        dialog = page.locator("dialog[open]")
        expect(dialog).to_contain_text("alice knocked with 10 against 39: alice scores 29.")
        expect(dialog.locator(".gin-layout")).to_have_count(2)
        expect(dialog.locator(".gin-layoff")).to_have_count(1)
        expect(dialog.locator(".gin-layoff")).to_have_attribute(
            "aria-label", "4 of spades, laid off onto Ace of spades, 2 of spades, 3 of spades"
        )
        expect(dialog).to_contain_text("Knock discard: 9 of diamonds")
        expect(dialog.locator(".gin-meld-row")).to_have_count(4)
        expect(dialog.locator("tbody tr").first).to_contain_text("29")
        who.shot(f"gin-layout-{who.name}", dialog)
        axe_clean(who, "the round's layout")
        dialog.get_by_role("button", name="On to the next round").click()
        # The next round is dealt; the match score stays on the table.
        expect(page.locator(".gin-score")).to_contain_text("29 (1 won)")
        expect(page.locator(".gin-last-round")).to_contain_text("Last round (1)")


def test_a_danish_player_meets_the_gin_table_and_its_layout_in_danish(clients: Any) -> None:
    game = load_scenario("gin_knock.json")
    tokens = {p["name"]: p["token"] for p in game["players"]}
    User.objects.filter(username="alice").update(language="da")
    alice = clients("alice", locale="da-DK", **PHONE_390)
    bob = clients("bob", **PHONE_390)
    alice.sign_in_with_token(tokens["alice"], f"/games/{game['game_id']}")
    bob.sign_in_with_token(tokens["bob"], f"/games/{game['game_id']}")
    a, b = alice.page, bob.page

    my_turn(a)
    expect(a.locator(".prompt")).to_contain_text("Det vendte kort er Ruder konge")
    a.locator("details.log summary").click()
    assert_danish(alice, "Gin Rummy table, the upcard offer")
    a.get_by_role("button", name="Tag det vendte kort").click()
    expect(a.locator(".gin-hand button.card.taken")).to_have_attribute(
        "aria-label", "Ruder konge (lige taget: behold det denne tur)"
    )
    assert_danish(alice, "Gin Rummy table, the discard step")
    a.get_by_role("button", name="Smid Hjerter dame").click()

    my_turn(b)
    b.get_by_role("button", name="Take Queen of hearts from the discard pile").click()
    b.get_by_role("button", name="Discard Jack of diamonds").click()

    my_turn(a)
    a.get_by_role("button", name="Træk fra bunken (10 kort)").click()
    a.get_by_role("button", name="Bank…").click()
    assert_danish(alice, "Gin Rummy table, picking the knock discard")
    a.get_by_role("button", name="Bank, Ruder 9 med bagsiden op").click()
    dialog = a.locator("dialog[open]")
    expect(dialog).to_contain_text("alice bankede med 10 mod 39: alice får 29.")
    expect(dialog).to_contain_text("lagt til A♠ 2♠ 3♠")
    assert_danish(alice, "Gin Rummy round layout")
    alice.shot("gin-layout-da", dialog)


def test_a_round_drawn_at_the_wall_is_listed_as_a_draw_in_the_results(clients: Any) -> None:
    game = load_scenario("gin_wall_then_knock.json")
    tokens = {p["name"]: p["token"] for p in game["players"]}
    alice = clients("alice", **PHONE_390)
    alice.sign_in_with_token(tokens["alice"], f"/games/{game['game_id']}")
    a = alice.page

    # Round 1's result, not seen yet on this phone: the dialog says it was a draw.
    dialog = a.locator("dialog[open]")
    expect(dialog).to_contain_text("Round 1: a draw at the wall, nobody scores.")
    axe_clean(alice, "the round dialog of a drawn round")
    dialog.get_by_role("button", name="On to the next round").click()
    my_turn(a)
    a.locator(".gin-last-round summary").click()
    expect(a.locator(".gin-last-round")).to_contain_text("a draw at the wall")
    a.get_by_role("button", name="Draw from the stock (10 cards)").click()
    a.get_by_role("button", name="Knock…").click()
    a.get_by_role("button", name="Knock, 9 of diamonds face down").click()

    rounds = a.locator("ol.rounds li")
    expect(rounds).to_have_count(2)
    expect(rounds.nth(0)).to_have_text("Round 1: a draw, nobody scores.")
    expect(rounds.nth(1)).to_have_text("Round 2: alice won 29 points.")
    alice.shot("gin-results", a.locator("ol.rounds"))
    axe_clean(alice, "the results of a match with a drawn round")


def test_the_upcard_passed_by_both_leaves_only_the_stock_to_draw_from(clients: Any) -> None:
    _, alice, bob = alice_and_bob_at(clients, "gin_knock.json", **PHONE_390)
    a, b = alice.page, bob.page

    my_turn(a)
    a.get_by_role("button", name="Pass").click()
    my_turn(b)
    expect(b.locator(".prompt")).to_contain_text("The upcard is King of diamonds")
    b.get_by_role("button", name="Pass").click()
    my_turn(a)
    expect(a.locator(".prompt")).to_contain_text("Draw from the stock.")
    expect(a.locator(".gin-discard")).to_have_attribute("aria-disabled", "true")
    expect(a.get_by_role("button", name="Take the upcard")).to_have_count(0)
    axe_clean(alice, "the draw after both passed the upcard")
    a.get_by_role("button", name="Draw from the stock (10 cards)").click()
    expect(a.locator(".gin-hand button.card")).to_have_count(11)
    expect(b.locator(".gin-opponents .seat-cards")).to_have_text("11 cards")
