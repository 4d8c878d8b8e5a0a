"""Shared setup for the games API tests: personas with bearer tokens, lobby helpers, a random
player that takes legal actions through the API, and an engine RNG the tests can seed.

The personas are alice, bob, carol and dave. Each is a ``Player``: the user, an ``APIClient``
that sends ``Authorization: Bearer <token>``, and small helpers for the routes.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from rest_framework.response import Response
from rest_framework.test import APIClient

from games.models import Game
from players.models import ApiToken, User

API = "/api/v1/games/"


# The marks every API test module here carries.
API_TESTS = [pytest.mark.django_db, pytest.mark.usefixtures("lift_throttles")]


def game_url(game_id: Any, suffix: str = "") -> str:
    return f"{API}{game_id}/{suffix}"


@dataclass
class Player:
    name: str
    user: User
    client: APIClient
    token: str

    def get(self, path: str, data: dict[str, Any] | None = None, **headers: str) -> Response:
        return self.client.get(path, data, headers=headers or None)

    def post(self, path: str, data: Any = None, **headers: str) -> Response:
        return self.client.post(path, data, format="json", headers=headers or None)

    # -- routes -----------------------------------------------------------------------------

    def create(self, **body: Any) -> Response:
        return self.post(API, body)

    def view(self, game_id: Any, **headers: str) -> Response:
        return self.get(game_url(game_id), **headers)

    def table(self, game_id: Any) -> dict[str, Any]:
        response = self.view(game_id)
        assert response.status_code == 200, response.content
        return response.json()

    def join(self, game_id: Any) -> Response:
        return self.post(game_url(game_id, "join/"))

    def join_by_code(self, code: str) -> Response:
        return self.post(f"{API}join/", {"invite_code": code})

    def leave(self, game_id: Any) -> Response:
        return self.post(game_url(game_id, "leave/"))

    def start(self, game_id: Any) -> Response:
        return self.post(game_url(game_id, "start/"))

    def act(self, game_id: Any, body: Any, **headers: str) -> Response:
        return self.post(game_url(game_id, "actions/"), body, **headers)

    def events(self, game_id: Any, **params: Any) -> Response:
        return self.get(game_url(game_id, "events/"), params)


def make_player(name: str, *, scope: str = ApiToken.SCOPE_PLAY) -> Player:
    user = User.objects.create_user(username=name, display_name=name.title())  # no password: fast
    _, raw = ApiToken.issue(user, name=f"{name}'s phone", scope=scope)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {raw}")
    return Player(name, user, client, raw)


def persona_fixture(name: str, make: Callable[[str], Player] = make_player) -> Any:
    """A fixture called ``name`` that gives the test that persona, made by ``make``."""

    def persona(db: None) -> Player:
        return make(name)

    return pytest.fixture(persona, name=name)


# ---------------------------------------------------------------------------------------------
# Lobbies and started games


def new_lobby(host: Player, **body: Any) -> dict[str, Any]:
    response = host.create(**body)
    assert response.status_code == 201, response.content
    return response.json()


def start_game(host: Player, *others: Player, **body: Any) -> str:
    """A private game for ``host`` and ``others``; it starts by itself when the last one joins."""
    body.setdefault("max_players", 1 + len(others))
    lobby = new_lobby(host, **body)
    for other in others:
        response = other.join_by_code(lobby["invite_code"])
        assert response.status_code == 200, response.content
    if body["max_players"] > 1 + len(others):
        response = host.start(lobby["id"])
        assert response.status_code == 200, response.content
    game = Game.objects.get(pk=lobby["id"])
    assert game.status == Game.ACTIVE
    return lobby["id"]


def player_to_move(players: list[Player], game_id: Any) -> Player:
    current = Game.objects.values_list("current_user_id", flat=True).get(pk=game_id)
    return next(p for p in players if p.user.pk == current)


def mover(players: list[Player], game_id: Any) -> tuple[Player, dict[str, Any]]:
    """The player to move, with their view of the game."""
    player = player_to_move(players, game_id)
    return player, player.table(game_id)


def strip_seat(action: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in action.items() if k != "seat"}


def random_action(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A random legal action from the view's table (the server sets the seat)."""
    legal = view["table"]["legal_actions"]
    assert legal, f"seat {view['your_seat']} has no legal action: {view['table']['phase']}"
    action = strip_seat(rng.choice(legal))
    options = view["table"]["options"]
    if action["type"] in ("draw", "pass", "take_stack") and (
        options.get("blind_play") or options.get("stacking")
    ):
        # Random players under blind play or stacking mostly play, as in tests/engine/playout.py:
        # drawing half the time, their hands grow and a round can go on for thousands of moves.
        plays = [a for a in legal if a["type"] not in ("draw", "pass", "take_stack")]
        if plays and rng.random() < 0.8:
            action = strip_seat(rng.choice(plays))
    choose = action.pop("choose", None)
    if choose is not None:
        # A template (double down, mercy): choose its cards and targets.
        action["cards"] = rng.sample(choose["from"], choose["count"])
        if choose.get("targets"):
            action["targets"] = [rng.choice(choose["target_from"]) for _ in range(2)]
    if action["type"] in ("play", "play_drawn", "play_pair", "play_top") and rng.random() < 0.5:
        action["uno"] = True
    return {**action, "expected_version": view["version"]}


