"""Two players at phone size play a set position (tests/web/positions/two_players.json) through
the web client to the end of the match: a Targeted Draw 2 picked by keyboard, a catch, draw and
keep, draw and play, a UNO call, going out, the results. Along the way: live updates between
the two browsers, no layout shift when cards arrive, axe-core on every screen, the game log in
words, and a Web Push delivered through the DevTools protocol that opens the game when its
notification is tapped."""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.web.conftest import (
    DESKTOP,
    Client,
    alice_and_bob_at,
    card,
    expect_hand_size,
    open_target_picker,
    see_the_result,
    wait_turn,
)

pytestmark = pytest.mark.django_db(transaction=True)

LAYOUT_OBSERVER = """() => {
    window.__shifts = [];
    new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) {
            const sources = (entry.sources || []).map(
                (s) => String(s.node && (s.node.outerHTML || s.node.nodeName)).slice(0, 80));
            window.__shifts.push({value: entry.value, recent: entry.hadRecentInput, sources});
        }
    }).observe({type: "layout-shift", buffered: false});
}"""


def hand(page: Page) -> Any:
    return page.locator(".hand button.card")


def seat(page: Page, name: str) -> Any:
    return page.locator(".opponents .seat", has_text=name)


def keys(page: Page) -> list[str]:
    result: list[str] = page.locator(".hand li").evaluate_all("els => els.map(e => e.dataset.key)")
    return result


def shifts(page: Page) -> list[dict[str, Any]]:
    page.wait_for_timeout(300)  # let the last frame's entries arrive
    result: list[dict[str, Any]] = page.evaluate("() => window.__shifts")
    return result


def deliver_push(client: Client, payload: dict[str, Any]) -> None:
    """A push message through the DevTools protocol, as the push service would deliver it."""
    page = client.page
    cdp = client.context.new_cdp_session(page)
    registrations: list[dict[str, Any]] = []
    cdp.on(
        "ServiceWorker.workerRegistrationUpdated",
        lambda params: registrations.extend(params["registrations"]),
    )
    cdp.send("ServiceWorker.enable")
    deadline = time.monotonic() + 10
    while not any(not r["isDeleted"] for r in registrations) and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    live = {r["registrationId"] for r in registrations if not r["isDeleted"]}
    assert live, "no service worker registration to deliver the push to"
    # The browser may list the registrations of its other contexts too (another player's, the
    # desktop one), in no fixed order: the push goes to each, as the push service would to each
    # subscribed device, so this client's own worker surely gets it.
    for registration_id in sorted(live):
        cdp.send(
            "ServiceWorker.deliverPushMessage",
            {"origin": client.base, "registrationId": registration_id, "data": json.dumps(payload)},
        )
    cdp.detach()


def push_until_shown(client: Client, payload: dict[str, Any]) -> list[dict[str, Any]]:
    """Deliver ``payload`` until the client's service worker shows it; its notifications.

    Once in a CI run a push delivered as soon as the registration was listed never showed, so
    an unshown push is delivered again, as a push service retries. The notification's tag is
    the event's id: a second delivery replaces the first, never adds to it."""
    worker = client.context.service_workers[0]
    deadline = time.monotonic() + 20
    while True:
        deliver_push(client, payload)
        retry_at = min(time.monotonic() + 4, deadline)
        while time.monotonic() < retry_at:
            notes: list[dict[str, Any]] = worker.evaluate(
                "async () => (await self.registration.getNotifications())"
                ".map((n) => ({title: n.title, body: n.body, url: n.data.url}))"
            )
            if notes or time.monotonic() >= deadline:
                return notes
            client.page.wait_for_timeout(100)
        if time.monotonic() >= deadline:
            return []


def the_opening_table(alice: Client, bob: Client) -> None:
    """The table, as Alice sees it on her phone: her three cards, Bob with four, her turn."""
    a = alice.page
    b = bob.page
    wait_turn(a)
    expect_hand_size(a, 3)
    expect(seat(a, "bob").locator(".seat-cards")).to_have_text("4 cards")
    expect(b.locator(".prompt")).to_contain_text("Waiting for alice")
    alice.shot(
        "table-alice-start",
        card(a, "Targeted Draw 2"),
        a.get_by_role("img", name="Discard pile, top card: Wild"),
        a.get_by_role("button", name="Draw a card (104 in the pile)"),
        a.locator("#turn-timer"),
    )
    alice.axe("the table")
    bob.axe("the table while waiting")


