"""The house rules at the table, at phone size (360 x 640), each from a set position
(tests/web/positions/*.json, loaded as `manage.py scenario load` does): a stack answered and then
taken, a double-down pair with a target per card, a mercy discard of five picked cards (with
speed mode's short clock on screen), and blind play with the target picked after the reveal.
The other players' moves are made on the server (games.services.act), so every step is
deterministic. Each screen: what it must show is asserted, then a screenshot, then axe-core.
Layout shift is measured throughout (the player's own taps included) and must be 0. The new
game screen offers every house rule with its description, and speed mode's seconds."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from games import services
from games.models import Game
from players.models import ApiToken, User
from tests.web.conftest import expect_hand_size, load_scenario, open_target_picker
from tests.web.test_bots import bots_move  # noqa: F401 - a fixture, found by name

pytestmark = pytest.mark.django_db(transaction=True)

# Every layout shift from now on (one observer per page; calling it again starts a new count).
SHIFTS = """() => {
    window.__shifts = [];
    if (window.__observing) return;
    window.__observing = true;
    new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) {
            const sources = (entry.sources || []).map((s) => [
                String(s.node && (s.node.outerHTML || s.node.nodeName)).slice(0, 80),
                JSON.stringify(s.previousRect), JSON.stringify(s.currentRect)]);
            window.__shifts.push({value: entry.value, recent: entry.hadRecentInput, sources});
        }
    }).observe({type: "layout-shift", buffered: false});
}"""


def open_table(clients: Any, position: str) -> tuple[Any, Page, dict[str, Any]]:
    """Alice's phone at the table of a loaded position; the players by name."""
    game = load_scenario(position)
    players = {p["name"]: p for p in game["players"]}
    alice = clients("alice")
    alice.sign_in_with_token(players["alice"]["token"], f"/games/{game['game_id']}")
    page = alice.page
    expect(page.locator(".prompt p")).to_be_visible()
    page.wait_for_timeout(300)  # the page has settled: what follows is the game
    page.evaluate(SHIFTS)
    return alice, page, {"game_id": game["game_id"], **players}


def move(game: dict[str, Any], name: str, action: dict[str, Any]) -> None:
    """Another player's move, on the server."""
    user = User.objects.get(username=game[name]["username"])
    services.act(user=user, game_id=game["game_id"], action=action, expected_version=None)


def no_shift(page: Page, what: str, *, strict: bool = False) -> None:
    """No layout shift since SHIFTS was last called: none that the page made by itself (a
    move by someone else, cards arriving), or, ``strict``, none at all, even right after a tap
    or key (a dialog opening is never in such a window)."""
    page.wait_for_timeout(200)  # the last frame's entries
    shifts = page.evaluate("() => window.__shifts")
    counted = [s for s in shifts if strict or not s["recent"]]
    assert sum(s["value"] for s in counted) == 0, f"layout shift {what}: {counted}"


def fits(page: Page, selector: str) -> None:
    """Every element's words fit inside its fixed box."""
    over = page.locator(selector).evaluate_all(
        "els => els.filter(e => e.scrollHeight > e.clientHeight + 1"
        " || e.scrollWidth > e.clientWidth + 1).map(e => e.textContent)"
    )
    assert not over, f"words overflow their box: {over}"


def hand(page: Page) -> Any:
    return page.locator(".hand button.card")


def seat_cards(page: Page, name: str) -> Any:
    return page.locator(".opponents .seat", has_text=name).locator(".seat-cards")


def log_shows(page: Page, *lines: str) -> Any:
    """Open the game's log and expect each of ``lines`` in it; returns the log."""
    page.locator("details.log summary").click()
    log = page.locator("details.log")
    for line in lines:
        expect(log).to_contain_text(line)
    return log


