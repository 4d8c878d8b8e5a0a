"""Spectators through the API: who may watch a game (the host's choice, friends, blocks), what
they see (the public view, never a hand; the game as it was N moves ago with a delay), the host
changing it, the list of public games being played, and how many watch."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from rest_framework.test import APIClient

from games import records
from games.engine import registry
from games.models import Game, Move
from live import presence
from tests.games.conftest import (
    Player,
    game_url,
    new_lobby,
    player_to_move,
    random_action,
    start_game,
)
from tests.social.conftest import SOCIAL_TESTS, befriend, block

pytestmark = SOCIAL_TESTS

PLAYING = "/api/v1/games/playing/"


def watch(player: Player, game_id: Any) -> Any:
    return player.get(game_url(game_id, "watch/"))


def watched(player: Player, game_id: Any) -> dict[str, Any]:
    response = watch(player, game_id)
    assert response.status_code == 200, response.content
    return response.json()


def refused(player: Player, game_id: Any) -> tuple[int, str]:
    response = watch(player, game_id)
    return response.status_code, response.json()["error"]["code"]


def set_spectating(player: Player, game_id: Any, **body: Any) -> Any:
    return player.client.patch(game_url(game_id, "spectating/"), body, format="json")


def play_moves(players: list[Player], game_id: str, count: int, seed: int = 1) -> None:
    rng = random.Random(seed)
    for _ in range(count):
        mover = player_to_move(players, game_id)
        response = mover.act(game_id, random_action(mover.table(game_id), rng))
        assert response.status_code == 200, response.content


def quoted(text: str) -> set[str]:
    return set(text.split('"')[1::2])


def hand_cards(game_id: Any) -> set[str]:
    """The cards of every hand and the draw pile but those every seat sees (Gin Rummy's card
    taken from the discard pile): none may reach a spectator."""
    game = Game.objects.get(pk=game_id)
    rules = registry.get_game(game.kind)
    state = rules.state_from_dict(game.state)
    hidden = {card for hand in rules.hands(state) for card in hand}
    hidden |= set(rules.piles(state).get("draw", ()))
    seats = range(len(rules.hands(state)))
    public = set.intersection(*(quoted(json.dumps(rules.view(state, seat))) for seat in seats))
    return hidden - public


@pytest.mark.parametrize("kind", ["uno_all_wild", "uno_splash", "uno_no_mercy", "gin_rummy"])
def test_anyone_signed_in_watches_a_public_game_and_sees_no_hand(
    alice: Player, bob: Player, carol: Player, kind: str
) -> None:
    game_id = start_game(alice, bob, game=kind, target_score=0)
    play_moves([alice, bob], game_id, 3)
    response = watch(carol, game_id)
    assert response.status_code == 200, response.content
    view = response.json()
    game = Game.objects.get(pk=game_id)
    assert (view["version"], view["status"], view["game"]) == (game.version, "active", kind)
    assert [p["name"] for p in view["players"]] == [
        s.user.public_name for s in game.seats.order_by("position")
    ]
    assert not {"hand", "legal_actions", "you"} & set(view["table"])
    rules = registry.get_game(kind)
    assert view["table"] == json.loads(
        json.dumps(rules.spectator_view(rules.state_from_dict(game.state)))
    )
    assert not quoted(response.content.decode()) & hand_cards(game_id)


def test_a_player_opens_their_own_game_as_a_player(alice: Player, bob: Player) -> None:
    game_id = start_game(alice, bob, target_score=0)
    assert refused(alice, game_id) == (409, "seated_not_spectator")


def test_a_lobby_has_nothing_to_watch_yet(alice: Player, carol: Player) -> None:
    lobby = new_lobby(alice, max_players=2, visibility="public")
    assert refused(carol, lobby["id"]) == (409, "game_not_started")


def test_nobody_watches_a_private_game_or_one_that_does_not_exist(
    alice: Player, bob: Player, carol: Player
) -> None:
    game_id = start_game(alice, bob, target_score=0, spectating="private")
    assert refused(carol, game_id) == (404, "not_found")
    assert refused(carol, "00000000-0000-0000-0000-000000000000") == (404, "not_found")


def test_anonymous_callers_watch_nothing(alice: Player, bob: Player) -> None:
    game_id = start_game(alice, bob, target_score=0)
    anonymous = APIClient()
    assert anonymous.get(game_url(game_id, "watch/")).status_code == 401
    assert anonymous.get(PLAYING).status_code == 401


def test_friends_only_lets_the_hosts_friends_watch(
    alice: Player, bob: Player, carol: Player, dave: Player
) -> None:
    befriend(bob, carol)  # a friend of a player, not of the host
    game_id = start_game(alice, bob, target_score=0, spectating="friends")
    assert refused(carol, game_id) == (403, "spectators_friends_only")
    befriend(alice, carol)
    assert watched(carol, game_id)["spectating"] == "friends"
    assert refused(dave, game_id) == (403, "spectators_friends_only")


@pytest.mark.parametrize("who_blocks", ["player", "spectator"])
def test_a_block_either_way_hides_the_game_and_its_listing(
    alice: Player, bob: Player, carol: Player, who_blocks: str
) -> None:
    game_id = start_game(alice, bob, target_score=0)
    assert [g["id"] for g in carol.get(PLAYING).json()] == [game_id]
    if who_blocks == "player":
        block(bob, carol)
    else:
        block(carol, bob)
    assert refused(carol, game_id) == (404, "not_found")
    assert carol.get(PLAYING).json() == []


def test_who_may_watch_defaults_by_how_the_game_was_made(alice: Player, bob: Player) -> None:
    assert new_lobby(alice)["id"]
    assert Game.objects.get().spectating == "public"
    befriend(alice, bob)
    response = alice.post("/api/v1/challenges/", {"username": "bob"})
    assert response.status_code == 201, response.content
    challenged = Game.objects.get(pk=response.json()["game_id"])
    assert challenged.spectating == "friends"
    vs_bots = alice.post("/api/v1/games/vs-computer/", {})
    assert vs_bots.status_code == 201, vs_bots.content
    assert Game.objects.get(pk=vs_bots.json()["id"]).spectating == "private"


def test_the_host_changes_who_may_watch_during_play_without_a_new_version(
    alice: Player, bob: Player, carol: Player
) -> None:
    game_id = start_game(alice, bob, target_score=0)
    version = Game.objects.get(pk=game_id).version
    response = set_spectating(alice, game_id, spectating="private", spectator_delay=3)
    assert response.status_code == 200, response.content
    game = Game.objects.get(pk=game_id)
    assert (game.spectating, game.spectator_delay, game.version) == ("private", 3, version)
    assert refused(carol, game_id) == (404, "not_found")
    assert set_spectating(bob, game_id, spectating="public").json()["error"]["code"] == "not_host"
    assert set_spectating(carol, game_id, spectating="public").status_code == 404
    bad = set_spectating(alice, game_id, spectator_delay=51)
    assert (bad.status_code, bad.json()["error"]["code"]) == (400, "invalid_request")
    assert set_spectating(alice, game_id, spectating="everyone").status_code == 400


def test_in_a_lobby_the_change_is_a_new_version(alice: Player) -> None:
    lobby = new_lobby(alice, max_players=2)
    assert set_spectating(alice, lobby["id"], spectating="friends").status_code == 200
    assert Game.objects.get(pk=lobby["id"]).version == lobby["version"] + 1


def test_an_ended_game_keeps_its_setting(alice: Player, bob: Player) -> None:
    game_id = start_game(alice, bob, target_score=0)
    Game.objects.filter(pk=game_id).update(status=Game.FINISHED)
    response = set_spectating(alice, game_id, spectating="private")
    assert (response.status_code, response.json()["error"]["code"]) == (409, "game_over")


def replayed_view(game_id: str, upto: int) -> dict[str, Any]:
    game = Game.objects.get(pk=game_id)
    rules = registry.get_game(game.kind)
    logged = list(Move.objects.filter(game=game, number__lte=upto).order_by("number"))
    seats = list(game.seats.all())
    *_, (_, state) = records.replayed(rules, records.setup_of(game, seats), logged)
    return json.loads(json.dumps(rules.spectator_view(state)))


def test_with_a_delay_spectators_see_the_game_n_moves_behind(
    alice: Player, bob: Player, carol: Player
) -> None:
    game_id = start_game(alice, bob, target_score=0, spectator_delay=2)
    start = Game.objects.get(pk=game_id).version
    # Fewer moves than the delay: the deal.
    play_moves([alice, bob], game_id, 1)
    assert watched(carol, game_id)["version"] == start
    play_moves([alice, bob], game_id, 4, seed=2)
    numbers = list(Move.objects.filter(game_id=game_id).values_list("number", flat=True))
    shown = numbers[-3]
    view = watched(carol, game_id)
    assert view["version"] == shown < Game.objects.get(pk=game_id).version
    assert view["table"] == replayed_view(game_id, shown)
    update = carol.get(game_url(game_id, "watch/stream/")).json()
    assert update["version"] == shown
    assert [m["version"] for m in update["moves"]] == [n for n in numbers if n <= shown]
    # Once the game is over nothing is held back.
    Game.objects.filter(pk=game_id).update(status=Game.FINISHED)
    assert watched(carol, game_id)["version"] == Game.objects.get(pk=game_id).version


def test_the_spectators_events_hold_no_card_of_a_hand(
    alice: Player, bob: Player, carol: Player
) -> None:
    game_id = start_game(alice, bob, target_score=0)
    rng = random.Random(7)
    for _ in range(12):
        before = hand_cards(game_id)
        mover = player_to_move([alice, bob], game_id)
        seen = mover.table(game_id)
        assert mover.act(game_id, random_action(seen, rng)).status_code == 200
        after = hand_cards(game_id)
        update = carol.get(game_url(game_id, "watch/stream/"), {"after": seen["version"]})
        moves = update.json()["moves"]
        events = json.dumps([m["events"] for m in moves])
        assert not quoted(events) & (before & after), events
        if Game.objects.get(pk=game_id).status != Game.ACTIVE:
            break


def test_the_public_games_being_played_per_kind_with_how_many_watch(
    alice: Player, bob: Player, carol: Player, dave: Player
) -> None:
    uno = start_game(alice, bob, target_score=0)
    gin = start_game(carol, dave, game="gin_rummy", target_score=0)
    start_game(alice, carol, target_score=0, spectating="friends")
    start_game(bob, dave, target_score=0, spectating="private")
    new_lobby(alice, max_players=2, visibility="public")  # not being played
    presence.mark_watching(carol.user.pk, uno, 60, "tab")
    presence.mark_watching(alice.user.pk, uno, 60, "tab")  # a player, not a spectator
    rows = dave.get(PLAYING).json()
    assert [(r["id"], r["game"], r["spectators"]) for r in rows] == [(uno, "uno_all_wild", 1)]
    assert rows[0]["players"] == ["Alice", "Bob"] or rows[0]["players"] == ["Bob", "Alice"]
    listed = alice.get(PLAYING, {"game": "gin_rummy"}).json()
    assert [(r["id"], r["game"]) for r in listed] == [(gin, "gin_rummy")]
    assert alice.get(PLAYING, {"game": "chess"}).status_code == 400
    # dave asking counts too: he is watching by asking, before his stream opens.
    assert watched(dave, uno)["spectators"] == 2
    presence.stop_watching(carol.user.pk, uno, "tab")
    assert watched(dave, uno)["spectators"] == 1


def test_the_players_read_how_many_watch_their_table(
    alice: Player, bob: Player, carol: Player, dave: Player
) -> None:
    game_id = start_game(alice, bob, target_score=0, spectating="friends")
    url = game_url(game_id, "spectators/")
    assert alice.get(url).json() == {
        "spectators": 0,
        "spectating": "friends",
        "spectator_delay": 0,
    }
    befriend(alice, carol)
    presence.mark_watching(carol.user.pk, game_id, 60, "tab")
    presence.mark_watching(bob.user.pk, game_id, 60, "tab")  # a player: not counted
    assert bob.get(url).json()["spectators"] == 1
    assert carol.get(url).json()["spectators"] == 1
    refused = dave.get(url)
    assert (refused.status_code, refused.json()["error"]["code"]) == (
        403,
        "spectators_friends_only",
    )
