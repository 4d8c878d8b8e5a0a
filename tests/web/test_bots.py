"""Bots in the web client, at phone size: one person signs up, starts a game against the
computer (two bots) and plays the round to its end by tapping while the bots move on the server;
a bot takes their seat over and they take it back. A host (in Danish) seats bots in a lobby,
removes one by keyboard, and fills the table with bots, which starts the game.

The bots move as in the embedded mode: tasks run inline, so no task is queued, and a background
thread sweeps overdue turns (games.services.sweep_expired_turns), which asks a bot on turn to
move (docs/bots.md, "Moves"). Their "thinking" pause is shortened to keep the test short.
"""

from __future__ import annotations

import re
import secrets
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from config.background import Job, Runner
from games import services
from games.models import Game, Seat
from players.models import User
from tests.web.conftest import Client, see_the_result
from tests.web.test_flow import PASSWORD, sign_up, take_turn

pytestmark = pytest.mark.django_db(transaction=True)

# The deal and the bots' choices are seeded (tests.games.conftest.seeded_engine): with this seed
# the bots' moves change Eve's hand nine times (Draw 2s on her, swaps), so the layout shift is
# measured while cards arrive without her doing anything.
SEED = 5

# Counts every layout shift the client makes on its own (not within 500 ms of a tap or key:
# `hadRecentInput`) while the table is on screen: cards arriving, counts changing, bots moving.
TABLE_SHIFTS = """() => {
    window.__shifts = [];
    new PerformanceObserver((list) => {
        if (!document.querySelector(".hand")) return;
        for (const entry of list.getEntries()) {
            if (entry.hadRecentInput) continue;
            const sources = (entry.sources || []).map(
                (s) => String(s.node && (s.node.outerHTML || s.node.nodeName)).slice(0, 80));
            window.__shifts.push({value: entry.value, sources});
        }
    }).observe({type: "layout-shift", buffered: false});
}"""


@pytest.fixture
def bots_move(settings: Any) -> Iterator[None]:
    """The embedded mode's timer sweep in a background thread, with bots that think briefly."""
    settings.BOT_DELAY_SECONDS = (0.2, 0.4)
    settings.BOT_BUDGET_MS = 30
    runner = Runner(
        lambda: [Job("turn-timer-sweep", 0.2, services.sweep_expired_turns)], tick_seconds=0.1
    )
    thread = threading.Thread(target=runner.run_forever, name="test-sweep", daemon=True)
    thread.start()
    try:
        yield
    finally:
        runner.stop_event.set()
        thread.join(timeout=10)


def new_person(clients: Any, name: str, **options: Any) -> tuple[Client, str]:
    client = clients(name, **options)
    username = f"{name}-{secrets.token_hex(3)}"
    client.goto("/signup")
    return client, username


def assert_fits(locator: Any) -> None:
    """The element's words fit in its box (the prompt's box has a fixed height)."""
    size = locator.evaluate(
        "el => [el.scrollHeight, el.clientHeight, el.scrollWidth, el.clientWidth]"
    )
    assert size[0] <= size[1] and size[2] <= size[3], f"the words overflow their box: {size}"
    box = locator.evaluate(
        "el => [el.getBoundingClientRect().bottom, el.parentElement.getBoundingClientRect().bottom]"
    )
    assert box[0] <= box[1], f"the words overflow the prompt: {box}"


def toast_gone(page: Page) -> None:
    """The welcome toast covers the top of the screen for 3 s: screenshots wait for it."""
    expect(page.locator("#toast.show")).to_have_count(0)


def play_to_the_end(page: Page, limit_seconds: float = 150) -> int:
    deadline = time.monotonic() + limit_seconds
    moves = 0
    while time.monotonic() < deadline:
        if page.locator(".game-screen .result-banner").count():
            return moves
        if take_turn(page):
            moves += 1
            page.wait_for_timeout(150)
        else:
            page.wait_for_timeout(100)
    raise AssertionError(f"the round did not end within {limit_seconds} s ({moves} moves)")


