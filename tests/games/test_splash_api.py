"""Uno Splash through the HTTP API: created, joined, viewed and played to the end of a round,
a Wild Draw Four challenged with the reveal for the challenger only, house rules refused."""

from __future__ import annotations

import random
from typing import Any

from django.test import Client
from django.urls import reverse

from games.engine.registry import get_game
from games.models import Game
from moderation import replay as moderation_replay
from tests.errors import assert_error
from tests.games.conftest import (
    API,
    API_TESTS,
    Player,
    iter_pages,
    mover,
    play_to_end,
    start_game,
    strip_seat,
)
from tests.moderation.conftest import make_moderator

pytestmark = API_TESTS


def splash_action(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A random legal action; a player who could play usually does (classic UNO lets a player
    draw at any turn: random players drawing half the time would hold the deck)."""
    legal = [a for a in view["table"]["legal_actions"] if a["type"] not in ("uno", "catch")]
    plays = [a for a in legal if a["type"] in ("play", "play_drawn")]
    action = rng.choice(plays if plays and rng.random() < 0.8 else legal)
    return {**strip_seat(action), "expected_version": view["version"]}


def test_the_options_offer_uno_splash_with_its_house_rules(alice: Player) -> None:
    games = {g["kind"]: g for g in alice.get(f"{API}options/").json()["games"]}
    splash = games["uno_splash"]
    assert (splash["name"], splash["presets"], splash["default_target"]) == (
        "Uno Splash",
        ["classic"],
        500,
    )
    assert [rule["name"] for rule in splash["house_rules"]] == [
        "stacking",
        "speed_mode",
        "double_down",
        "mercy",
    ]
    # The rulings refuse blind play and Force Swap protection: a client can say so, with why.
    not_offered = {rule["name"]: rule["description"] for rule in splash["house_rules_not_offered"]}
    assert set(not_offered) == {"blind_play", "force_swap_protection"}
    assert "no Force Swap card" in not_offered["force_swap_protection"]
    assert games["uno_all_wild"]["house_rules_not_offered"] == []


def test_a_refused_house_rule_is_refused_at_creation(alice: Player) -> None:
    response = alice.create(game="uno_splash", max_players=2, options={"blind_play": True})
    assert_error(response, 400, "invalid_setup")


def test_a_splash_game_is_created_with_stacking_and_its_view_has_no_stack_yet(
    alice: Player, bob: Player
) -> None:
    game_id = start_game(alice, bob, game="uno_splash", options={"stacking": True})
    table = alice.table(game_id)["table"]
    assert table["options"]["stacking"] is True
    # The opening Draw Two cannot be stacked on: no stack is owed at the deal.
    assert table["stack"] is None and table["phase"] != "stack"


def test_a_splash_round_is_played_to_its_end_through_the_api(alice: Player, bob: Player) -> None:
    game_id = start_game(alice, bob, game="uno_splash", target_score=0)
    view = alice.table(game_id)
    table = view["table"]
    assert (view["game"], table["game"], table["preset"]) == ("uno_splash", "uno_splash", "classic")
    if table["phase"] == "choose":
        # An opening Wild: no colour until the first player names one (rulings, "colour in
        # force"); one deal in about 27 turns one up.
        assert table["colour"] is None
        assert table["pending_choice"]["reason"] == "opening"
        assert table["discard_top"]["type"] == "wild"
    else:
        assert table["colour"] in ("red", "yellow", "green", "blue")
    assert len(table["hand"]) in (7, 9) and set(table["hand"][0]) == {
        "id",
        "type",
        "colour",
        "rank",
    }
    play_to_end([alice, bob], game_id, random.Random(5), choose=splash_action, max_moves=2000)
    game = Game.objects.get(pk=game_id)
    assert game.status == Game.FINISHED
    final = alice.view(game_id).json()
    assert final["table"]["phase"] == "match_over"
    assert final["table"]["round_results"][0]["winner"] in (0, 1)


def test_an_opening_wild_waits_for_the_first_players_colour_through_the_api(
    alice: Player, bob: Player, seeded_engine: Any
) -> None:
    """The rulings' opening Wild (the first player names the colour in force), through the
    API: the table has no colour until then, only the first player may act, by naming one."""
    for seed in range(400):
        seeded_engine(seed)
        game_id = start_game(alice, bob, game="uno_splash", target_score=0)
        player, view = mover([alice, bob], game_id)
        if view["table"]["phase"] == "choose":
            break
    else:
        raise AssertionError("no deal of 400 opened with a Wild")
    table = view["table"]
    assert table["colour"] is None and table["discard_top"]["type"] == "wild"
    assert table["pending_choice"]["reason"] == "opening"
    other = bob if player is alice else alice
    assert other.table(game_id)["table"]["legal_actions"] == []
    named = {a["colour"] for a in table["legal_actions"] if a["type"] == "choose_colour"}
    assert named == {"red", "yellow", "green", "blue"}
    chosen = next(a for a in table["legal_actions"] if a.get("colour") == "green")
    response = player.act(game_id, {**strip_seat(chosen), "expected_version": view["version"]})
    assert response.status_code == 200, response.content
    assert response.json()["table"]["colour"] == "green"


def splash_for_three(alice: Player, bob: Player, carol: Player) -> tuple[list[Player], str]:
    """The three players, in seat order, and their Uno Splash match."""
    return [alice, bob, carol], start_game(alice, bob, carol, game="uno_splash")


def test_a_wild_draw_four_is_challenged_and_only_the_challenger_sees_the_hand(
    alice: Player, bob: Player, carol: Player
) -> None:
    players, game_id = splash_for_three(alice, bob, carol)
    rng = random.Random(2)
    for _ in range(3000):
        player, view = mover(players, game_id)
        if view["table"]["phase"] == "respond":
            break
        wd4 = [a for a in view["table"]["legal_actions"] if a.get("card", "").startswith("wd4")]
        action = rng.choice(wd4) if wd4 else None
        body = (
            {**strip_seat(action), "expected_version": view["version"]}
            if action
            else splash_action(view, rng)
        )
        assert player.act(game_id, body).status_code == 200
    else:  # pragma: no cover - a failure
        raise AssertionError("no Wild Draw Four was played")
    pending = view["table"]["pending_choice"]
    assert pending["reason"] == "response" and "hand" not in pending
    others = [p for p in players if p is not player]
    refused = others[0].act(game_id, {"type": "challenge", "expected_version": view["version"]})
    assert refused.status_code in (409, 422)
    play = player.act(game_id, {"type": "draw", "expected_version": view["version"]})
    assert_error(play, 422, "response_required")
    answered = player.act(game_id, {"type": "challenge", "expected_version": view["version"]})
    assert answered.status_code == 200, answered.content
    for each in players:
        moves = [m for page in iter_pages(each, game_id) for m in page["moves"]]
        (challenge,) = [e for m in moves for e in m["events"] if e["type"] == "challenge"]
        assert ("hand" in challenge) == (each is player), each.name
        assert isinstance(challenge["succeeded"], bool)


def test_the_moderators_replay_shows_the_colour_and_the_challenge(
    alice: Player, bob: Player, carol: Player
) -> None:
    # A match, not one round: the deal is the server's (random), and a round can end before a
    # Wild Draw Four is played; the next round's deal then brings one.
    players, game_id = splash_for_three(alice, bob, carol)
    rng = random.Random(4)
    challenged = None
    for _ in range(3000):
        game = Game.objects.get(pk=game_id)
        if game.status != Game.ACTIVE or (challenged is not None and game.version > challenged):
            break
        player, view = mover(players, game_id)
        legal = view["table"]["legal_actions"]
        wd4 = [a for a in legal if a.get("card", "").startswith("wd4")]
        if any(a["type"] == "challenge" for a in legal):
            body = {"type": "challenge", "expected_version": view["version"]}
        elif wd4:
            body = {**strip_seat(wd4[0]), "expected_version": view["version"]}
        else:
            body = splash_action(view, rng)
        assert player.act(game_id, body).status_code == 200
        if body["type"] == "challenge" and challenged is None:
            challenged = Game.objects.get(pk=game_id).version
    assert challenged is not None, "no Wild Draw Four was challenged"
    game = Game.objects.get(pk=game_id)
    number = next(
        m.number
        for m in game.moves.order_by("number")
        if any(e["type"] == "challenge" for e in m.events)
    )
    replayed = moderation_replay.state_after(game, number)
    rules = get_game("uno_splash")
    seen = rules.moderator_view(replayed.state)
    assert seen["colour"] in ("red", "yellow", "green", "blue")
    challenge = next(e for e in replayed.move.events if e["type"] == "challenge")
    assert "hand" in rules.visible_event(challenge, None)  # a moderator sees the revealed hand
    assert moderation_replay.state_after(game).matches_stored is True
    # The replay page: the colour in force, the Wild Draw Four waiting with the hand it was
    # played from and its legality (the move before the challenge), then the challenge itself.
    client = Client()
    client.force_login(make_moderator())
    url = reverse("admin:games_game_replay", args=[game_id])
    waiting = client.get(url, {"move": number - 1}).content.decode()
    assert 'id="colour-in-force"' in waiting
    assert 'id="pending"' in waiting and "wd4 (response), played by seat" in waiting
    assert "a challenge fails" in waiting or "a challenge succeeds" in waiting
    answered = client.get(url, {"move": number}).content.decode()
    assert "challenge target: " in answered and "hand: " in answered
    assert "succeeded: yes" in answered or "succeeded: no" in answered