def play_to_end(
    players: list[Player],
    game_id: Any,
    rng: random.Random,
    *,
    max_moves: int = 3000,
    after_move: Callable[[Player, dict[str, Any], Response], None] | None = None,
    choose: Callable[[dict[str, Any], random.Random], dict[str, Any]] = random_action,
) -> int:
    """Take legal actions, ``choose(view, rng)``'s (random ones by default), for whoever is to
    move until the match is over.

    Returns the number of actions applied. ``after_move(player, action, response)`` is called
    after every successful action.
    """
    by_user = {p.user.pk: p for p in players}
    last: dict[str, Any] | None = None  # the last action's response, the actor's view
    for moves in range(max_moves):
        status, version, current = Game.objects.values_list(
            "status", "version", "current_user_id"
        ).get(pk=game_id)
        if status != Game.ACTIVE:
            return moves
        player = by_user[current]
        fresh = last is not None and last["version"] == version and last["your_turn"]
        view = last if fresh and last is not None else player.table(game_id)
        action = choose(view, rng)
        response = player.act(game_id, action)
        assert response.status_code == 200, (action, response.content)
        if after_move is not None:
            after_move(player, action, response)
        last = response.json()
    raise AssertionError(f"the match did not end within {max_moves} actions")


def set_state(game_id: Any, change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    """Edit a game's stored engine state in place (test setup only) and return it."""
    game = Game.objects.get(pk=game_id)
    state = game.state
    change(state)
    Game.objects.filter(pk=game_id).update(state=state)
    return state


def give_card(game_id: Any, seat: int, card_type: str) -> str:
    """Move a card of ``card_type`` from the draw pile (or another hand) to the top of ``seat``'s
    hand, so a test can play it. Returns its id. Cards are never created: the deck stays 112."""
    chosen: dict[str, str] = {}

    def change(state: dict[str, Any]) -> None:
        if any(c.startswith(card_type + "-") for c in state["seats"][seat]["hand"]):
            chosen["id"] = next(
                c for c in state["seats"][seat]["hand"] if c.startswith(card_type + "-")
            )
            return
        for pile in [state["draw_pile"], *(s["hand"] for s in state["seats"])]:
            for card in pile:
                if card.rpartition("-")[0] == card_type:
                    pile.remove(card)
                    state["seats"][seat]["hand"].insert(0, card)
                    chosen["id"] = card
                    return
        raise AssertionError(f"no {card_type} left to give")

    set_state(game_id, change)
    return chosen["id"]


def iter_pages(player: Player, game_id: Any, *, limit: int = 50) -> Iterator[dict[str, Any]]:
    after = 0
    while True:
        response = player.events(game_id, after=after, limit=limit)
        assert response.status_code == 200, response.content
        page = response.json()
        yield page
        if not page["has_more"]:
            return
        after = page["next_after"]
