"""The whole way through the web client with nothing set up: two people at phone size sign up,
one creates a game and sends the invite link, the other opens it, signs up and joins, and they
play the dealt round to its end by tapping cards. Also: the inbox and settings screens, and
English/Danish (from the browser, switchable, stored in the profile)."""

from __future__ import annotations

import secrets
import time
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from players.models import User
from tests.web.conftest import Client, see_the_result

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "a-long-Enough-passw0rd"
# What to play when there is a choice: cards that make the other player lose a turn first (two
# players: you play again), hand-changers last, so a round ends soon.
PREFERENCE = [
    "card-skip",
    "card-reverse",
    "card-draw4",
    "card-draw2",
    "card-skip_two",
    "card-wild",
    "card-targeted_draw2",
    "card-shuffle_hands",
    "card-force_swap",
]


def sign_up(client: Client, username: str) -> None:
    page = client.page
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()


def take_turn(page: Page) -> bool:
    """Do one thing on this page if there is something to do; return whether it acted."""
    if page.locator("dialog[open]").count():
        dialog = page.locator("dialog[open]")
        target = dialog.locator("button.target")
        (target.first if target.count() else dialog.get_by_role("button").first).click()
        return True
    # A catch or a late UNO races the other player's next move, which closes the window and
    # takes the button away between counting it and clicking it: then there is nothing to do.
    for button in (".catch-button", ".uno-button.ready:not([disabled])"):
        if page.locator(button).count():
            try:
                page.locator(button).first.click(timeout=2000)
            except PlaywrightTimeout:
                return False
            return True
    if not page.locator(".prompt.mine").count():
        return False
    choose = page.get_by_role("button", name="Choose a player", exact=True)
    if choose.count():
        choose.click()
        return True
    cards = page.locator('.hand button.card:not([aria-disabled="true"])')
    if not cards.count():
        return False
    classes = cards.evaluate_all("els => els.map(e => e.className)")
    best = min(
        range(len(classes)),
        key=lambda i: next(
            (rank for rank, name in enumerate(PREFERENCE) if name in classes[i]), len(PREFERENCE)
        ),
    )
    uno = page.locator('.uno-button[aria-pressed="false"]:not([disabled])')
    if cards.count() == 2 and uno.count():
        uno.click()  # two cards left: say UNO with this play
    cards.nth(best).click()
    return True


def play_to_the_end(pages: list[Page], limit_seconds: float = 240) -> int:
    deadline = time.monotonic() + limit_seconds
    moves = 0
    while time.monotonic() < deadline:
        if all(p.locator(".game-screen .result-banner").count() for p in pages):
            return moves
        acted = False
        for page in pages:
            if take_turn(page):
                acted = True
                moves += 1
                page.wait_for_timeout(150)
        if not acted:
            pages[0].wait_for_timeout(100)
    raise AssertionError(f"the round did not end within {limit_seconds} s ({moves} moves)")


def signs_up_from_the_start_page(client: Any, username: str) -> None:
    """A newcomer opens the site, is sent to log in, signs up, and lands on an empty My games."""
    page = client.page
    client.goto("/")
    expect(page).to_have_url(f"{client.base}/login")
    expect(page.get_by_role("heading", name="Log in")).to_be_visible()
    client.axe("log in")
    page.get_by_role("link", name="Sign up").click()
    client.shot(
        "signup", page.get_by_role("heading", name="Sign up"), page.get_by_label("Username")
    )
    client.axe("sign up")
    sign_up(client, username)
    expect(page.get_by_role("heading", name="My games")).to_be_visible()
    expect(page.get_by_text("No games yet.")).to_be_visible()
    client.axe("my games (empty)")


