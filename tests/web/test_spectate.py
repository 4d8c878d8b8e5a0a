"""Spectator mode (issue 34) in Chromium on a 390×844 phone, in English and Danish: carol finds
alice and bob's game among the public games being played, watches it (the players, their hand
sizes, never a card of a hand), sees a move arrive on its own, and alice's table shows that one
player watches. axe-core finds nothing serious on either page."""

from __future__ import annotations

import os
import random
import re
import shutil
from pathlib import Path

import pytest
from playwright.sync_api import expect

from games import services
from games.engine import registry
from games.models import Game
from tests.games.conftest import Player, make_player
from tests.web.conftest import ROOT
from tests.web.screenshots import OUT_ENV
from tests.web.test_lobby import SIZE

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("lift_throttles"),
]

WORDS = {
    "en": {"locale": "en-GB", "watch": "Watch", "one": "1 watching", "move": "1 move seen"},
    "da": {"locale": "da-DK", "watch": "Se med", "one": "1 ser med", "move": "1 træk set"},
}


def hand_cards(game_id: str) -> set[str]:
    game = Game.objects.get(pk=game_id)
    rules = registry.get_game(game.kind)
    return {c for hand in rules.hands(rules.state_from_dict(game.state)) for c in hand}


def one_move(game_id: str, players: list[Player]) -> None:
    """A legal move of the seat to move, through the service (a draw when it may)."""
    game = Game.objects.get(pk=game_id)
    mover = next(p for p in players if p.user.pk == game.current_user_id)
    rules = registry.get_game(game.kind)
    state = rules.state_from_dict(game.state)
    seat = game.seats.get(user=mover.user).position
    legal = [rules.action_to_dict(a) for a in rules.legal_actions(state, seat)]
    action = next((a for a in legal if a["type"] == "draw"), random.Random(1).choice(legal))
    action.pop("seat", None)
    services.act(user=mover.user, game_id=game_id, action=action, expected_version=None)


def test_a_spectator_finds_a_game_watches_it_live_and_the_table_counts_them(
    clients: object, transactional_db: None, lang: str
) -> None:
    words = WORDS[lang]
    alice, bob, carol = (make_player(name) for name in ("alice", "bob", "carol"))
    for player in (alice, bob, carol):
        player.user.language = lang
        player.user.save(update_fields=["language"])
    lobby = services.create_game(host=alice.user, max_players=2, target_score=0)
    services.join_game(user=bob.user, invite_code=lobby.invite_code)
    game_id = str(lobby.pk)

    watching = clients("carol", locale=words["locale"], **SIZE)  # type: ignore[operator]
    watching.sign_in_with_token(carol.token, "/watch")
    page = watching.page
    row = page.locator(".watch-row")
    expect(row).to_contain_text("Alice")
    watching.axe(f"games to watch ({lang})")
    watching.shot(f"watch-list-{lang}", row)
    row.get_by_role("link", name=words["watch"]).click()
    expect(page).to_have_url(re.compile(rf"/games/{game_id}/watch$"))
    seats = page.locator(".watch-seat")
    expect(seats).to_have_count(2)
    expect(page.locator(".watch-screen")).to_contain_text(words["one"])  # carol herself
    text = page.locator("main").inner_text()
    shown = set(re.findall(r"[\w-]+", text))
    assert not shown & hand_cards(game_id), "a card of a hand reached the spectator"

    one_move(game_id, [alice, bob])
    expect(page.locator(".watch-screen")).to_contain_text(words["move"])
    watching.axe(f"spectator mode ({lang})")
    watching.shot(f"watch-game-{lang}", seats.first)
    for width in (390, 360):
        page.set_viewport_size({"width": width, "height": 740})
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width

    playing = clients("alice", locale=words["locale"], **SIZE)  # type: ignore[operator]
    playing.sign_in_with_token(alice.token, f"/games/{game_id}")
    expect(playing.page.locator(".spectators")).to_have_text(words["one"])
    # docs/screenshots' copies are retaken on request only (tests/web/screenshots.py's
    # SCREENSHOTS_OUT), so a test run never changes tracked files.
    if out := os.environ.get(OUT_ENV):
        for name in (f"watch-list-{lang}", f"watch-game-{lang}"):
            shutil.copy(ROOT / "test-artifacts" / "web" / f"{name}.png", Path(out) / f"{name}.png")
