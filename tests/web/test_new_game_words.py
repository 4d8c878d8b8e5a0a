"""The new game screen's words (issue 35, §7), in English and Danish at 390×844 (touch): no
literal `null` under any game's form, either way to play; Splash's house rules in Splash's own
words (it has no Targeted Draw 2 or Force Swap; All Wild's still name them); the length read as
"One round" / "Match to 500", never as a target of 0; an invite game of two seats by default,
its host told under the seats, and again in the lobby, that they start it."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from games.engine.registry import get_game, kinds
from games.models import Game
from tests.games.conftest import make_player
from tests.web.phones import LANGUAGES, phone

pytestmark = pytest.mark.django_db(transaction=True)

WORDS: dict[str, dict[str, Any]] = {
    "en": {
        "game": "Game",
        "length": "Length",
        "seats": "Seats",
        "people": "People I invite",
        "computer": "The computer (starts at once)",
        "create": "Create the game",
        "one_round": "One round",
        "match": "Match to {}",
        "two": "2 players",
        "host_starts": "you start it from the lobby",
        "lobby_host": "You are the host: start the game",
        "all_wild_only": re.compile(r"Targeted Draw 2|Force Swap"),
    },
    "da": {
        "game": "Spil",
        "length": "Længde",
        "seats": "Pladser",
        "people": "Folk, jeg inviterer",
        "computer": "Computeren (starter med det samme)",
        "create": "Opret spillet",
        "one_round": "Én runde",
        "match": "Kamp til {} point",
        "two": "2 spillere",
        "host_starts": "starter du det selv fra lobbyen",
        "lobby_host": "Du er vært: start spillet",
        "all_wild_only": re.compile(r"Målrettet træk 2|Tvungen byttehånd"),
    },
}


def points(lang: str, value: int) -> str:
    text = f"{value:,}"
    return text.replace(",", ".") if lang == "da" else text


def signed_in(clients: Any, lang: str, path: str) -> tuple[Any, Page]:
    alice = make_player("alice")
    client = phone(clients, alice.user, alice.token, lang, path)
    return client, client.page


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_game_form_shows_null_and_each_says_its_length(clients: Any, lang: str) -> None:
    w = WORDS[lang]
    client, page = signed_in(clients, lang, "/games/new")
    game = page.get_by_label(w["game"], exact=True)
    expect(game).to_be_visible()
    form = page.locator("main form")
    for kind in kinds():
        rules = get_game(kind)
        game.select_option(kind)
        length = page.get_by_label(w["length"], exact=True)
        expect(length).to_have_value(str(rules.default_target))
        expect(length.locator("option:checked")).to_have_text(
            w["match"].format(points(lang, rules.default_target))
        )
        expect(length.locator("option").first).to_have_text(w["one_round"])
        for mode in (w["computer"], w["people"]):
            page.get_by_label(mode).tap()
            text = form.inner_text()
            assert not re.search(r"\bnull\b|\bundefined\b|\bNaN\b", text), (kind, mode, text)
        # An invite game: two seats unless the host asks for more, and who starts it is said.
        expect(page.get_by_label(w["seats"], exact=True)).to_have_value("2")
        expect(page.get_by_label(w["seats"], exact=True)).to_have_accessible_description(
            re.compile(w["host_starts"])
        )
        hints = " ".join(form.locator(".rule-hint").all_inner_texts())
        if kind == "uno_splash":
            assert hints and not w["all_wild_only"].search(hints), hints
        if kind == "uno_all_wild":
            assert w["all_wild_only"].search(hints), hints
    game.select_option("uno_splash")
    client.shot(f"new-game-splash-{lang}", page.get_by_label(w["length"], exact=True))
    client.axe(f"the new game screen, Splash ({lang})")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_one_round_against_the_computer_and_an_invite_game_for_two(clients: Any, lang: str) -> None:
    w = WORDS[lang]
    client, page = signed_in(clients, lang, "/games/new?vs=computer")
    sent: list[dict[str, Any]] = []
    page.on(
        "request",
        lambda r: sent.append(json.loads(r.post_data or "{}")) if r.method == "POST" else None,
    )
    page.get_by_label(w["game"], exact=True).select_option("uno_no_mercy")
    page.get_by_label(w["length"], exact=True).select_option(label=w["one_round"])
    page.get_by_role("button", name=re.compile("Start")).tap()
    expect(page).to_have_url(re.compile(r"/games/[0-9a-f-]{36}$"))
    assert sent[-1]["target_score"] == 0
    assert Game.objects.get(kind="uno_no_mercy").target_score == 0

    client.goto("/games/new")
    page.get_by_label(w["game"], exact=True).select_option("uno_splash")
    page.get_by_label(w["people"]).tap()
    page.get_by_role("button", name=w["create"]).tap()
    expect(page.get_by_text(w["lobby_host"])).to_be_visible()
    lobby = Game.objects.get(kind="uno_splash")
    assert (lobby.max_players, lobby.target_score) == (2, 500)
    client.shot(f"new-game-lobby-{lang}", page.get_by_text(w["lobby_host"]))
    client.axe(f"the lobby of a new invite game ({lang})")
