"""House rules through the API: options in the create request and the views, the new actions
at the action endpoint, and whole games played with them on."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from games.engine.uno.allwild.house_rules import HOUSE_RULES
from games.models import Game

from .conftest import (
    API_TESTS,
    Player,
    give_card,
    new_lobby,
    play_to_end,
    player_to_move,
    set_state,
    start_game,
)

pytestmark = API_TESTS

ALL_ON = {rule: True for rule in HOUSE_RULES}


def _settled(players: list[Player], game_id: str) -> Player:
    """Resolve an opening choice, if any; return the player to move (phase play)."""
    mover = player_to_move(players, game_id)
    table = mover.table(game_id)["table"]
    if table["phase"] == "choose":
        target = next(a["target"] for a in table["legal_actions"] if a["type"] == "choose_target")
        assert mover.act(game_id, {"type": "choose_target", "target": target}).status_code == 200
    return player_to_move(players, game_id)


def test_every_house_rule_can_be_switched_on_and_is_shown(alice: Player, bob: Player) -> None:
    lobby = new_lobby(alice, max_players=2, options=ALL_ON, speed_seconds=8)
    assert lobby["options"] == ALL_ON
    assert lobby["speed_seconds"] == 8
    bob.join_by_code(lobby["invite_code"])
    for player in (alice, bob):
        game = player.table(lobby["id"])
        assert game["options"] == ALL_ON
        assert game["table"]["options"] == ALL_ON


def test_the_speed_limit_is_checked_at_creation(alice: Player) -> None:
    response = alice.create(options={"speed_mode": True}, speed_seconds=2)
    assert response.status_code == 400
    assert "speed_seconds" in response.json()["error"]["details"]["fields"]
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    "options",
    [
        ALL_ON,
        {"stacking": True, "double_down": True},
        {"blind_play": True, "force_swap_protection": True},
        {"mercy": True, "double_down": True, "force_swap_protection": True},
    ],
    ids=["all", "stacking+double_down", "blind_play+protection", "mercy+double_down+protection"],
)
def test_whole_games_with_house_rules_end(
    alice: Player, bob: Player, carol: Player, options: dict[str, bool], seeded_engine: Any
) -> None:
    seeded_engine(5)
    players = [alice, bob, carol]
    game_id = start_game(alice, bob, carol, target_score=0, options=options)
    seen: set[str] = set()
    moves = play_to_end(
        players,
        game_id,
        random.Random(5),
        after_move=lambda player, action, response: seen.add(action["type"]),
    )
    assert moves > 0
    assert Game.objects.get(pk=game_id).status == Game.FINISHED
    if options.get("blind_play"):
        assert "play_top" in seen and "play" not in seen


def test_under_blind_play_the_view_hides_my_own_hand(alice: Player, bob: Player) -> None:
    game_id = start_game(alice, bob, options={"blind_play": True})
    mover = _settled([alice, bob], game_id)
    game = Game.objects.get(pk=game_id)
    for player in (alice, bob):
        seat = next(s for s in game.seats.all() if s.user_id == player.user.pk).position
        view = player.table(game_id)
        table = view["table"]
        assert table["hand"] is None and table["hand_hidden"] is True
        assert table["seats"][seat]["hand_size"] == len(game.state["seats"][seat]["hand"])
        # No card of my own hand anywhere in what I am sent.
        text = json.dumps(view)
        assert not [c for c in game.state["seats"][seat]["hand"] if f'"{c}"' in text]
    legal = {a["type"] for a in mover.table(game_id)["table"]["legal_actions"]}
    assert legal == {"play_top", "draw"}
    response = mover.act(game_id, {"type": "play", "card": "wild-1"})
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "hand_face_down"
    assert mover.act(game_id, {"type": "play_top"}).status_code == 200


def test_a_stack_is_shown_and_taken_through_the_api(alice: Player, bob: Player) -> None:
    game_id = start_game(alice, bob, options={"stacking": True})
    mover = _settled([alice, bob], game_id)
    other = bob if mover is alice else alice
    seat = Game.objects.get(pk=game_id).state["current"]
    card = give_card(game_id, seat, "draw2")
    assert mover.act(game_id, {"type": "play", "card": card}).status_code == 200
    table = other.table(game_id)["table"]
    assert table["phase"] == "stack"
    assert table["stack"] == {"total": 2, "seat": 1 - seat, "stackable": ["draw2", "draw4"]}
    assert {"type": "take_stack", "seat": 1 - seat} in table["legal_actions"]
    assert other.act(game_id, {"type": "draw"}).json()["error"]["code"] == "stack_pending"
    size = len(table["hand"])
    response = other.act(game_id, {"type": "take_stack"})
    assert response.status_code == 200, response.content
    after = response.json()["table"]
    assert after["stack"] is None and len(after["hand"]) == size + 2
    assert after["current_seat"] == seat  # with 2 players the taker loses the turn


def test_a_pair_and_mercy_through_the_api(alice: Player, bob: Player) -> None:
    game_id = start_game(alice, bob, options={"double_down": True, "mercy": True})
    mover = _settled([alice, bob], game_id)
    seat = Game.objects.get(pk=game_id).state["current"]

    def fifteen_skips(state: dict[str, Any]) -> None:
        # The opponent holds every Skip and some Wilds: 15 cards (cards moved, not made).
        other = state["seats"][1 - seat]["hand"]
        for pile in (state["draw_pile"], state["seats"][seat]["hand"]):
            for c in [c for c in pile if c.startswith("skip-")]:
                pile.remove(c)
                other.append(c)
        while len(other) < 15:
            other.append(state["draw_pile"].pop())

    set_state(game_id, fifteen_skips)

    def two_reverses(state: dict[str, Any]) -> None:
        # Two Reverses from the draw pile on top of the mover's hand: a pair to play.
        reverses = [c for c in state["draw_pile"] if c.startswith("reverse-")][:2]
        for c in reverses:
            state["draw_pile"].remove(c)
            state["seats"][seat]["hand"].insert(0, c)

    set_state(game_id, two_reverses)
    table = mover.table(game_id)["table"]
    pairs = [a for a in table["legal_actions"] if a["type"] == "play_pair"]
    assert pairs and all("choose" in a for a in pairs)
    (template,) = [p for p in pairs if p["choose"]["from"][0].startswith("reverse-")]
    cards = template["choose"]["from"][:2]
    body: dict[str, Any] = {"type": "play_pair", "cards": cards}
    if template["choose"].get("targets"):
        body["targets"] = [template["choose"]["target_from"][0]] * 2
    response = mover.act(game_id, body)
    assert response.status_code == 200, response.content
    assert response.json()["table"]["discard_pile"][0]["id"] == cards[1]

    other = bob if mover is alice else alice
    view = other.table(game_id)["table"]
    (mercy,) = [a for a in view["legal_actions"] if a["type"] == "mercy"]
    assert mercy["choose"]["count"] == 5 and len(mercy["choose"]["from"]) >= 15
    skips = [c["id"] for c in view["hand"] if c["type"] == "skip"][:5]
    response = other.act(game_id, {"type": "mercy", "cards": skips})
    assert response.status_code == 200, response.content
    after = response.json()["table"]
    assert len(after["hand"]) == len(view["hand"]) - 5
    assert [c["id"] for c in after["discard_pile"][1:6]] == skips
    again = other.act(game_id, {"type": "mercy", "cards": skips})
    assert again.status_code == 422
