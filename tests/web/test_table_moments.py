"""What happened and what comes next at the table (issue 35, items 2, 3, 6 and 7), on 390x844
touch phones.

- Gin Rummy: the other player's screen tells each move in its news line (the upcard taken, the
  discard, the draw from the stock); a one-round game ends with the knock's summary, opened at
  its title, then the result.
- No Mercy: a round won by knocking the last player out is told as the points it brought (the
  250 bonus), never "won 0 points" beside a total of 250, in the dialog and on the results.
- "Next game where it's your turn" leads from a game waiting for the others to one waiting for me.
- A rated game's results show the player's rating change ("+14").
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from games.models import Game, Seat
from players.models import User
from tests.web.conftest import ARTIFACTS, Client, act_over_the_api, load_scenario
from tests.web.test_danish import assert_danish
from tests.web.test_gin_table import axe_clean
from tests.web.test_offline import PHONE_390

pytestmark = pytest.mark.django_db(transaction=True)


def seat_players(clients: Any, position: str, *names: str, locale: str = "en-GB") -> Any:
    game = load_scenario(position)
    tokens = {p["name"]: p["token"] for p in game["players"]}
    if locale.startswith("da"):
        User.objects.filter(display_name__in=names).update(language="da")
    made = []
    for name in names:
        client = clients(name, locale=locale, **PHONE_390)
        client.sign_in_with_token(tokens[name], f"/games/{game['game_id']}")
        made.append(client)
    return game, tokens, made


def news(page: Page) -> Any:
    return page.locator(".news p:not([hidden])").last


def test_gin_tells_the_opponent_s_moves_and_a_one_round_game_ends_with_the_knock(
    clients: Any,
) -> None:
    _, _, (alice, bob) = seat_players(clients, "gin_one_round.json", "alice", "bob")
    a, b = alice.page, bob.page
    expect(a.locator(".prompt.mine")).to_be_visible()
    # Bob's table is drawn (its news box there) before Alice moves.
    expect(b.locator(".news")).to_be_visible()
    a.get_by_role("button", name="Take the upcard").click()
    expect(news(b)).to_have_text("alice takes the upcard, King of diamonds.")
    a.get_by_role("button", name="Discard Queen of hearts").click()
    expect(news(b)).to_have_text("alice discards Queen of hearts.")
    expect(b.locator(".prompt.mine")).to_be_visible()
    b.get_by_role("button", name="Take Queen of hearts from the discard pile").click()
    expect(news(a)).to_have_text("bob takes Queen of hearts from the discard pile.")
    b.get_by_role("button", name="Discard Jack of diamonds").click()
    expect(a.locator(".prompt.mine")).to_be_visible()
    a.get_by_role("button", name="Draw from the stock (10 cards)").click()
    expect(news(b)).to_have_text("alice draws from the stock.")
    a.get_by_role("button", name="Knock…").click()
    a.get_by_role("button", name="Knock, 9 of diamonds face down").click()

    # The only round is over: the knock's summary first, at its title, then the result.
    for who, page in ((alice, a), (bob, b)):
        dialog = page.locator("dialog[open]")
        title = dialog.locator("#round-title")
        expect(title).to_have_text("The last round is over")
        expect(title).to_be_focused()
        assert dialog.evaluate("d => d.scrollTop") == 0
        box = title.bounding_box()
        assert box and box["y"] >= 0, f"the summary's title is cut off: {box}"
        expect(dialog).to_contain_text("alice knocked with 10 against 39: alice scores 29.")
        expect(dialog.locator(".gin-layout")).to_have_count(2)
        if who is alice:
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            a.screenshot(path=str(ARTIFACTS / "round-end-gin-en.png"))
        axe_clean(who, "the last round's summary")
        dialog.get_by_role("button", name="See the result").click()
        expect(page.locator("dialog[open]")).to_have_count(0)
        expect(page.get_by_role("heading", name="Results")).to_be_visible()


def knock_bob_out(
    clients: Any, live_server: Any, words: tuple[str, str, str], *, locale: str = "en-GB"
) -> Client:
    """Alice's Wild Draw 10 (its name, the colour named, the banner's words in ``words``) on
    Bob, who takes it (over the API) and is knocked out: the only round ends."""
    game, tokens, (alice,) = seat_players(
        clients, "no_mercy_knockout_duel.json", "alice", locale=locale
    )
    card, colour, banner = words
    a = alice.page
    expect(a.locator(".prompt.mine")).to_be_visible()
    a.locator(".hand button.card", has_text=card).click()
    a.locator(".colour-picker").get_by_role("button", name=colour).click()
    expect(a.locator(".stack-banner")).to_contain_text(banner)
    act_over_the_api(live_server.url, tokens["bob"], game["game_id"], {"type": "take_stack"})
    return alice


def test_a_no_mercy_round_won_by_a_knockout_is_told_as_the_points_it_brought(
    clients: Any, live_server: Any
) -> None:
    alice = knock_bob_out(clients, live_server, ("Wild Draw 10", "Red", "10 cards for bob"))
    a = alice.page

    dialog = a.locator("dialog[open]")
    expect(dialog.locator("#round-title")).to_have_text("The last round is over")
    expect(dialog.locator(".result-banner")).to_have_text(
        "Round 1: alice won as the last player left in it, with 250 points."
    )
    row = dialog.locator("table.scores tbody tr", has_text="alice")
    expect(row.locator("td")).to_have_text(["+250", "250"])
    a.screenshot(path=str(ARTIFACTS / "round-end-no-mercy-en.png"))
    axe_clean(alice, "the No Mercy round's end")
    dialog.get_by_role("button", name="See the result").click()
    expect(a.locator(".rounds li")).to_have_text(
        ["Round 1: alice won as the last player left in it, with 250 points."]
    )
    # The log tells how the round was won, never "scored 0 points" (issue 35, item 8).
    a.locator("details.log summary").click()
    log = a.locator(".log")
    expect(log).to_contain_text("alice is the last player left in round 1 and wins it.")
    expect(log).not_to_contain_text("scored 0 points")
    expect(a.locator(".game-screen table.scores tbody tr", has_text="alice")).to_contain_text("250")


def test_the_round_s_end_in_danish(clients: Any, live_server: Any) -> None:
    words = ("Joker Træk 10", "Rød", "10 kort til bob")
    alice = knock_bob_out(clients, live_server, words, locale="da-DK")
    a = alice.page
    dialog = a.locator("dialog[open]")
    expect(dialog.locator("#round-title")).to_have_text("Sidste runde er slut")
    expect(dialog.locator("thead")).to_contain_text("Denne runde")
    assert_danish(alice, "the round's end")
    expect(dialog.locator(".result-banner")).to_have_text(
        "Runde 1: alice vandt som den sidste spiller tilbage i den, med 250 point."
    )
    dialog.get_by_role("button", name="Se resultatet").click()
    expect(a.get_by_role("heading", name="Resultat")).to_be_visible()
    a.locator("details.log summary").click()
    expect(a.locator(".log")).to_contain_text(
        "alice er den sidste spiller tilbage i runde 1 og vinder den."
    )


def test_next_game_where_it_s_my_turn_is_a_tap_away_after_my_move(clients: Any) -> None:
    first, tokens, (alice,) = seat_players(clients, "two_players.json", "alice")
    second = load_scenario("two_players.json")
    # The same alice is seated in a second game where it is her turn too.
    me = User.objects.get(pk=Seat.objects.get(game_id=first["game_id"], position=0).user_id)
    Seat.objects.filter(game_id=second["game_id"], position=0).update(user=me)
    Game.objects.filter(pk=second["game_id"]).update(current_user=me)
    a = alice.page
    expect(a.locator(".prompt.mine")).to_be_visible()
    expect(a.locator(".next-game")).to_have_count(0)
    a.locator(".hand button.card", has_text="Wild").first.click()
    expect(a.locator(".prompt")).to_contain_text("Waiting for bob")
    button = a.get_by_role("link", name="Next game where it's your turn")
    expect(button).to_have_attribute("href", f"/games/{second['game_id']}")
    box = button.bounding_box()
    assert box and box["height"] >= 44
    axe_clean(alice, "the table with the next game's button")
    button.click()
    expect(a).to_have_url(re.compile(f"/games/{second['game_id']}$"))
    expect(a.locator(".prompt.mine")).to_be_visible()


def test_a_rated_game_s_results_show_my_rating_change(clients: Any) -> None:
    game = load_scenario("two_players.json")
    tokens = {p["name"]: p["token"] for p in game["players"]}
    Game.objects.filter(pk=game["game_id"]).update(status=Game.FINISHED, rated=True)
    Seat.objects.filter(game_id=game["game_id"], position=0).update(rating_change=14, place=1)
    Seat.objects.filter(game_id=game["game_id"], position=1).update(rating_change=-9, place=2)
    for locale, words in (("en-GB", "Your rating: +14"), ("da-DK", "Din rating: +14")):
        alice: Client = clients(f"alice-{locale}", locale=locale, **PHONE_390)
        if locale.startswith("da"):
            User.objects.filter(display_name="alice").update(language="da")
        alice.sign_in_with_token(tokens["alice"], f"/games/{game['game_id']}")
        expect(alice.page.locator(".rating-line")).to_have_text(words)
        expect(alice.page.locator(".rating-line .change.up")).to_have_text("+14")
        axe_clean(alice, f"the results with a rating change ({locale})")