def test_stacking_answered_then_taken(clients: Any) -> None:
    alice, page, game = open_table(clients, "stacking.json")
    prompt = page.locator(".prompt p")
    expect(prompt).to_have_text("Waiting for bob.")
    slot = page.locator(".stack-slot")
    expect(slot).to_be_visible()
    expect(slot).to_have_text("No stack")

    # Bob hits Alice with a Draw 2: the total, who must answer, the stackable cards, "Take".
    move(game, "bob", {"type": "play", "card": "draw2-2"})
    expect(prompt).to_have_text("Stack a draw card on it, or take 2 cards.")
    expect(slot).to_have_text("+2to take")
    take = page.get_by_role("button", name="Take 2 cards")
    expect(take).to_be_enabled()
    expect(page.get_by_role("button", name="Play Draw 4")).not_to_have_attribute(
        "aria-disabled", "true"
    )
    expect(page.get_by_role("button", name="Play Draw 2")).not_to_have_attribute(
        "aria-disabled", "true"
    )
    expect(page.get_by_role("button", name="Wild").first).to_have_attribute("aria-disabled", "true")
    expect(page.get_by_role("button", name="Draw a card")).to_have_count(0)
    # Double down and mercy are on too: nothing to pair, fewer than 15 cards.
    expect(page.get_by_role("button", name="Play two cards")).to_have_attribute(
        "aria-disabled", "true"
    )
    expect(page.get_by_role("button", name="Mercy: discard 5")).to_have_attribute(
        "aria-disabled", "true"
    )
    no_shift(page, "when the stack arrived")
    alice.shot("stack-answer", take, slot, page.get_by_role("button", name="Play Draw 4"))
    alice.axe("a stack owed")

    # Alice stacks her Draw 4 by keyboard: Bob now owes 6.
    page.get_by_role("button", name="Play Draw 4").focus()
    page.keyboard.press("Enter")
    expect(prompt).to_have_text("bob must stack or take 6 cards.")
    expect(page.locator(".opponents .seat", has_text="bob").locator(".seat-flags")).to_have_text(
        "owes 6"
    )
    expect(slot).to_have_text("+6to take")
    expect(page.get_by_role("button", name="Take 6 cards")).to_have_count(0)
    alice.shot("stack-passed-on", slot, page.locator(".opponents .seat", has_text="bob"))

    # Bob stacks a Draw 4: 10 for Alice, who holds only a Draw 2 (not stackable on a Draw 4).
    move(game, "bob", {"type": "play", "card": "draw4-2"})
    take = page.get_by_role("button", name="Take 10 cards")
    expect(take).to_be_visible()
    expect(page.get_by_role("button", name="Draw 2")).to_have_attribute("aria-disabled", "true")
    fits(page, ".actions > button, .prompt p")
    no_shift(page, "while the stack went back and forth")
    # Ten cards arrive at the end of the hand: nothing moves, not even right after the key.
    take.focus()
    page.evaluate(SHIFTS)
    page.keyboard.press("Enter")
    expect_hand_size(page, 13)
    expect(prompt).to_have_text("Waiting for bob.")
    expect(slot).to_have_text("No stack")
    no_shift(page, "when the 10 cards were taken", strict=True)
    log = log_shows(
        page,
        "alice must stack or take 2 cards.",
        "bob must stack or take 6 cards.",
        "alice must stack or take 10 cards.",
        "alice took the stack: 10 cards.",
        "alice was skipped.",
    )
    alice.shot("stack-taken", hand(page).last, log.get_by_text("alice took the stack"))
    alice.axe("after taking the stack")


