"""Cards move (issue 35, item 5), on a 390x844 touch phone: the card alice plays travels from her
hand to the pile, the card bob plays from his seat, a card drawn from the pile into the hand;
each motion 300 ms at most. Under prefers-reduced-motion nothing moves at all.

Every motion the page starts through the Web Animations API is recorded (`Element.animate`,
wrapped before the client loads): what moved and for how long."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.web.conftest import Client, act_over_the_api, load_scenario
from tests.web.test_offline import PHONE_390

pytestmark = pytest.mark.django_db(transaction=True)

RECORD = """
window.__motions = [];
const animate = Element.prototype.animate;
Element.prototype.animate = function (frames, options) {
    window.__motions.push({
        what: this.className, key: this.dataset.key || null,
        duration: typeof options === "number" ? options : options.duration,
    });
    return animate.call(this, frames, options);
};
"""


def alice_at_the_table(clients: Any, **options: Any) -> tuple[Client, Page, dict[str, Any]]:
    game = load_scenario("two_players.json")
    tokens = {p["name"]: p["token"] for p in game["players"]}
    alice = clients("alice", **PHONE_390, **options)
    alice.context.add_init_script(RECORD)
    alice.sign_in_with_token(tokens["alice"], f"/games/{game['game_id']}")
    expect(alice.page.locator(".prompt.mine")).to_be_visible()
    return alice, alice.page, {**game, "tokens": tokens}


def motions(page: Page) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = page.evaluate("() => window.__motions.splice(0)")
    return found


def test_a_played_card_travels_to_the_pile_and_a_drawn_one_into_the_hand(
    clients: Any, live_server: Any
) -> None:
    _, page, game = alice_at_the_table(clients)
    motions(page)
    page.locator(".hand button.card", has_text="Wild").first.click()
    expect(page.locator(".pile-area .card.big")).to_have_attribute("data-key", "wild-1")
    page.wait_for_function("() => window.__motions.length > 0")
    moved = motions(page)
    assert [m["key"] for m in moved] == ["wild-1"], moved
    assert all(0 < m["duration"] <= 300 for m in moved), moved

    # Bob plays from his seat (another device): his card travels too.
    act_over_the_api(
        live_server.url, game["tokens"]["bob"], game["game_id"], {"type": "play", "card": "wild-3"}
    )
    expect(page.locator(".pile-area .card.big")).to_have_attribute("data-key", "wild-3")
    page.wait_for_function("() => window.__motions.length > 0")
    moved = motions(page)
    assert [m["key"] for m in moved] == ["wild-3"], moved

    # Alice draws: the card comes from the pile into her hand.
    page.locator(".draw-pile").click()
    expect(page.locator(".hand button.card.drawn")).to_have_count(1)
    page.wait_for_function("() => window.__motions.length > 0")
    moved = motions(page)
    assert moved and all("card" in m["what"] and m["duration"] <= 300 for m in moved), moved


def test_nothing_moves_under_reduced_motion(clients: Any, live_server: Any) -> None:
    _, page, game = alice_at_the_table(clients, reduced_motion="reduce")
    page.locator(".hand button.card", has_text="Wild").first.click()
    expect(page.locator(".pile-area .card.big")).to_have_attribute("data-key", "wild-1")
    act_over_the_api(
        live_server.url, game["tokens"]["bob"], game["game_id"], {"type": "play", "card": "wild-3"}
    )
    expect(page.locator(".pile-area .card.big")).to_have_attribute("data-key", "wild-3")
    page.locator(".draw-pile").click()
    expect(page.locator(".hand button.card.drawn")).to_have_count(1)
    # A motion starts in the drawing that shows the card (motion.js, after): already recorded.
    assert motions(page) == []
    running = page.evaluate("() => document.getAnimations().length")
    assert running == 0, f"{running} animations run under prefers-reduced-motion"


CUES = """
window.__buzz = [];
window.__tones = 0;
navigator.vibrate = (pattern) => { window.__buzz.push(pattern); return true; };
const make = AudioContext.prototype.createOscillator;
AudioContext.prototype.createOscillator = function () {
    window.__tones += 1;
    return make.call(this);
};
"""


def test_sounds_and_vibration_are_off_until_switched_on_and_then_kept(
    clients: Any, live_server: Any
) -> None:
    alice, page, game = alice_at_the_table(clients)
    page.context.add_init_script(CUES)
    page.reload()
    expect(page.locator(".prompt.mine")).to_be_visible()
    sounds = page.get_by_role("button", name="Sounds")
    vibration = page.get_by_role("button", name="Vibration")
    for switch in (sounds, vibration):
        expect(switch).to_have_attribute("aria-pressed", "false")
        box = switch.bounding_box()
        assert box and box["height"] >= 44
    page.locator(".hand button.card", has_text="Wild").first.click()
    expect(page.locator(".pile-area .card.big")).to_have_attribute("data-key", "wild-1")
    assert page.evaluate("() => [window.__buzz.length, window.__tones]") == [0, 0]

    sounds.click()
    vibration.click()
    expect(sounds).to_have_attribute("aria-pressed", "true")
    expect(vibration).to_have_attribute("aria-pressed", "true")
    assert page.evaluate("() => localStorage.getItem('uaw.sounds')") == "on"
    page.evaluate("() => { window.__buzz = []; window.__tones = 0; }")
    # Bob's move brings the turn back to alice: a two-tone cue and a buzz.
    act_over_the_api(
        live_server.url, game["tokens"]["bob"], game["game_id"], {"type": "play", "card": "wild-3"}
    )
    expect(page.locator(".prompt.mine")).to_be_visible()
    page.wait_for_function("() => window.__buzz.length > 0")
    assert page.evaluate("() => [window.__buzz, window.__tones]") == [[[40]], 2]
    page.reload()
    expect(page.get_by_role("button", name="Sounds")).to_have_attribute("aria-pressed", "true")