def alice_targets_bob_by_keyboard(alice: Client, bob: Client) -> None:
    """1. Alice plays the Targeted Draw 2 at Bob, by keyboard only. Bob's page gets his two new
    cards live, and nothing on it moves."""
    a = alice.page
    b = bob.page
    b.evaluate(LAYOUT_OBSERVER)
    # His four Wilds are one card "×4", keyed by the newest.
    assert keys(b) == ["wild-10"]
    card(a, "Targeted Draw 2").focus()
    picker = open_target_picker(a, "Who draws 2?")
    alice.shot("target-picker", picker.get_by_role("button", name="bob"))
    alice.axe("the target picker")
    a.keyboard.press("Enter")
    expect(a.locator("dialog[open]")).to_have_count(0)
    acted = time.monotonic()
    expect_hand_size(b, 6)
    seen_after = time.monotonic() - acted
    wait_turn(b)
    # The cards Bob had stay where they were: the new Wild joins them (×5), the Reverse comes after.
    assert keys(b) == ["wild-5", "reverse-1"]
    expect(card(b, "Wild")).to_have_attribute("data-count", "×5")
    moved = shifts(b)
    assert sum(s["value"] for s in moved) == 0, f"layout shift when cards arrived: {moved}"
    assert seen_after < 1.5, f"Bob saw Alice's move after {seen_after:.2f} s"
    expect(seat(a, "bob").locator(".seat-cards")).to_have_text("6 cards")


def bob_draws_and_keeps(bob: Client) -> None:
    """2. Bob draws (the card is added at the end of his hand, without a shift) and keeps it."""
    b = bob.page
    b.evaluate(LAYOUT_OBSERVER)
    b.get_by_role("button", name="Draw a card (102 in the pile)").click()
    expect(b.locator(".prompt")).to_contain_text("You drew Wild. Play it or keep it.")
    expect_hand_size(b, 7)
    # The card drawn stands apart from the other Wilds: only "Play it" plays it.
    expect(hand(b).nth(2)).to_have_class("card card-wild drawn")
    moved = shifts(b)
    assert sum(s["value"] for s in moved) == 0, f"layout shift when a card was drawn: {moved}"
    bob.shot(
        "table-bob-drawn",
        b.get_by_role("button", name="Play it"),
        b.get_by_role("button", name="Keep it"),
    )
    bob.axe("the table after drawing")
    b.get_by_role("button", name="Keep it").click()


def bob_catches_alice(alice: Client, bob: Client) -> None:
    """3. Alice plays a Wild and forgets UNO; Bob catches her before he moves."""
    a = alice.page
    b = bob.page
    wait_turn(a)
    card(a, "Wild").click()
    catch = seat(b, "alice").get_by_role("button", name="Catch alice: one card and no UNO")
    expect(catch).to_be_visible()
    bob.shot("catch", catch)
    bob.axe("the table with a catch button")
    catch.click()
    expect(seat(b, "alice").locator(".seat-cards")).to_have_text("3 cards")
    expect_hand_size(a, 3)
    expect(catch).to_have_count(0)


def bob_draws_and_plays(bob: Client) -> None:
    """4. Bob draws again and plays the card he drew."""
    b = bob.page
    wait_turn(b)
    b.get_by_role("button", name="Draw a card (99 in the pile)").click()
    expect(b.locator(".prompt")).to_contain_text("You drew Wild.")
    b.get_by_role("button", name="Play it").click()
    expect(b.locator(".prompt")).to_contain_text("Waiting for alice")


def bob_catches_up_after_a_drop(alice: Client, bob: Client) -> None:
    """5. Bob's network drops while Alice plays a Wild (two cards left); when it comes back his
    page catches up by itself. Then Bob plays a Wild."""
    a = alice.page
    b = bob.page
    wait_turn(a)
    bob.context.set_offline(True)
    expect(b.locator(".conn")).to_have_text(re.compile("Reconnecting…|Offline"))
    card(a, "Wild").click()
    expect(a.locator(".prompt")).to_contain_text("Waiting for bob")
    bob.context.set_offline(False)
    wait_turn(b)
    expect(seat(b, "alice").locator(".seat-cards")).to_have_text("2 cards")
    card(b, "Wild").click()