def test_double_down_with_a_target_per_card(clients: Any) -> None:
    alice, page, game = open_table(clients, "double_down.json")
    prompt = page.locator(".prompt p")
    expect(prompt).to_have_text("Your turn: play a card or draw one.")
    pair = page.get_by_role("button", name="Play two cards")
    pair.focus()
    page.keyboard.press("Enter")
    expect(prompt).to_have_text("Double down: choose two identical cards (0 of 2).")
    # Only cards held twice may be picked; the lone Wild may not.
    expect(page.get_by_role("button", name="Wild for the pair")).to_have_attribute(
        "aria-disabled", "true"
    )
    confirm = page.get_by_role("button", name="Play the pair")
    expect(confirm).to_have_attribute("aria-disabled", "true")
    # A Skip first; a Targeted Draw 2 starts the pair over; the second one completes it.
    page.get_by_role("button", name="Skip for the pair").first.click()
    expect(prompt).to_have_text("Double down: choose two identical cards (1 of 2).")
    tdraw = page.get_by_role("button", name="Targeted Draw 2 for the pair")
    tdraw.first.click()
    expect(page.get_by_role("button", name="Skip for the pair").first).to_have_attribute(
        "aria-pressed", "false"
    )
    tdraw.nth(1).focus()
    page.keyboard.press("Space")
    expect(tdraw.nth(0)).to_have_attribute("aria-pressed", "true")
    expect(tdraw.nth(1)).to_have_attribute("aria-pressed", "true")
    expect(prompt).to_have_text("Double down: choose two identical cards (2 of 2).")
    expect(confirm).not_to_have_attribute("aria-disabled", "true")
    alice.shot("double-down-picked", confirm, tdraw.nth(1))
    alice.axe("double down, two cards picked")

    # One target per card, in the picker, by keyboard.
    confirm.focus()
    picker = open_target_picker(page, "Card 1 of 2: who draws 2?")
    alice.shot("double-down-target", picker.get_by_role("button", name="carol"))
    alice.axe("double down, the first target")
    page.keyboard.press("Enter")  # bob
    expect(picker.get_by_role("heading", name="Card 2 of 2: who draws 2?")).to_be_visible()
    picker.get_by_role("button", name="carol").click()
    expect(seat_cards(page, "bob")).to_have_text("5 cards")
    expect(seat_cards(page, "carol")).to_have_text("6 cards")
    expect_hand_size(page, 3)
    expect(prompt).to_have_text("Waiting for bob.")
    no_shift(page, "while picking and playing a pair")
    log = log_shows(
        page,
        "alice played two Targeted Draw 2 cards at once, at bob and carol.",
        "carol drew 2 cards from a Targeted Draw 2.",
    )
    alice.shot("double-down-played", seat_cards(page, "carol"), log)
    alice.axe("after a pair")
    state = Game.objects.get(pk=game["game_id"]).moves.last()
    assert state is not None and state.action["type"] == "play_pair"


def test_mercy_discard_with_the_speed_clock(clients: Any) -> None:
    game = load_scenario("mercy.json")
    # Speed mode: bob's clock (30 s here: nothing sweeps the turns in this test).
    Game.objects.filter(pk=game["game_id"]).update(
        speed_seconds=30, turn_deadline=timezone.now() + timedelta(seconds=30)
    )
    players = {p["name"]: p for p in game["players"]}
    alice = clients("alice")
    alice.sign_in_with_token(players["alice"]["token"], f"/games/{game['game_id']}")
    page = alice.page
    prompt = page.locator(".prompt p")
    expect(prompt).to_have_text("Waiting for bob.")
    page.evaluate(SHIFTS)
    timer = page.locator("#turn-timer")
    # Whole seconds (not "0:29 min"), at most the 30 of the turn.
    expect(timer).to_have_text(re.compile(r"^([12]?[0-9]|30) s left$"))
    expect(page.locator(".speed-bar")).to_be_visible()
    expect_hand_size(page, 16)

    mercy = page.get_by_role("button", name="Mercy: discard 5")
    expect(mercy).not_to_have_attribute("aria-disabled", "true")
    alice.shot("mercy-offered", mercy, timer, page.locator(".speed-bar"))
    alice.axe("mercy offered, speed clock")
    page.evaluate(SHIFTS)
    mercy.click()
    expect(prompt).to_have_text("Mercy: choose 5 cards to discard (0 of 5).")
    confirm = page.get_by_role("button", name=re.compile(r"^Discard \(\d of 5\)$"))
    expect(confirm).to_have_attribute("aria-disabled", "true")
    draw4 = page.get_by_role("button", name="Discard Draw 4")
    skips = page.get_by_role("button", name="Discard Skip")
    draw4.nth(0).click()
    draw4.nth(1).click()
    skips.nth(0).click()
    skips.nth(1).focus()
    page.keyboard.press("Enter")
    page.get_by_role("button", name="Discard Reverse").first.click()
    expect(confirm).to_have_text("Discard (5 of 5)")
    expect(confirm).not_to_have_attribute("aria-disabled", "true")
    # Five picked: the others cannot be added.
    wild = page.get_by_role("button", name="Discard Wild").first
    expect(wild).to_have_attribute("aria-disabled", "true")
    wild.click(force=True)
    expect(page.locator(".hand button[aria-pressed=true]")).to_have_count(5)
    no_shift(page, "while picking five cards", strict=True)
    alice.shot("mercy-picked", confirm, draw4.first)
    alice.axe("mercy, five cards picked")

    confirm.click()
    expect_hand_size(page, 11)
    expect(page.get_by_role("heading", name="Your hand: 11 cards")).to_be_visible()
    expect(page.get_by_role("button", name="Mercy: discard 5")).to_have_attribute(
        "aria-disabled", "true"
    )
    expect(page.get_by_role("button", name="Draw 4")).to_have_count(0)
    expect(prompt).to_have_text("Waiting for bob.")  # a free action: still bob's turn
    no_shift(page, "while picking and discarding five cards")
    log = log_shows(
        page, "alice used mercy and discarded 5 cards (Draw 4, Draw 4, Skip, Skip, Reverse)."
    )
    alice.shot("mercy-done", log, page.get_by_role("heading", name="Your hand: 11 cards"))
    alice.axe("after mercy")


