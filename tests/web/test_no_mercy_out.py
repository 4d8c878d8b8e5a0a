"""Issue 35's last gaps, on 390x844 touch phones in English and Danish, axe-clean:

- a player knocked out of a one-round No Mercy game skips to the result: their place, decided
  already, and the way to a next game, while the others play on (and may go back to watch);
- a round of three players ends with each losing hand shown with what it counted.

(The knockout's round told in the log as won by the last one left: tests/web/test_table_moments.)
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from games.models import Game, Seat
from players.models import User
from tests.web.conftest import Client, act_over_the_api, load_scenario
from tests.web.test_danish import assert_danish
from tests.web.test_gin_table import axe_clean
from tests.web.test_offline import PHONE_390

pytestmark = pytest.mark.django_db(transaction=True)

# The words each test reads, by language.
WORDS = {
    "en-GB": {
        "out": "You hit 25 cards and are out: this was the only round.",
        "skip": "Skip to the result",
        "holds_none": "You now hold 0 cards.",
        "title": "You are out of the game",
        "place": "You were knocked out: you finish in place 3 of 3.",
        "watch": "Watch the table",
        "new": "New game",
        "again": "Play again",
        "round_title": "Round 1 is over",
        "bob": "worth 140 points",
        "carol": "worth 50 points",
        "banner": "Round 1: alice won 190 points.",
    },
    "da-DK": {
        "out": "Du nåede 25 kort og er ude: det var den eneste runde.",
        "skip": "Spring frem til resultatet",
        "holds_none": "Du har nu 0 kort.",
        "title": "Du er ude af spillet",
        "place": "Du blev slået ud: du slutter på plads 3 af 3.",
        "watch": "Se bordet",
        "new": "Nyt spil",
        "again": "Spil igen",
        "round_title": "Runde 1 er slut",
        "bob": "værd 140 point",
        "carol": "værd 50 point",
        "banner": "Runde 1: alice vandt 190 point.",
    },
}
LOCALES = sorted(WORDS)


def seated(clients: Any, position: str, name: str, locale: str) -> tuple[dict[str, Any], Client]:
    """The scenario's game, and ``name``'s phone on it in ``locale`` (the profile's language)."""
    game = load_scenario(position)
    tokens = {p["name"]: p["token"] for p in game["players"]}
    User.objects.filter(display_name=name).update(language=locale[:2])
    client = clients(name, locale=locale, **PHONE_390)
    client.sign_in_with_token(tokens[name], f"/games/{game['game_id']}")
    game["tokens"] = tokens
    return game, client


@pytest.mark.parametrize("locale", LOCALES)
def test_a_player_knocked_out_of_the_only_round_skips_to_the_result(
    clients: Any, live_server: Any, locale: str
) -> None:
    words = WORDS[locale]
    game, bob = seated(clients, "no_mercy_knockout.json", "bob", locale)
    game_id, tokens = game["game_id"], game["tokens"]
    b = bob.page
    expect(b.locator(".hand-area")).to_be_visible()
    expect(b.get_by_role("button", name=words["skip"])).to_have_count(0)
    # Alice's Wild Draw 10 on Bob, who takes it and is knocked out at 25 cards.
    play = {"type": "play", "card": "wd10-1", "colour": "red"}
    act_over_the_api(live_server.url, tokens["alice"], game_id, play)
    act_over_the_api(live_server.url, tokens["bob"], game_id, {"type": "take_stack"})
    expect(b.locator(".prompt")).to_contain_text(words["out"])
    # Alice's 250 points (the knockout's bonus) are written whole in her seat, in Danish too.
    expect(b.locator(".seat-score .points", has_text="250")).to_be_visible()
    cut = b.eval_on_selector_all(
        ".seat-score .points, .seat-score .seat-bot",
        "els => els.filter(e => e.scrollWidth > e.clientWidth).map(e => e.textContent)",
    )
    assert cut == [], cut
    # Out of the round: the news does not count an emptied hand, and nothing is offered to play.
    expect(b.locator(".news")).not_to_contain_text(words["holds_none"])
    expect(b.get_by_role("button", name="UNO!")).to_have_count(0)

    skip = b.get_by_role("button", name=words["skip"])
    box = skip.bounding_box()
    assert box and box["height"] >= 44 and box["y"] + box["height"] <= 844, box
    axe_clean(bob, f"the knocked-out table ({locale})")
    skip.click()

    # His place is decided: alice and carol play on above him.
    title = b.get_by_role("heading", name=words["title"])
    expect(title).to_be_visible()
    expect(b.locator(".out-result .result-banner")).to_have_text(words["place"])
    expect(b.get_by_role("link", name=words["new"])).to_have_attribute("href", "/games/new")
    for target in b.locator(".out-result a, .out-result button").all():
        size = target.bounding_box()
        assert size and size["height"] >= 44, (target.inner_text(), size)
    axe_clean(bob, f"the knocked-out player's result ({locale})")
    if locale.startswith("da"):
        assert_danish(bob, "the knocked-out player's result")
    # Nothing was sent for him: the game goes on, his seat kept.
    assert Game.objects.get(pk=game_id).status == Game.ACTIVE
    assert Game.objects.get(pk=game_id).seats.get(position=1).left_at is None

    # Remembered on this device (a reload keeps it), and undone by going back to watch.
    b.reload()
    expect(b.get_by_role("heading", name=words["title"])).to_be_visible()
    b.get_by_role("button", name=words["watch"]).click()
    expect(b.locator(".prompt")).to_contain_text(words["out"])
    expect(b.get_by_role("button", name=words["skip"])).to_be_visible()


@pytest.mark.parametrize("locale", LOCALES)
def test_against_the_computer_a_knocked_out_player_plays_again_in_one_tap(
    clients: Any, live_server: Any, locale: str
) -> None:
    """Alice and carol are the computer's: "Play again" on the result starts the next game, with
    the same bots and options, while they finish this one."""
    words = WORDS[locale]
    game, bob = seated(clients, "no_mercy_knockout.json", "bob", locale)
    game_id, tokens = game["game_id"], game["tokens"]
    play = {"type": "play", "card": "wd10-1", "colour": "red"}
    act_over_the_api(live_server.url, tokens["alice"], game_id, play)
    act_over_the_api(live_server.url, tokens["bob"], game_id, {"type": "take_stack"})
    for position, name in ((0, "Ada"), (2, "Alan")):
        Seat.objects.filter(game_id=game_id, position=position).update(
            user=None, bot_level="random", bot_name=name
        )
    b = bob.page
    b.reload()
    b.get_by_role("button", name=words["skip"]).click()
    again = b.locator(".out-result").get_by_role("button", name=words["again"])
    box = again.bounding_box()
    assert box and box["height"] >= 44, box
    expect(b.locator(".out-result").get_by_role("link", name=words["new"])).to_have_count(0)
    # Play again is offered here, so the hint does not say it comes when the game ends.
    expect(b.locator(".out-result .hint")).not_to_contain_text(words["again"])
    axe_clean(bob, f"the knocked-out player's result against the computer ({locale})")
    again.click()

    expect(b).not_to_have_url(re.compile(f"/games/{game_id}$"))
    expect(b.locator(".hand button.card").first).to_be_visible()
    new = Game.objects.get(rematch_of_id=game_id)
    assert (new.status, new.kind, new.target_score) == (Game.ACTIVE, "uno_no_mercy", 0)
    assert sorted(new.seats.exclude(bot_level="").values_list("bot_name", flat=True)) == [
        "Ada",
        "Alan",
    ]
    assert b.url.endswith(f"/games/{new.pk}")


@pytest.mark.parametrize("locale", LOCALES)
def test_a_round_of_three_shows_each_losing_hand_with_its_points(clients: Any, locale: str) -> None:
    words = WORDS[locale]
    _, alice = seated(clients, "round_end_three.json", "alice", locale)
    a = alice.page
    expect(a.locator(".prompt.mine")).to_be_visible()
    a.locator(".hand button.card").first.click()
    dialog = a.locator("dialog[open]")
    expect(dialog.locator("#round-title")).to_have_text(words["round_title"])
    expect(dialog.locator(".result-banner")).to_have_text(words["banner"])
    hands = dialog.locator(".round-hands li")
    expect(hands).to_have_count(2)
    expect(hands.filter(has_text="bob").locator(".round-hand-points")).to_have_text(words["bob"])
    expect(hands.filter(has_text="carol").locator(".round-hand-points")).to_have_text(
        words["carol"]
    )
    axe_clean(alice, f"the round's end of three players ({locale})")
    if locale.startswith("da"):
        assert_danish(alice, "the round's end of three players")
