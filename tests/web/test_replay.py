"""The replay page (web/static/web/views/replay.js) at 390×844, in English and in Danish: from a
finished game's results a player opens its replay, steps forward and back through the record
with every hand shown, and reads each move's events in words; the hands and the words change
with the step. axe-core finds nothing serious on it."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from games.models import Move
from tests.web.finished import finished_against_bots
from tests.web.test_offline import PHONE_390

pytestmark = pytest.mark.django_db(transaction=True)

WORDS = {
    "en": {
        "link": "Watch the replay",
        "title": "Replay: Gin Rummy",
        "step": "Move {n} of {total}",
        "deal": "deals, the upcard is",
        "next": "Next move",
        "back": "Previous move",
        "last": "Last move",
        "suits": re.compile(r" of (spades|hearts|diamonds|clubs)$"),
    },
    "da": {
        "link": "Se genafspilningen",
        "title": "Genafspilning: Gin Rummy",
        "step": "Træk {n} af {total}",
        "deal": "giver, det vendte kort er",
        "next": "Næste træk",
        "back": "Forrige træk",
        "last": "Sidste træk",
        "suits": re.compile(r"^(Spar|Hjerter|Ruder|Klør) "),
    },
}

HANDS = """() => [...document.querySelectorAll(".replay-seat")].map((seat) =>
    [...seat.querySelectorAll(".replay-hand [role=img]")]
        .map((c) => c.getAttribute("aria-label")))"""


def hands(page: Page) -> list[list[str]]:
    found: list[list[str]] = page.evaluate(HANDS)
    return found


def events(page: Page) -> list[str]:
    return page.locator(".replay-events li").all_inner_texts()


def test_a_player_steps_through_a_finished_game_and_back(
    clients: Any, seeded_engine: Any, lang: str
) -> None:
    seeded_engine(5)
    game_id, _, token = finished_against_bots("gin_rummy", language=lang)
    total = Move.objects.filter(game_id=game_id).count()
    w = WORDS[lang]
    client = clients("alice", locale="da-DK" if lang == "da" else "en-GB", **PHONE_390)
    page = client.page
    client.sign_in_with_token(token, f"/games/{game_id}")
    page.get_by_role("link", name=w["link"]).click()
    expect(page).to_have_url(re.compile(rf"/games/{game_id}/replay$"))
    expect(page.locator("h1")).to_have_text(w["title"])
    where = page.locator(".replay-where")
    expect(where).to_contain_text(w["step"].format(n=1, total=total))

    # The deal: both hands of ten, every card named in the player's language.
    expect(page.locator(".replay-events li").first).to_contain_text(w["deal"])
    dealt = hands(page)
    assert [len(hand) for hand in dealt] == [10, 10]
    assert all(w["suits"].search(card) for hand in dealt for card in hand), dealt
    said = events(page)

    # Forward until a hand changes (the upcard taken, or a card drawn): new hands, new words.
    forward = page.get_by_role("button", name=w["next"])
    for n in range(2, 8):
        forward.click()
        expect(where).to_contain_text(w["step"].format(n=n, total=total))
        if hands(page) != dealt:
            break
    moved = hands(page)
    assert moved != dealt and events(page) != said and events(page)
    client.axe("the replay page")
    client.shot(f"replay-{lang}", page.locator(".replay-hands"))

    # Back one step: the hands as they were before it.
    page.get_by_role("button", name=w["back"]).click()
    expect(where).to_contain_text(w["step"].format(n=n - 1, total=total))
    assert hands(page) != moved

    # The end: the last step, the winner named in its words; no step beyond it.
    page.get_by_role("button", name=w["last"]).click()
    expect(where).to_contain_text(w["step"].format(n=total, total=total))
    expect(forward).to_be_disabled()
    assert any("Alice" in line or "(bot)" in line for line in events(page)), events(page)
    page.keyboard.press("ArrowLeft")
    expect(where).to_contain_text(w["step"].format(n=total - 1, total=total))