def test_blind_play_target_after_the_reveal(clients: Any) -> None:
    alice, page, game = open_table(clients, "blind_play.json")
    prompt = page.locator(".prompt p")
    expect(prompt).to_have_text("Your turn: play your top card or draw.")
    expect(page.get_by_role("heading", name="Your hand: 3 cards, face down")).to_be_visible()
    expect(page.locator(".hand .card.back")).to_have_count(3)
    expect(page.locator(".hand button")).to_have_count(0)
    top = page.get_by_role("button", name="Play top card")
    alice.shot("blind-hand", top, page.locator(".hand-hidden"))
    alice.axe("blind play, the face-down hand")

    top.focus()
    page.keyboard.press("Enter")
    # A Force Swap: the picker opens after the reveal; bob holds one card (protected).
    picker = page.locator("dialog[open]")
    expect(
        picker.get_by_role(
            "heading", name="You revealed Force Swap: choose whom to swap hands with."
        )
    ).to_be_visible()
    expect(picker.locator("button.target")).to_have_count(1)
    expect(picker.get_by_role("button", name="carol")).to_be_focused()
    expect(prompt).to_have_text("You revealed Force Swap: choose whom to swap hands with.")
    expect(page.get_by_role("img", name="Discard pile, top card: Force Swap")).to_be_visible()
    alice.shot("blind-target", picker.get_by_role("button", name="carol"))
    alice.axe("blind play, the target after the reveal")
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name="Your hand: 5 cards, face down")).to_be_visible()
    expect(page.locator(".hand .card.back")).to_have_count(5)
    expect(seat_cards(page, "carol")).to_have_text("2 cards")
    expect(prompt).to_have_text("Waiting for bob.")
    no_shift(page, "while playing blind and swapping")
    log = log_shows(
        page, "alice played Force Swap.", "alice chose carol.", "alice swapped hands with carol."
    )
    alice.shot("blind-swapped", page.locator(".hand-hidden"), log)
    alice.axe("blind play, after the swap")


def test_new_game_offers_every_house_rule(clients: Any) -> None:
    user = User.objects.create_user(username="hosta", display_name="hosta")
    _, token = ApiToken.issue(user, name="test", scope=ApiToken.SCOPE_PLAY)
    host = clients("host")
    host.sign_in_with_token(token, "/games/new")
    page = host.page
    expect(page.get_by_role("heading", name="New game")).to_be_visible()
    hints = {
        "Stacking": "equal or higher value",
        "Double down": "two identical cards at once",
        "Mercy": "15 cards or more",
        "Blind play": "only how many cards it holds",
        "Force Swap protection": "holding one card cannot be chosen",
        "Speed mode": "short time limit",
    }
    for name, hint in hints.items():
        box = page.get_by_role("checkbox", name=name, exact=True)
        expect(box).to_be_visible()
        expect(box).to_have_accessible_description(re.compile(hint))
    seconds = page.get_by_label("Seconds per turn in speed mode")
    expect(seconds).to_be_hidden()
    speed = page.get_by_role("checkbox", name="Speed mode", exact=True)
    speed.focus()
    page.keyboard.press("Space")
    expect(seconds).to_be_visible()
    expect(seconds).to_have_value("5")
    seconds.fill("10")
    page.get_by_role("checkbox", name="Stacking", exact=True).check()
    page.get_by_role("checkbox", name="Mercy", exact=True).check()
    host.shot("new-game-house-rules", seconds, speed)
    host.axe("the new game screen with house rules")
    page.get_by_role("button", name="Create the game").click()
    expect(page.get_by_role("heading", name="Game lobby")).to_be_visible()
    expect(page.get_by_text("Speed mode: 10 s per turn")).to_be_visible()
    settings = page.locator("main p.muted").first
    for rule in ("Stacking", "Mercy", "Speed mode"):
        expect(settings).to_contain_text(rule)
    created = Game.objects.get(host=user)
    assert created.speed_seconds == 10
    assert {k for k, on in created.options.items() if on} == {"stacking", "mercy", "speed_mode"}


