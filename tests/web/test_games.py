"""More than one game: the new game screen offers the games GET games/options/ lists, and a game
whose kind this client has no renderer for is shown by the fallback renderer, never as a blank
page (web/static/web/games/, docs/web-client.md, "Renderers").

The tests add a made-up game to the server's answer with ``page.route``, and turn a real All
Wild game into an unknown kind the same way, so they hold before and after the server learns
more games. Phone size 390 x 844; each screen is asserted,
screenshotted and checked by axe-core."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import Page, Route, expect

from games import services
from games.engine.registry import get_game, kinds
from players.models import ApiToken, User
from tests.web.conftest import PHONE, load_scenario

pytestmark = pytest.mark.django_db(transaction=True)

# The answers changed with page.route never reach a page through its service worker, which keeps
# the games list and each game's view for offline use (it fetches those itself): these tests
# of changed answers run without it, as Playwright advises for routing.
PHONE_390: dict[str, Any] = {
    **PHONE,
    "viewport": {"width": 390, "height": 844},
    "service_workers": "block",
}
FAKE_ID = "0f0e0d0c-0b0a-4908-8706-050403020100"

# A second game, as the server will list it next to All Wild.
TOY = {
    "kind": "toy_race",
    "name": "Toy Race",
    "presets": ["quick", "long"],
    "default_preset": "quick",
    "house_rules": [{"name": "double_time", "description": "Every move counts twice."}],
    "min_players": 2,
    "max_players": 3,
    "default_target": 50,
}


def signed_in(clients: Any, name: str, path: str, **options: Any) -> tuple[Any, Page]:
    user = User.objects.create_user(username=name, display_name=name)
    _, token = ApiToken.issue(user, name="test", scope=ApiToken.SCOPE_PLAY)
    client = clients(name, **{**PHONE_390, **options})
    client.sign_in_with_token(token, path)
    return client, client.page


def with_toy_game(route: Route) -> None:
    """GET games/options/ as the server answers it, with the toy game listed after All Wild."""
    response = route.fetch()
    data = response.json()
    all_wild = {
        "kind": "uno_all_wild",
        "name": "Uno All Wild",
        "presets": data["presets"],
        "default_preset": data["default_preset"],
        "house_rules": data["house_rules"],
        "min_players": data["max_players"]["min"],
        "max_players": data["max_players"]["max"],
        "default_target": data["target_score"]["default"],
    }
    games = data.get("games") or [all_wild]
    data["games"] = [g for g in games if g["kind"] != TOY["kind"]] + [TOY]
    route.fulfill(response=response, json=data)


def options_of(select: Any) -> list[str]:
    texts: list[str] = select.locator("option").all_inner_texts()
    return texts


def test_new_game_offers_each_game_of_the_options_endpoint(clients: Any) -> None:
    host, page = signed_in(clients, "hostg", "/login")
    page.route("**/api/v1/games/options/", with_toy_game)
    created: list[dict[str, Any]] = []

    def create(route: Route) -> None:
        if route.request.method != "POST":
            route.continue_()
            return
        created.append(json.loads(route.request.post_data or "{}"))
        route.fulfill(status=201, json=TOY_LOBBY)

    page.route("**/api/v1/games/", create)
    page.route(f"**/api/v1/games/{FAKE_ID}/", lambda route: route.fulfill(json=TOY_LOBBY))
    host.goto("/games/new")
    expect(page.get_by_role("heading", name="New game")).to_be_visible()

    # The games, by name; All Wild first, chosen, with its own rules and house rules.
    game = page.get_by_label("Game", exact=True)
    expect(game).to_be_visible()
    served = [get_game(kind).name for kind in kinds()]
    assert served[0] == "Uno All Wild"
    assert options_of(game) == [*served, "Toy Race"]
    expect(game).to_have_value("uno_all_wild")
    expect(page.get_by_role("checkbox", name="Stacking")).to_be_visible()
    expect(page.get_by_label("Rules", exact=True)).to_have_value("standard")
    assert len(options_of(page.get_by_label("Seats"))) == 9  # 2 to 10 players

    # The toy game: its presets, player counts, house rule (with the server's words) and target.
    game.select_option("toy_race")
    expect(page.get_by_role("checkbox", name="Stacking")).to_have_count(0)
    rule = page.get_by_role("checkbox", name="Double time")
    expect(rule).to_be_visible()
    expect(rule).to_have_accessible_description("Every move counts twice.")
    preset = page.get_by_label("Rules", exact=True)
    assert options_of(preset) == ["Quick", "Long"]
    expect(preset).to_have_value("quick")
    assert options_of(page.get_by_label("Seats")) == ["2 players", "3 players"]
    expect(page.get_by_label("Length", exact=True)).to_have_value("50")
    expect(game).to_have_accessible_description(re.compile("cannot show this game's table yet"))
    page.get_by_label("The computer (starts at once)").check()
    assert options_of(page.get_by_label("Bots", exact=True)) == ["1 bot", "2 bots"]
    page.get_by_label("People I invite").check()

    preset.select_option("long")
    page.get_by_label("Seats").select_option("3")
    rule.check()
    host.shot("games-new-game-toy", game, rule, preset)
    host.axe("the new game screen with two games")

    # Back to All Wild and to the toy again: each time the chosen game's fields.
    game.select_option("uno_all_wild")
    expect(page.get_by_role("checkbox", name="Stacking")).to_be_visible()
    expect(page.get_by_label("Length", exact=True)).to_have_value("500")
    game.select_option("toy_race")
    preset.select_option("long")
    page.get_by_label("Seats").select_option("3")
    page.get_by_role("checkbox", name="Double time").check()
    page.get_by_role("button", name="Create the game").click()

    # The request names the game; the lobby says which game it is, by the server's name.
    expect(page.get_by_role("heading", name="Game lobby")).to_be_visible()
    assert len(created) == 1
    body = created[0]
    assert body["game"] == "toy_race"
    assert body["preset"] == "long"
    assert body["max_players"] == 3
    assert body["target_score"] == 50
    assert body["options"] == {"double_time": True}
    expect(page.locator("main p.muted").first).to_contain_text("Toy Race")
    host.shot("games-toy-lobby", page.get_by_role("heading", name="Game lobby"))
    host.axe("the lobby of a game this client cannot draw")


TOY_LOBBY: dict[str, Any] = {
    "id": FAKE_ID,
    "game": "toy_race",
    "status": "lobby",
    "version": 0,
    "preset": "long",
    "options": {"double_time": True},
    "max_players": 3,
    "target_score": 50,
    "turn_seconds": 86400,
    "speed_seconds": 5,
    "visibility": "private",
    "host_id": 1,
    "created_at": "2026-12-01T20:00:00Z",
    "started_at": None,
    "finished_at": None,
    "turn_deadline": None,
    "your_turn": False,
    "your_seat": 0,
    "invite_code": "TOYTOY",
    "invite_expires_at": None,
    "rematch_of": None,
    "players": [
        {
            "seat": 0,
            "seat_id": 1,
            "user_id": 1,
            "name": "hostg",
            "left": False,
            "you": True,
            "final_score": None,
            "place": None,
            "bot_level": None,
            "taken_over": False,
        }
    ],
    "table": None,
}


def all_wild_only(with_list: bool) -> Any:
    """GET games/options/ as a server with one game answers it: today's, without a `games`
    list, or one that lists only All Wild."""

    def handle(route: Route) -> None:
        response = route.fetch()
        data = response.json()
        games = [g for g in data.pop("games", []) if g["kind"] == "uno_all_wild"]
        if with_list:
            data["games"] = games or [
                {"kind": "uno_all_wild", "name": "Uno All Wild", "presets": data["presets"]}
            ]
        route.fulfill(response=response, json=data)

    return handle


@pytest.mark.parametrize("with_list", [False, True], ids=["no-games-list", "all-wild-listed"])
def test_one_game_needs_no_choice_and_sends_no_kind(clients: Any, with_list: bool) -> None:
    """A server with one game (today's, or one listing only All Wild): no game picker, and the
    request is the All Wild request it always was, without `game`."""
    host, page = signed_in(clients, f"hostone{int(with_list)}", "/login")
    page.route("**/api/v1/games/options/", all_wild_only(with_list))
    host.goto("/games/new")
    expect(page.get_by_role("heading", name="New game")).to_be_visible()
    expect(page.get_by_role("checkbox", name="Stacking")).to_be_visible()
    expect(page.get_by_label("Game", exact=True)).to_have_count(0)
    sent: list[dict[str, Any]] = []
    page.on(
        "request",
        lambda r: (
            sent.append(json.loads(r.post_data or "{}"))
            if r.method == "POST" and r.url.endswith("/api/v1/games/")
            else None
        ),
    )
    page.get_by_label("Seats").select_option("2")
    host.shot(f"games-new-game-one-{with_list}", page.get_by_label("Rules", exact=True))
    host.axe("the new game screen with one game")
    page.get_by_role("button", name="Create the game").click()
    expect(page.get_by_role("heading", name="Game lobby")).to_be_visible()
    assert sent and "game" not in sent[0]
    assert sent[0]["preset"] == "standard"


def unknown_kind(kind: str) -> Any:
    """The game's view as the server answers it, but of a kind this client cannot draw."""

    def handle(route: Route) -> None:
        response = route.fetch()
        if response.status != 200:
            route.fulfill(response=response)
            return
        data = response.json()
        data["game"] = kind
        if data.get("table"):
            data["table"]["game"] = kind
        route.fulfill(response=response, json=data)

    return handle


@pytest.mark.parametrize("locale", ["en-GB", "da-DK"])
def test_a_game_of_an_unknown_kind_gets_the_fallback_renderer(clients: Any, locale: str) -> None:
    game = load_scenario("two_players.json")
    players = {p["name"]: p for p in game["players"]}
    danish = locale == "da-DK"
    if danish:
        User.objects.filter(username=players["bob"]["username"]).update(language="da")
    bob = clients(f"bob-{locale}", locale=locale, **PHONE_390)
    page = bob.page
    page.route(f"**/api/v1/games/{game['game_id']}/", unknown_kind("toy_race"))
    bob.sign_in_with_token(players["bob"]["token"], f"/games/{game['game_id']}")

    # The message, the game's name, the players with their scores, whose turn it is.
    expect(page.get_by_role("heading", name="Toy race")).to_be_visible()
    message = (
        "Dette spil understøttes endnu ikke af denne klient."
        if danish
        else "This game is not supported by this client yet."
    )
    expect(page.get_by_text(message)).to_be_visible()
    table = page.locator("table.scores")
    expect(table.locator("tbody tr")).to_have_count(2)
    alice_row = table.locator("tbody tr", has_text="alice")
    expect(alice_row).to_contain_text("har turen" if danish else "to move")
    expect(alice_row.locator("td").first).to_have_text("0")
    status = page.locator(".unsupported-turn")
    expect(status).to_have_text("Venter på alice." if danish else "Waiting for alice.")
    # Nothing of All Wild's table is drawn.
    expect(page.locator(".hand")).to_have_count(0)
    expect(page.locator(".draw-pile")).to_have_count(0)
    bob.shot(f"games-unknown-kind-{locale}", status, table)
    bob.axe(f"the fallback renderer ({locale})")

    # It stays live: Alice moves on the server, Bob's page says it is his turn.
    alice = User.objects.get(username=players["alice"]["username"])
    services.act(
        user=alice,
        game_id=game["game_id"],
        action={"type": "play", "card": "wild-1"},
        expected_version=None,
    )
    expect(status).to_have_text("Det er din tur." if danish else "It is your turn.")
    bob_row = table.locator("tbody tr", has_text="bob")
    expect(bob_row).to_contain_text("har turen" if danish else "to move")
    # The log's frame works; the leave button is there.
    page.locator("details.log summary").click()
    expect(page.locator("details.log")).to_be_visible()
    leave = "Forlad spillet" if danish else "Leave this game"
    expect(page.get_by_role("button", name=leave)).to_be_visible()
    bob.shot(f"games-unknown-kind-live-{locale}", status)
    bob.axe(f"the fallback renderer after a move ({locale})")


def test_the_round_dialog_is_told_by_the_games_renderer(clients: Any) -> None:
    """At the end of a round the shared dialog shows the round; All Wild's renderer shows the
    other hands with what they cost and this round's points (tests/web/positions/round_end.json:
    a match to 500; issue 35, item 3)."""
    game = load_scenario("round_end.json")
    players = {p["name"]: p for p in game["players"]}
    alice = clients("alice-round", **PHONE_390)
    page = alice.page
    alice.sign_in_with_token(players["alice"]["token"], f"/games/{game['game_id']}")
    page.locator(".hand button.card", has_text="Wild").first.click()
    dialog = page.locator("dialog[open]")
    expect(dialog.get_by_role("heading", name="Round 1 is over")).to_be_visible()
    # Opened at its title, which has the keyboard, not scrolled down to its button.
    expect(dialog.locator("#round-title")).to_be_focused()
    assert dialog.evaluate("d => d.scrollTop") == 0
    banner = dialog.locator(".result-banner")
    expect(banner).to_have_text(re.compile(r"^Round 1: alice won (\d+) points\.$"))
    points = re.sub(r"\D", "", banner.inner_text().split("won")[1])
    hands = dialog.locator(".round-hands li")
    expect(hands).to_have_count(1)
    expect(hands.first.locator(".round-hand-who")).to_have_text("bob: 3 cards left")
    expect(hands.first.locator(".round-hand-points")).to_have_text(f"worth {points} points")
    expect(hands.first.locator(".card[role=img]")).to_have_count(3)
    scores = dialog.locator("table.scores")
    expect(scores.locator("thead")).to_contain_text("This round")
    row = scores.locator("tbody tr", has_text="alice")
    expect(row.locator("td").first).to_have_text(f"+{points}")
    expect(row.locator("td").last).to_have_text(points)
    alice.shot("games-round-dialog", dialog)
    alice.axe("the round dialog")
    dialog.get_by_role("button", name="On to the next round").click()
    expect(page.locator("dialog[open]")).to_have_count(0)
    expect(page.locator(".table-head .round")).to_have_text("Round 2")
