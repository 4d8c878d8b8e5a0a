"""Uno Splash in the web client (web/static/web/games/uno_splash.js), in two browsers on phones:
cards that say their colour by letter as well as by colour, the colour picker after a Wild, the
Accept / Challenge prompt for the next player after a Wild Draw Four, and the challenged hand in
the challenger's log only; under stacking, the total owed beside the discard pile, a Draw Two
passed on and the total taken."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.web.conftest import alice_and_bob_at, card, wait_turn

pytestmark = pytest.mark.django_db(transaction=True)
OWED = re.compile(r"\bowed\b")


def test_a_wild_names_its_colour_and_a_wild_draw_four_is_challenged(clients: Any) -> None:
    _, alice, bob = alice_and_bob_at(clients, "splash_challenge.json")
    a, b = alice.page, bob.page

    # Every card says its colour in words and by letter: never colour alone.
    wait_turn(a)
    expect(a.locator(".hand button.card")).to_have_count(4)
    expect(card(a, "Green 9")).to_have_attribute("data-symbol", "G9")
    expect(card(a, "Blue 5")).to_have_attribute("data-symbol", "B5")
    expect(a.locator(".colour-in-force")).to_contain_text("Colour: Red")
    expect(card(a, "Blue 5")).to_have_attribute("aria-disabled", "true")  # blue on red 9
    expect(card(a, "Green 9")).to_have_attribute("aria-label", "Play Green 9")  # 9 on 9
    alice.axe("the Uno Splash table")

    # 1. Alice plays her Wild: the colour picker, then green is in force for both.
    card(a, "Wild").first.click()
    picker = a.locator(".colour-picker")
    expect(picker.get_by_role("button", name="Green")).to_be_visible()
    alice.shot("splash-colour-picker", picker)
    alice.axe("the colour picker")
    picker.get_by_role("button", name="Green").click()
    expect(b.locator(".colour-in-force")).to_contain_text("Colour: Green")

    # 2. Bob plays his green 3.
    wait_turn(b)
    card(b, "Green 3").click()

    # 3. Alice plays the Wild Draw Four naming blue, though she holds green 9 (illegal).
    wait_turn(a)
    card(a, "Wild Draw Four").click()
    a.locator(".colour-picker").get_by_role("button", name="Blue").click()

    # 4. Bob must answer: Accept or Challenge. He challenges and sees her hand in his log.
    challenge = b.get_by_role("button", name="Challenge")
    expect(challenge).to_be_visible()
    expect(b.locator(".prompt")).to_contain_text("accept it (draw 4) or challenge it")
    bob.shot("splash-challenge-prompt", challenge)
    bob.axe("the challenge prompt")
    challenge.click()
    for page in (a, b):
        page.locator("details.log summary").click()
    expect(b.locator(".log")).to_contain_text("the Wild Draw Four was illegal")
    expect(b.locator(".log")).to_contain_text("Their hand: Green 9, Blue 5")
    expect(a.locator(".log")).to_contain_text("the Wild Draw Four was illegal")
    expect(a.locator(".log")).not_to_contain_text("Their hand")
    expect(a.locator(".hand button.card")).to_have_count(6)
    wait_turn(b)


def test_a_stack_is_shown_passed_on_and_taken(clients: Any) -> None:
    _, alice, bob = alice_and_bob_at(clients, "splash_stacking.json")
    a, b = alice.page, bob.page

    # 1. Alice plays her red Draw Two: Bob owes 2, shown beside the discard pile.
    wait_turn(a)
    expect(a.locator(".stack-slot")).not_to_have_class(OWED)
    card(a, "Red Draw Two").click()
    wait_turn(b)
    expect(b.locator(".stack-slot .stack-total")).to_have_text("+2")
    expect(b.locator(".prompt")).to_contain_text("Stack a draw card on it, or take 2 cards.")
    expect(b.get_by_role("button", name="Take 2 cards")).to_be_visible()
    expect(card(b, "Yellow 7")).to_have_attribute("aria-disabled", "true")
    bob.axe("a stack owed")

    # 2. Bob stacks his blue Draw Two (any colour goes on a Draw Two): Alice owes 4.
    card(b, "Blue Draw Two").click()
    wait_turn(a)
    expect(a.locator(".stack-slot .stack-total")).to_have_text("+4")
    expect(b.locator(".prompt")).to_contain_text("must stack or take 4 cards")

    # 3. Alice holds no Draw card: she takes the 4 and loses the turn.
    take = a.get_by_role("button", name="Take 4 cards")
    alice.shot("splash-take-stack", take)
    take.click()
    expect(a.locator(".hand button.card")).to_have_count(6)
    expect(a.locator(".stack-slot")).not_to_have_class(OWED)
    wait_turn(b)