def test_the_house_rule_controls_fit_in_danish(clients: Any) -> None:
    """The longer Danish words fit their fixed boxes: the stack's prompt and button, and the
    double down and mercy buttons."""
    game = load_scenario("stacking.json")
    players = {p["name"]: p for p in game["players"]}
    User.objects.filter(username=players["alice"]["username"]).update(language="da")
    alice = clients("alice-da", locale="da-DK")
    alice.sign_in_with_token(players["alice"]["token"], f"/games/{game['game_id']}")
    page = alice.page
    prompt = page.locator(".prompt p")
    expect(prompt).to_have_text("Venter på bob.")
    move({"game_id": game["game_id"], **players}, "bob", {"type": "play", "card": "draw2-2"})
    expect(prompt).to_have_text("Stabl et trækkort ovenpå, eller tag 2 kort.")
    take = page.get_by_role("button", name="Tag 2 kort")
    expect(take).to_be_visible()
    expect(page.locator(".stack-slot")).to_have_text("+2at tage")
    expect(page.get_by_role("button", name="Spil to kort")).to_have_attribute(
        "aria-disabled", "true"
    )
    expect(page.get_by_role("button", name="Nåde: smid 5")).to_have_attribute(
        "aria-disabled", "true"
    )
    fits(page, ".actions > button, .prompt p, .stack-slot, .hand-tools > button")
    alice.shot("stack-answer-danish", take, prompt, page.locator(".hand-tools"))
    alice.axe("a stack owed (Danish)")


@pytest.mark.usefixtures("bots_move")
def test_speed_mode_runs_out(clients: Any) -> None:
    """Speed mode's 5 s, counted down on screen; the timer sweep (a thread, as `serve` runs it)
    then draws Alice a card and passes the turn. Nothing moves while it happens."""
    alice, page, game = open_table(clients, "speed_mode.json")
    timer = page.locator("#turn-timer")
    expect(timer).to_have_text(re.compile(r"^[1-5] s left$"))
    expect(page.locator(".speed-bar")).to_be_visible()
    alice.shot("speed-clock", timer, page.locator(".speed-bar"))
    expect(timer).to_have_class(re.compile(r"\burgent\b"), timeout=6_000)
    # Run out: a card drawn (Skip, the top of the pile), bob's turn with a fresh 5 s.
    expect_hand_size(page, 4)
    expect(page.get_by_role("button", name="Skip")).to_be_visible()
    expect(page.locator(".prompt p")).to_have_text("Waiting for bob.")
    no_shift(page, "while the turn ran out")
    log = log_shows(page, "alice ran out of time and drew 1 card.")
    alice.shot("speed-timed-out", hand(page).last, log)
    alice.axe("speed mode, after a timeout")