def start_a_game_against_two_bots(eve: Client) -> None:
    """The new game screen: against the computer, two bots, medium, one round."""
    page = eve.page
    page.get_by_role("link", name="New game").click()
    expect(page.get_by_role("heading", name="New game")).to_be_visible()
    # Every house rule is offered, with its description.
    stacking = page.get_by_role("checkbox", name="Stacking")
    expect(stacking).to_be_visible()
    expect(stacking).to_have_accessible_description(re.compile("equal or higher value"))
    expect(page.get_by_label("Seconds per turn in speed mode")).to_be_hidden()
    expect(page.get_by_label("Bots", exact=True)).to_be_hidden()
    # The choice by keyboard: arrow keys move between the two radio buttons.
    page.get_by_label("People I invite").focus()
    page.keyboard.press("ArrowDown")
    expect(page.get_by_label("The computer (starts at once)")).to_be_checked()
    expect(page.get_by_label("Seats")).to_be_hidden()
    page.get_by_label("Bots", exact=True).select_option("2")
    page.get_by_label("Bot level").select_option("heuristic")
    page.get_by_label("Length", exact=True).select_option("0")
    eve.shot(
        "bots-new-game",
        page.get_by_label("Bots", exact=True),
        page.get_by_label("Bot level"),
        page.get_by_role("button", name="Start the game"),
    )
    eve.axe("new game against the computer")
    page.get_by_role("button", name="Start the game").click()
    # The table at once: two bot seats, marked as bots.
    expect(page.get_by_role("heading", name="Your hand:")).to_be_visible()
    seats = page.locator(".opponents .seat")
    expect(seats).to_have_count(2)
    for i in range(2):
        expect(seats.nth(i).locator(".seat-bot")).to_have_text("Bot · Medium")
        expect(seats.nth(i).locator(".seat-name")).to_contain_text("(bot)")
    page.evaluate(TABLE_SHIFTS)
    eve.shot("bots-table", seats.first, page.locator(".hand"))
    eve.axe("the table with bots")


def a_bot_takes_the_seat_and_eve_takes_it_back(eve: Client, game: Game, user: User) -> None:
    """A bot takes Eve's seat over (as a moderator's hand-over does); she takes it back."""
    page = eve.page
    services.hand_seat_to_bot(game.pk, user, level="heuristic")
    reclaim = page.get_by_role("button", name="Take my seat back")
    eve.shot("bots-taken-over", reclaim, page.get_by_text("A bot plays for you."))
    assert_fits(page.locator(".prompt.taken-over p"))
    eve.axe("the table, seat taken over")
    reclaim.focus()
    page.keyboard.press("Enter")
    expect(reclaim).to_have_count(0)
    expect(page.locator(".prompt")).not_to_contain_text("A bot plays")
    assert not Seat.objects.get(game=game, user=user).taken_over


def the_round_ends_with_the_bots_moves_on_eves_hand(eve: Client, game: Game, user: User) -> None:
    """Eve plays by tapping; the bots answer on the server; the round ends. Nothing on her
    page shifts while their moves change her hand."""
    page = eve.page
    moves = play_to_the_end(page)
    shifts = page.evaluate("() => window.__shifts")
    assert sum(s["value"] for s in shifts) == 0, f"layout shift while playing: {shifts}"
    expect(page.get_by_role("heading", name="Results")).to_be_visible()
    see_the_result(page)
    expect(page.locator("table.scores tbody tr")).to_have_count(3)
    game.refresh_from_db()
    assert game.status == Game.FINISHED
    bot_positions = [s.position for s in game.seats.all() if s.is_bot]
    assert len(bot_positions) == 2
    assert game.moves.filter(seat__in=bot_positions, action__type="play").exists()
    assert moves > 0
    bot_moves = game.moves.filter(seat__in=bot_positions)
    # Cards that came to Eve's hand by the bots' moves (a Draw 2 on her, a swap, a shuffle).
    eve_seat = Seat.objects.get(game=game, user=user).position
    given = [
        e
        for events in bot_moves.values_list("events", flat=True)
        for e in events
        if e.get("seat") == eve_seat and e["type"] == "draw" or e.get("target") == eve_seat
    ]
    assert given, "no bot move changed Eve's hand: pick a SEED whose round does"
    print(
        f"round against bots: {moves} taps by Eve, {bot_moves.count()} bot moves, "
        f"{len(given)} of them changed Eve's hand, layout shift 0"
    )
    eve.shot("bots-results", page.locator(".result-banner"), page.locator("table.scores"))
    eve.axe("the results against bots")
    # The log tells the bots' moves in words.
    page.locator("details.log summary").click()
    expect(page.locator(".log-lines li", has_text="(bot) played").first).to_be_visible()