def alice_says_uno_and_goes_out(alice: Client, bob: Client) -> None:
    """6. Alice says UNO with her Draw 4 (two players: she plays again) and goes out."""
    a = alice.page
    b = bob.page
    wait_turn(a)
    expect_hand_size(a, 2)
    uno = a.locator(".uno-button")
    expect(uno).to_have_attribute("aria-pressed", "false")
    uno.click()
    expect(uno).to_have_attribute("aria-pressed", "true")
    expect(a.locator(".uno-hint")).to_have_text("UNO will be called with your next card.")
    alice.shot("uno-armed", uno)
    card(a, "Draw 4").click()
    expect(seat(b, "alice").locator(".uno-badge")).to_be_visible()
    expect(a.locator(".uno-hint")).to_have_text("You said UNO.")
    bob.shot("table-bob-sees-uno", seat(b, "alice").locator(".uno-badge"))
    wait_turn(a)
    card(a, "Wild").click()


def the_results(alice: Client, bob: Client) -> None:
    """The results, on both phones."""
    for client, banner in ((alice, "You won the game!"), (bob, "alice won the game!")):
        page = client.page
        expect(page.get_by_role("heading", name="Results")).to_be_visible()
        see_the_result(page)
        standings = page.locator("table.scores")
        expect(page.locator(".result-banner")).to_have_text(banner)
        expect(standings.locator("tbody tr").first).to_contain_text("alice")
        client.shot(
            f"results-{client.name}", standings, page.get_by_role("button", name="Play again")
        )
        client.axe("the results")


def the_log_in_words(bob: Client) -> None:
    """The log tells the game in words."""
    b = bob.page
    log = b.locator("details.log")
    log.locator("summary").click()
    for line in (
        "alice played Targeted Draw 2 at bob.",
        "bob drew 2 cards from a Targeted Draw 2.",
        "bob kept the card and passed.",
        "bob caught alice without UNO!",
        "alice drew 2 cards as a penalty.",
        "alice said UNO!",
        "alice won round 1 and scored",
        "alice won the game!",
    ):
        expect(log).to_contain_text(line)
    bob.shot("log", log)
    bob.axe("the game log")


def the_results_at_desktop_size(clients: Any, token: str, game_id: str) -> None:
    """The same table at desktop size: nothing cut off, still usable."""
    desk = clients("alice-desktop", **DESKTOP)
    desk.sign_in_with_token(token, f"/games/{game_id}")
    desk.shot("results-desktop", desk.page.locator("table.scores"))


def a_push_opens_the_game(alice: Client, game_id: str) -> None:
    """A Web Push (DevTools: ServiceWorker.deliverPushMessage) shows a notification; tapping it
    opens the game it is about. Alice is on her games list when it comes."""
    a = alice.page
    alice.goto("/games")
    expect(a.get_by_role("heading", name="My games")).to_be_visible()
    a.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
    notes = push_until_shown(
        alice,
        {
            "event_id": "8a6f1c1e-0000-4000-8000-000000000001",
            "kind": "your_turn",
            "language": "en",
            "title": "Your turn",
            "body": "It's your turn against bob.",
            "url": f"http://testserver/games/{game_id}",
            "collapsed": False,
            "items": [],
        },
    )
    assert notes == [
        {"title": "Your turn", "body": "It's your turn against bob.", "url": f"/games/{game_id}"}
    ]
    # Tapping the notification runs the worker's notificationclick handler on it.
    alice.context.service_workers[0].evaluate(
        "async () => { const [n] = await self.registration.getNotifications();"
        " await self.openFromNotification(n); n.close(); }"
    )
    expect(a).to_have_url(f"{alice.base}/games/{game_id}")
    expect(a.get_by_role("heading", name="Results")).to_be_visible()


def test_two_players_play_a_position_to_the_end(clients: Any, live_server: Any) -> None:
    game, alice, bob = alice_and_bob_at(clients, "two_players.json")
    game_id = game["game_id"]
    tokens = {p["name"]: p["token"] for p in game["players"]}
    the_opening_table(alice, bob)
    alice_targets_bob_by_keyboard(alice, bob)
    bob_draws_and_keeps(bob)
    bob_catches_alice(alice, bob)
    bob_draws_and_plays(bob)
    bob_catches_up_after_a_drop(alice, bob)
    alice_says_uno_and_goes_out(alice, bob)
    the_results(alice, bob)
    the_log_in_words(bob)
    the_results_at_desktop_size(clients, tokens["alice"], game_id)
    a_push_opens_the_game(alice, game_id)