def test_sign_up_create_invite_join_and_play_a_round(clients: Any) -> None:
    suffix = secrets.token_hex(3)
    alice = clients("alice")
    bob = clients("bob")
    a, b = alice.page, bob.page

    signs_up_from_the_start_page(alice, f"alice-{suffix}")

    # A new game: two seats, one round.
    a.get_by_role("link", name="New game").click()
    expect(a.get_by_role("heading", name="New game")).to_be_visible()
    a.get_by_label("Seats").select_option("2")
    a.get_by_label("Length", exact=True).select_option("0")
    a.get_by_label("Force Swap protection").check()
    alice.shot("new-game", a.get_by_label("Rules"), a.get_by_label("Time per turn"))
    alice.axe("new game")
    a.get_by_role("button", name="Create the game").click()

    # The lobby, with the invite link.
    expect(a.get_by_role("heading", name="Game lobby")).to_be_visible()
    link = a.get_by_label("Send this link to the people you want to play with:")
    invite = link.input_value()
    assert invite.startswith(f"{alice.base}/join/")
    alice.shot("lobby", link, a.get_by_text("Players: 1 of 2"))
    alice.axe("the lobby")

    # Bob opens the link, signs up from the join page, and joins.
    bob.goto(invite.removeprefix(bob.base))
    expect(b.get_by_role("heading", name="Join a game")).to_be_visible()
    bob.shot("join-signed-out", b.get_by_text("Sign up or log in first"))
    bob.axe("join (signed out)")
    b.get_by_role("link", name="Sign up").click()
    sign_up(bob, f"bob-{suffix}")
    expect(b.get_by_role("heading", name="Join a game")).to_be_visible()
    bob.axe("join (signed in)")
    b.get_by_role("button", name="Join the game").click()

    # The game starts by itself with the last seat taken; Alice's lobby turns into the table.
    for page in (a, b):
        # Seven cards each, or more for whoever an opening Draw 2 / Draw 4 hit.
        expect(page.get_by_role("heading", name="Your hand:")).to_be_visible()
        expect(page.locator(".opponents .seat")).to_have_count(1)
    current = a if a.locator(".prompt.mine").count() else b
    expect(current.locator(".prompt.mine")).to_contain_text("Your")
    (alice if current is a else bob).shot("flow-table", current.locator(".hand"))

    moves = play_to_the_end([a, b])
    assert moves > 0
    for client in (alice, bob):
        page = client.page
        expect(page.get_by_role("heading", name="Results")).to_be_visible()
        see_the_result(page)
        expect(page.locator("table.scores tbody tr")).to_have_count(2)
        client.shot(f"flow-results-{client.name}", page.locator(".result-banner"))

    # The game is listed as finished; the inbox and settings work.
    a.get_by_role("link", name="Games", exact=True).click()
    expect(a.get_by_role("heading", name="Finished")).to_be_visible()
    alice.shot("games-finished", a.get_by_role("link", name=f"With bob-{suffix}"))
    alice.axe("my games")
    a.locator('nav a[href="/notifications"]').click()
    expect(a.get_by_role("heading", name="Notifications")).to_be_visible()
    expect(a.locator(".inbox, .empty").first).to_be_visible()
    alice.shot("inbox", a.get_by_role("button", name="Mark all read"))
    alice.axe("the inbox")
    a.get_by_role("link", name="Settings", exact=True).click()
    expect(a.get_by_role("heading", name="Settings")).to_be_visible()
    expect(a.get_by_text("Signed in as")).to_be_visible()
    alice.shot("settings", a.get_by_label("Language"), a.get_by_role("button", name="Log out"))
    alice.axe("settings")


def test_language_from_the_browser_switchable_and_kept_in_the_profile(clients: Any) -> None:
    suffix = secrets.token_hex(3)
    lars = clients("lars", locale="da-DK")
    page = lars.page
    lars.goto("/signup")
    expect(page.get_by_role("heading", name="Opret konto")).to_be_visible()
    expect(page.locator("html")).to_have_attribute("lang", "da")
    page.get_by_label("Brugernavn").fill(f"lars-{suffix}")
    page.get_by_label("Adgangskode").fill(PASSWORD)
    page.get_by_role("button", name="Opret konto").click()
    expect(page.get_by_role("heading", name="Mine spil")).to_be_visible()
    assert User.objects.get(username=f"lars-{suffix}").language == "da"
    lars.shot("games-danish", page.get_by_role("link", name="Nyt spil"))
    lars.axe("my games in Danish")

    page.get_by_role("link", name="Indstillinger").click()
    page.get_by_label("Sprog").select_option("en")
    expect(page.get_by_role("heading", name="Settings")).to_be_visible()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    deadline = time.monotonic() + 10
    while User.objects.get(username=f"lars-{suffix}").language != "en":
        assert time.monotonic() < deadline, "the profile never got the new language"
        time.sleep(0.1)

    # A new device with an English browser: the profile's language wins once logged in.
    other = clients("lars-tablet", locale="en-GB")
    other.goto("/login")
    other.page.get_by_label("Username").fill(f"lars-{suffix}")
    other.page.get_by_label("Password").fill(PASSWORD)
    other.page.get_by_role("button", name="Log in").click()
    expect(other.page.get_by_role("heading", name="My games")).to_be_visible()
    other.page.get_by_role("link", name="Settings").click()
    other.page.get_by_label("Language").select_option("da")
    expect(other.page.get_by_role("heading", name="Indstillinger")).to_be_visible()
    deadline = time.monotonic() + 10
    while User.objects.get(username=f"lars-{suffix}").language != "da":
        assert time.monotonic() < deadline, "the profile never got the new language"
        time.sleep(0.1)