def my_games_offers_another_game_against_the_computer(eve: Client) -> None:
    """My games lists it; "Play against the computer" opens the new game screen set for bots."""
    page = eve.page
    page.get_by_role("link", name="Games", exact=True).click()
    finished = page.locator(".game-link", has_text="Ada (bot)")
    expect(finished).to_contain_text("Alan (bot)")
    page.get_by_role("link", name="Play against the computer").click()
    expect(page.get_by_label("The computer (starts at once)")).to_be_checked()
    expect(page.get_by_label("Bots", exact=True)).to_be_visible()
    expect(page.get_by_role("button", name="Start the game")).to_be_visible()


def test_one_player_plays_a_round_against_bots(
    clients: Any, bots_move: None, seeded_engine: Any
) -> None:
    seeded_engine(SEED)
    eve, username = new_person(clients, "eve")
    sign_up(eve, username)
    expect(eve.page.get_by_role("heading", name="My games")).to_be_visible()
    toast_gone(eve.page)
    start_a_game_against_two_bots(eve)
    game = Game.objects.get(seats__user__username=username)
    user = User.objects.get(username=username)
    a_bot_takes_the_seat_and_eve_takes_it_back(eve, game, user)
    the_round_ends_with_the_bots_moves_on_eves_hand(eve, game, user)
    my_games_offers_another_game_against_the_computer(eve)


def test_the_host_seats_bots_in_the_lobby_in_danish(clients: Any) -> None:
    lars, username = new_person(clients, "lars", locale="da-DK")
    page = lars.page
    page.get_by_label("Brugernavn").fill(username)
    page.get_by_label("Adgangskode").fill(PASSWORD)
    page.get_by_role("button", name="Opret konto").click()
    expect(page.get_by_role("heading", name="Mine spil")).to_be_visible()
    toast_gone(page)

    page.get_by_role("link", name="Nyt spil").click()
    expect(page.get_by_role("heading", name="Nyt spil")).to_be_visible()
    expect(page.get_by_label("Folk, jeg inviterer")).to_be_checked()
    page.get_by_label("Pladser").select_option("3")
    page.get_by_role("button", name="Opret spillet").click()
    expect(page.get_by_role("heading", name="Spillets lobby")).to_be_visible()
    expect(page.locator(".players li.free")).to_have_count(2)

    # A hard bot, chosen and added by keyboard.
    level = page.get_by_label("Computerens niveau")
    level.focus()
    level.select_option("expert")
    page.keyboard.press("Tab")
    expect(page.get_by_role("button", name="Tilføj en computerspiller")).to_be_focused()
    page.keyboard.press("Enter")
    bot = page.locator(".players li", has_text="(bot)")
    expect(bot).to_have_count(1)
    expect(bot.locator(".pill")).to_have_text("Bot · Svær")
    expect(page.locator(".players li.free")).to_have_count(1)
    remove = page.get_by_role("button", name="Fjern Ada (bot)")
    # Every row of the list is as tall as the others: a seat filling up moves nothing below.
    heights = page.locator(".players li").evaluate_all(
        "els => els.map(e => e.getBoundingClientRect().height)"
    )
    assert len(set(heights)) == 1, f"rows of different heights: {heights}"
    lars.shot("bots-lobby-danish", remove, page.get_by_text("Spillere: 2 af 3"))
    lars.axe("the lobby with a bot (Danish)")

    # Removed again by keyboard; focus stays on the bot form.
    remove.focus()
    page.keyboard.press("Enter")
    expect(page.locator(".players li", has_text="(bot)")).to_have_count(0)
    expect(level).to_be_focused()

    # Two easy bots fill the table: the game starts by itself.
    level.select_option("random")
    page.get_by_role("button", name="Tilføj en computerspiller").click()
    expect(page.get_by_text("Spillere: 2 af 3")).to_be_visible()
    page.get_by_role("button", name="Tilføj en computerspiller").click()
    expect(page.locator(".opponents .seat")).to_have_count(2)
    expect(page.locator(".opponents .seat-bot").first).to_have_text("Bot · Let")
    lars.shot("bots-table-danish", page.locator(".opponents"), page.locator(".hand"))
    lars.axe("the table with bots (Danish)")

    # Their seat handed to a bot: the Danish words fit the fixed box.
    game = Game.objects.get(seats__user__username=username)
    services.hand_seat_to_bot(game.pk, User.objects.get(username=username), level="random")
    reclaim = page.get_by_role("button", name="Tag pladsen tilbage")
    lars.shot("bots-taken-over-danish", reclaim, page.get_by_text("Computeren spiller for dig."))
    assert_fits(page.locator(".prompt.taken-over p"))
    lars.axe("the table, seat taken over (Danish)")
