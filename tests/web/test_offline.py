"""Offline (issue 21, §3) at 390×844: the service worker keeps the last games list and each
table's last view, shown offline under a banner saying when that state is from, with the
signed-in top bar; a move tapped offline waits with its Idempotency-Key and is sent exactly once
when the connection returns, or is refused by the version check and the client says why."""

from __future__ import annotations

import json
import re
import urllib.request
from dataclasses import dataclass
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from games.models import Game
from tests.web.conftest import Client, expect_hand_size, load_scenario

pytestmark = pytest.mark.django_db(transaction=True)

PHONE_390: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}
BANNER = re.compile(r"^Offline — showing the state at \d\d:\d\d$")


def action_posts(client: Client) -> list[str]:
    return [url for method, url, _ in client.requests if method == "POST" and "/actions/" in url]


def seen_online(client: Client, game_id: str) -> None:
    """My games, then the table, opened online under the service worker, as a player would (it
    keeps only what passes through it: a page loaded before it was active is not controlled)."""
    page = client.page
    page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
    client.goto("/games")
    page.wait_for_function("() => Boolean(navigator.serviceWorker.controller)")
    expect(page.locator(".game-row")).to_have_count(1)
    page.locator(".game-row a").click()
    expect(page.locator(".prompt.mine")).to_be_visible()
    expect(page.locator("#offline-banner")).to_be_hidden()


@dataclass
class Phone:
    """Alice's phone at 390×844, signed in, that has seen her games and the table online."""

    alice: Client
    game_id: str
    token: str

    @property
    def page(self) -> Page:
        return self.alice.page

    def go_offline(self, path: str) -> None:
        """The connection drops, and the client starts afresh at ``path``: from the cache."""
        self.alice.context.set_offline(True)
        self.alice.goto(path)
        expect(self.page.locator("#offline-banner")).to_have_text(BANNER)

    def queue_a_move(self) -> None:
        """Taps a Wild offline: the move waits, and says so."""
        wild(self.page).click()
        # It says which move waits (issue 35, item 4).
        expect(self.page.locator(".queued-notice")).to_contain_text(
            "Waiting for the connection to send your move: you played Wild."
        )


@pytest.fixture
def phone(clients: Any) -> Phone:
    game = load_scenario("two_players.json")
    token = {p["name"]: p["token"] for p in game["players"]}["alice"]
    alice = clients("alice", **PHONE_390)
    alice.sign_in_with_token(token, "/games")
    seen_online(alice, game["game_id"])
    return Phone(alice, game["game_id"], token)


def play_over_the_api(base: str, token: str, game_id: str, action: dict[str, Any]) -> None:
    """The same player on another device: a move the phone offline does not know about."""
    request = urllib.request.Request(
        f"{base}/api/v1/games/{game_id}/actions/",
        data=json.dumps(action).encode(),
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request) as response:
        assert response.status == 200


def wild(page: Page) -> Any:
    return page.locator(".hand button.card", has_text="Wild").first


def test_offline_my_games_and_the_table_come_from_the_cache_and_a_move_is_sent_once(
    phone: Phone,
) -> None:
    alice, a, game_id = phone.alice, phone.page, phone.game_id
    # Offline, a fresh start of the client: my games as last seen, the banner, the top bar.
    phone.go_offline("/games")
    expect(a.get_by_role("heading", name="My games")).to_be_visible()
    expect(a.locator(".game-row")).to_have_count(1)
    expect(a.locator(".game-row")).to_contain_text("Your turn")
    nav = a.get_by_role("navigation")
    for label in ("Games", "Inbox", "Settings"):
        expect(nav.get_by_role("link", name=label)).to_be_visible()
    alice.shot("offline-games", a.locator("#offline-banner"), a.locator(".game-row"))
    alice.axe("my games offline")

    # The table, as it was, under the same banner; the connection says offline.
    a.locator(".game-row a").click()
    expect_hand_size(a, 3)
    expect(a.locator("#offline-banner")).to_have_text(BANNER)
    expect(a.locator(".conn")).to_have_text("Offline")
    # The connection's word covers the round's number, never the turn clock (issue 35, item 4).
    clock = a.locator("#turn-timer").bounding_box()
    conn = a.locator(".conn").bounding_box()
    assert clock and conn and conn["x"] + conn["width"] <= clock["x"], (conn, clock)

    # A move tapped offline waits, said at once; a second one is refused with a word.
    phone.queue_a_move()
    expect(a.locator("#toast")).to_have_text(
        "You are offline. Your move will be sent when the connection returns."
    )
    alice.shot("offline-queued", a.locator(".queued-notice"))
    alice.axe("the table offline with a move waiting")
    # The same moves are not offered again beside the one that waits (issue 35, item 4).
    expect(wild(a)).to_have_attribute("aria-disabled", "true")
    expect(a.locator(".draw-pile")).to_be_disabled()
    assert action_posts(alice) == []
    version = Game.objects.get(id=game_id).version

    # Back online: sent once, the table moves on, the banner goes.
    alice.context.set_offline(False)
    expect(a.locator("#toast")).to_have_text("Back online: your move was sent.")
    expect(a.locator(".prompt")).to_contain_text("Waiting for bob")
    expect(a.locator(".queued-notice")).to_be_empty()
    expect(a.locator("#offline-banner")).to_be_hidden()
    expect_hand_size(a, 2)
    a.wait_for_timeout(1500)
    assert len(action_posts(alice)) == 1
    assert Game.objects.get(id=game_id).version == version + 1
    assert a.evaluate("() => localStorage.getItem('uaw.queued')") == "{}"


def test_a_move_queued_offline_on_a_table_that_moved_on_is_refused_and_explained(
    phone: Phone, live_server: Any
) -> None:
    alice, a, game_id, token = phone.alice, phone.page, phone.game_id, phone.token
    phone.go_offline(f"/games/{game_id}")
    phone.queue_a_move()

    # Meanwhile Alice plays from her other device: the queued move is now a stale one.
    game_now = Game.objects.get(id=game_id)
    play_over_the_api(
        live_server.url,
        token,
        game_id,
        {"type": "play", "card": "wild-2", "expected_version": game_now.version},
    )
    alice.context.set_offline(False)
    expect(a.locator("#toast")).to_contain_text("the game moved on in the meantime")
    expect(a.locator(".queued-notice")).to_be_empty()
    expect(a.locator(".prompt")).to_contain_text("Waiting for bob")
    assert len(action_posts(alice)) == 1
    assert Game.objects.get(id=game_id).version == game_now.version + 1


def test_a_move_queued_in_a_game_left_for_my_games_is_sent_once_when_back_online(
    phone: Phone,
) -> None:
    alice, a, game_id = phone.alice, phone.page, phone.game_id
    version = Game.objects.get(id=game_id).version

    phone.go_offline(f"/games/{game_id}")
    phone.queue_a_move()
    # She goes back to her games while still offline; the move waits on this device.
    a.get_by_role("navigation").get_by_role("link", name="Games").click()
    expect(a.get_by_role("heading", name="My games")).to_be_visible()
    expect(a.locator("#offline-banner")).to_have_text(BANNER)
    assert action_posts(alice) == []

    alice.context.set_offline(False)
    expect(a.locator("#toast")).to_have_text("Back online: your move was sent.")
    expect(a.locator("#offline-banner")).to_be_hidden()
    expect(a.locator(".game-row .pill")).to_have_text("Waiting", timeout=5_000)
    a.wait_for_timeout(1500)
    assert len(action_posts(alice)) == 1
    assert Game.objects.get(id=game_id).version == version + 1