def test_blind_play_cannot_stack_then_mercy_takes_the_top_five(clients: Any) -> None:
    alice, page, game = open_table(clients, "blind_stack_mercy.json")
    prompt = page.locator(".prompt p")
    heading = page.locator("#hand-title")
    expect(heading).to_have_text("Your hand: 15 cards, face down")
    mercy = page.get_by_role("button", name="Mercy: discard the top 5")
    expect(mercy).not_to_have_attribute("aria-disabled", "true")

    # The log, opened before anything happens, stays open through the moves below.
    log = log_shows(page)
    expect(log).to_have_js_property("open", True)

    # A Draw 2 on Alice: face down, she may only try her top card or take the 2.
    move(game, "bob", {"type": "play_top"})  # blind too: his top card, a Draw 2
    expect(prompt).to_have_text("Stack a draw card on it, or take 2 cards.")
    top = page.get_by_role("button", name="Play top card")
    expect(top).to_be_enabled()
    expect(page.get_by_role("button", name="Take 2 cards")).to_be_enabled()
    alice.shot("blind-stack", top, page.locator(".stack-slot"))
    alice.axe("blind play with a stack owed")
    top.click()
    # A Wild: it cannot stack, goes back on top, and the 2 are taken.
    expect(heading).to_have_text("Your hand: 17 cards, face down")
    expect(prompt).to_have_text("Waiting for bob.")
    expect(log).to_have_js_property("open", True)  # it stays open while the game moves
    expect(log).to_contain_text(
        "alice turned up Wild, which cannot be stacked, and takes the cards."
    )
    expect(log).to_contain_text("alice took the stack: 2 cards.")

    # Mercy on bob's turn: the top five go, no choosing.
    mercy.focus()
    page.keyboard.press("Enter")
    expect(heading).to_have_text("Your hand: 12 cards, face down")
    expect(page.locator(".hand .card.back")).to_have_count(12)
    expect(mercy).to_have_attribute("aria-disabled", "true")
    expect(log).to_have_js_property("open", True)
    expect(log).to_contain_text(
        "alice used mercy and discarded 5 cards (Wild, Wild, Wild, Wild, Wild)."
    )
    no_shift(page, "while playing blind on a stack and using mercy")
    alice.shot("blind-mercy", heading, mercy, log)
    alice.axe("blind play after mercy")


def test_uno_said_with_a_pair(clients: Any) -> None:
    alice, page, game = open_table(clients, "double_down_uno.json")
    uno = page.locator(".uno-button")
    expect(page.locator(".uno-hint")).to_have_text(
        "Three cards left: press UNO before you play a pair."
    )
    uno.click()
    expect(uno).to_have_attribute("aria-pressed", "true")
    page.get_by_role("button", name="Play two cards").click()
    page.get_by_role("button", name="Skip for the pair").nth(0).click()
    page.get_by_role("button", name="Skip for the pair").nth(1).click()
    expect(uno).to_have_attribute("aria-pressed", "true")  # still armed while picking
    page.get_by_role("button", name="Play the pair").click()
    # Two Skips with two players: bob sits out twice, alice plays on with one card, UNO said.
    expect(hand(page)).to_have_count(1)
    expect(page.locator(".uno-hint")).to_have_text("You said UNO.")
    expect(page.locator(".prompt p")).to_have_text("Your turn: play a card or draw one.")
    no_shift(page, "while playing a pair with UNO")
    log = log_shows(page, "alice played two Skip cards at once.", "alice said UNO!")
    alice.shot("double-down-uno", page.locator(".uno-hint"), log)
    alice.axe("after a pair with UNO")


def test_blind_play_a_drawn_card_unseen(clients: Any) -> None:
    alice, page, game = open_table(clients, "blind_drawn.json")
    page.get_by_role("button", name=re.compile(r"^Draw a card")).click()
    prompt = page.locator(".prompt p")
    expect(prompt).to_have_text("You drew a card face down. Play it or keep it.")
    expect(page.get_by_role("heading", name="Your hand: 3 cards, face down")).to_be_visible()
    play = page.get_by_role("button", name="Play it")
    expect(page.get_by_role("button", name="Keep it")).to_be_enabled()
    alice.shot("blind-drawn", play, prompt)
    alice.axe("blind play, a card drawn unseen")
    play.click()
    picker = page.locator("dialog[open]")
    expect(
        picker.get_by_role("heading", name="You revealed Targeted Draw 2: choose who draws 2.")
    ).to_be_visible()
    picker.get_by_role("button", name="bob").click()
    expect(seat_cards(page, "bob")).to_have_text("5 cards")
    expect(page.get_by_role("heading", name="Your hand: 2 cards, face down")).to_be_visible()
    expect(prompt).to_have_text("Waiting for bob.")
    no_shift(page, "while drawing and playing unseen")
