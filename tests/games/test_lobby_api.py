"""Lobbies through the API: creating, listing, joining, starting, leaving, invites, expiry and
rematches."""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games import services
from games.models import Game, Move, Seat
from tests.errors import assert_error, error_of
from tests.games.conftest import API, API_TESTS, Player, game_url, new_lobby, start_game

pytestmark = API_TESTS


def pass_turn(game_id: str, players: list[Player]) -> None:
    """The player to move (after choosing an opening target, if one is owed) draws and passes,
    so the turn goes to someone else."""
    game = Game.objects.get(pk=game_id)
    mover = next(p for p in players if p.user.pk == game.current_user_id)
    view = mover.table(game_id)
    choose = [a for a in view["table"]["legal_actions"] if a["type"] == "choose_target"]
    if choose:
        body = {"type": "choose_target", "target": choose[0]["target"]}
        assert mover.act(game_id, body).status_code == 200
    assert mover.act(game_id, {"type": "draw"}).status_code == 200
    assert mover.act(game_id, {"type": "pass"}).status_code == 200
    assert Game.objects.get(pk=game_id).current_user_id != mover.user.pk


# ---------------------------------------------------------------------------------------------
# Creating


def test_a_new_game_gets_the_documented_defaults(alice: Player) -> None:
    response = alice.create()

    assert response.status_code == 201, response.content
    game = response.json()
    assert game["status"] == "lobby"
    assert game["preset"] == "standard"
    assert game["max_players"] == 4
    assert game["target_score"] == 500
    assert game["turn_seconds"] == 24 * 3600
    assert game["speed_seconds"] == 5
    assert game["visibility"] == "private"
    assert game["options"] == {
        "stacking": False,
        "speed_mode": False,
        "blind_play": False,
        "double_down": False,
        "force_swap_protection": False,
        "mercy": False,
    }
    assert game["host_id"] == alice.user.pk
    assert game["invite_code"]
    assert game["invite_expires_at"]
    assert game["table"] is None
    assert [p["user_id"] for p in game["players"]] == [alice.user.pk]
    assert game["players"][0]["you"] is True
    assert Game.objects.get(pk=game["id"]).host == alice.user


def test_a_game_is_created_with_the_settings_asked_for(alice: Player) -> None:
    game = new_lobby(
        alice,
        preset="mattel_2021",
        max_players=6,
        target_score=0,
        turn_seconds=60,
        visibility="public",
        options={"force_swap_protection": True, "speed_mode": True},
    )

    assert (game["preset"], game["max_players"], game["target_score"]) == ("mattel_2021", 6, 0)
    assert (game["turn_seconds"], game["visibility"]) == (60, "public")
    assert game["options"]["force_swap_protection"] is True
    assert game["options"]["speed_mode"] is True
    assert game["options"]["stacking"] is False


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"max_players": 1}, "max_players"),
        ({"max_players": 11}, "max_players"),
        ({"max_players": "four"}, "max_players"),
        ({"target_score": -1}, "target_score"),
        ({"turn_seconds": 10}, "turn_seconds"),
        ({"turn_seconds": 15 * 24 * 3600}, "turn_seconds"),
        ({"preset": "uno_classic"}, "preset"),
        ({"visibility": "secret"}, "visibility"),
        ({"options": "all of them"}, "options"),
        ({"options": {"stacking": "maybe"}}, "options"),
    ],
)
def test_invalid_settings_are_refused_with_invalid_request_and_the_field(
    alice: Player, body: dict[str, Any], field: str
) -> None:
    error = assert_error(alice.create(**body), 400, "invalid_request")

    assert field in error["details"]["fields"], error
    assert not Game.objects.exists()


@pytest.mark.parametrize("rule", ["stacking", "blind_play", "double_down", "mercy"])
def test_each_house_rule_can_be_chosen_alone(alice: Player, rule: str) -> None:
    game = new_lobby(alice, options={rule: True})

    assert [name for name, on in game["options"].items() if on] == [rule]


def test_an_unknown_house_rule_is_refused_with_invalid_setup(alice: Player) -> None:
    response = alice.create(options={"seven_o": True})

    assert_error(response, 400, "invalid_setup")
    assert not Game.objects.exists()


# ---------------------------------------------------------------------------------------------
# Listing


def to_move(game_id: str, player: Player, players: list[Player]) -> None:
    """Pass turns until ``player`` is to move."""
    while Game.objects.get(pk=game_id).current_user_id != player.user.pk:
        pass_turn(game_id, players)


def test_my_games_list_the_games_waiting_for_my_move_first(
    alice: Player, bob: Player, carol: Player
) -> None:
    lobby = new_lobby(alice)["id"]
    first = start_game(alice, bob)
    second = start_game(alice, bob)
    third = start_game(alice, bob)
    to_move(first, bob, [alice, bob])
    to_move(second, alice, [alice, bob])
    to_move(third, bob, [alice, bob])
    new_lobby(carol)  # not alice's

    games = alice.get(API).json()

    assert [g["id"] for g in games][:1] == [second]
    assert {g["id"] for g in games[1:]} == {lobby, first, third}
    assert [g["your_turn"] for g in games] == [True, False, False, False]
    bob_games = bob.get(API).json()
    assert {g["id"] for g in bob_games[:2]} == {first, third}
    assert [g["your_turn"] for g in bob_games] == [True, True, False]


def test_my_games_list_the_others_newest_first(alice: Player, bob: Player) -> None:
    older = start_game(alice, bob)
    newer = start_game(alice, bob)
    to_move(older, bob, [alice, bob])
    to_move(newer, bob, [alice, bob])
    # The newer game's deadline is now later than the older game's.
    to_move(newer, alice, [alice, bob])
    to_move(newer, bob, [alice, bob])
    deadlines = dict(Game.objects.values_list("pk", "turn_deadline"))
    assert deadlines[uuid.UUID(older)] < deadlines[uuid.UUID(newer)]
    lobby = new_lobby(alice)["id"]

    games = alice.get(API).json()

    assert [g["id"] for g in games] == [lobby, newer, older]


def test_my_games_can_be_filtered_by_status_and_by_my_turn(alice: Player, bob: Player) -> None:
    lobby = new_lobby(alice)["id"]
    active = start_game(alice, bob)
    if Game.objects.get(pk=active).current_user_id != alice.user.pk:
        pass_turn(active, [alice, bob])

    def ids(**params: str) -> list[str]:
        response = alice.get(API, params)
        assert response.status_code == 200, response.content
        return [g["id"] for g in response.json()]

    assert ids(status="lobby") == [lobby]
    assert ids(status="active") == [active]
    assert ids(status="finished") == []
    assert ids(my_turn="true") == [active]
    assert ids(my_turn="false") == [lobby]
    assert ids(status="lobby", my_turn="true") == []
    assert_error(alice.get(API, {"status": "sleeping"}), 400, "invalid_request")


def test_the_open_games_list_shows_public_lobbies_without_their_invite_codes(
    alice: Player, bob: Player, carol: Player, dave: Player
) -> None:
    public = new_lobby(alice, visibility="public")["id"]
    new_lobby(bob)  # private
    started = new_lobby(carol, visibility="public", max_players=2)["id"]
    assert dave.join(started).status_code == 200  # full: it starts, so it is no longer open

    games = dave.get(f"{API}open/").json()

    assert [g["id"] for g in games] == [public]
    assert games[0]["invite_code"] is None
    assert games[0]["your_seat"] is None
    own = alice.get(f"{API}open/").json()
    assert own[0]["invite_code"] == Game.objects.get(pk=public).invite_code


# ---------------------------------------------------------------------------------------------
# Joining


def test_anyone_may_join_a_public_lobby_by_its_id(alice: Player, bob: Player) -> None:
    game_id = new_lobby(alice, visibility="public")["id"]

    response = bob.join(game_id)

    assert response.status_code == 200, response.content
    game = response.json()
    assert game["status"] == "lobby"
    assert game["version"] == 1
    assert {p["user_id"] for p in game["players"]} == {alice.user.pk, bob.user.pk}
    assert game["invite_code"]  # bob now holds a seat: he may invite others
    assert bob.view(game_id).status_code == 200


def test_a_private_lobby_is_invisible_to_strangers_by_id(alice: Player, bob: Player) -> None:
    game_id = new_lobby(alice)["id"]

    assert_error(bob.view(game_id), 404, "not_found")
    assert_error(bob.join(game_id), 404, "not_found")
    assert_error(bob.events(game_id), 404, "not_found")
    assert Seat.objects.filter(game_id=game_id).count() == 1


def test_a_private_lobby_is_joined_with_its_invite_code(alice: Player, bob: Player) -> None:
    lobby = new_lobby(alice)

    response = bob.join_by_code(lobby["invite_code"])

    assert response.status_code == 200, response.content
    assert response.json()["id"] == lobby["id"]
    assert Seat.objects.filter(game_id=lobby["id"], user=bob.user).exists()


def test_an_expired_invite_is_refused_with_410(alice: Player, bob: Player) -> None:
    lobby = new_lobby(alice)
    Game.objects.filter(pk=lobby["id"]).update(
        invite_expires_at=timezone.now() - timedelta(minutes=1)
    )

    assert_error(bob.join_by_code(lobby["invite_code"]), 410, "invite_expired")
    assert not Seat.objects.filter(user=bob.user).exists()


@pytest.mark.parametrize("full", [False, True], ids=["started-by-the-host", "full"])
def test_joining_a_started_game_by_its_invite_is_409_game_already_started(
    alice: Player, bob: Player, carol: Player, full: bool
) -> None:
    """Not 410 invite_expired: that tells the player to ask for a new code, and a started game
    has none to give."""
    lobby = new_lobby(alice, max_players=2 if full else 3)
    assert bob.join_by_code(lobby["invite_code"]).status_code == 200
    if not full:
        assert alice.start(lobby["id"]).status_code == 200
    assert Game.objects.get(pk=lobby["id"]).status == Game.ACTIVE

    assert_error(carol.join_by_code(lobby["invite_code"]), 409, "game_already_started")
    assert not Seat.objects.filter(user=carol.user).exists()


def test_an_unknown_invite_code_is_refused_with_404(bob: Player) -> None:
    assert_error(bob.join_by_code("no-such-code"), 404, "invalid_invite")


def test_an_invite_request_without_a_code_is_invalid(bob: Player) -> None:
    error = assert_error(bob.post(f"{API}join/", {}), 400, "invalid_request")
    assert "invite_code" in error["details"]["fields"]


def test_joining_a_full_game_is_refused_with_game_full(
    alice: Player, bob: Player, carol: Player
) -> None:
    game_id = new_lobby(alice, visibility="public", max_players=2)["id"]
    assert bob.join(game_id).status_code == 200

    assert_error(carol.join(game_id), 409, "game_full")


def test_joining_a_full_game_is_refused_with_409(alice: Player, bob: Player, carol: Player) -> None:
    lobby = new_lobby(alice, visibility="public", max_players=2)
    assert bob.join(lobby["id"]).status_code == 200

    response = carol.join(lobby["id"])

    assert response.status_code == 409, response.content
    assert Seat.objects.filter(game_id=lobby["id"]).count() == 2


def test_joining_twice_is_refused_with_already_joined(alice: Player, bob: Player) -> None:
    public = new_lobby(alice, visibility="public")["id"]
    private = new_lobby(alice)
    assert bob.join(public).status_code == 200
    assert bob.join_by_code(private["invite_code"]).status_code == 200

    assert_error(bob.join(public), 409, "already_joined")
    assert_error(bob.join_by_code(private["invite_code"]), 409, "already_joined")
    assert_error(alice.join(public), 409, "already_joined")
    assert Seat.objects.filter(user=bob.user).count() == 2


# ---------------------------------------------------------------------------------------------
# Starting


def test_only_the_host_may_start_the_game(alice: Player, bob: Player) -> None:
    game_id = new_lobby(alice, visibility="public")["id"]
    assert bob.join(game_id).status_code == 200

    assert_error(bob.start(game_id), 403, "not_host")
    assert Game.objects.get(pk=game_id).status == Game.LOBBY

    response = alice.start(game_id)
    assert response.status_code == 200, response.content
    assert response.json()["status"] == "active"
    assert response.json()["table"]["round"] == 1


def test_a_game_cannot_start_with_one_player(alice: Player) -> None:
    game_id = new_lobby(alice)["id"]

    assert_error(alice.start(game_id), 409, "not_enough_players")
    assert Game.objects.get(pk=game_id).status == Game.LOBBY


def test_a_started_game_cannot_be_started_again(alice: Player, bob: Player) -> None:
    game_id = start_game(alice, bob)

    assert_error(alice.start(game_id), 409, "game_already_started")


def test_a_game_starts_by_itself_when_the_last_seat_is_taken(
    alice: Player, bob: Player, carol: Player
) -> None:
    lobby = new_lobby(alice, max_players=3)
    assert bob.join_by_code(lobby["invite_code"]).json()["status"] == "lobby"

    response = carol.join_by_code(lobby["invite_code"])

    assert response.status_code == 200, response.content
    game = response.json()
    assert game["status"] == "active"
    assert game["started_at"]
    assert game["invite_code"] is None  # the invite dies with the lobby
    assert game["table"]["you"] == game["your_seat"]
    assert len(game["table"]["hand"]) == game["table"]["seats"][game["your_seat"]]["hand_size"]
    assert Move.objects.filter(game_id=lobby["id"]).count() == 1
    db_game = Game.objects.get(pk=lobby["id"])
    assert db_game.current_user_id in {alice.user.pk, bob.user.pk, carol.user.pk}
    assert db_game.turn_deadline is not None


def test_the_seat_order_is_shuffled_when_the_game_starts(
    everyone: list[Player], seeded_engine: Any
) -> None:
    orders = []
    for seed in range(5):
        seeded_engine(seed)
        game_id = start_game(*everyone)
        positions = dict(Seat.objects.filter(game_id=game_id).values_list("user_id", "position"))
        assert sorted(positions.values()) == [0, 1, 2, 3]
        orders.append(tuple(positions[p.user.pk] for p in everyone))
        for player in everyone:
            view = player.table(game_id)
            assert view["your_seat"] == positions[player.user.pk]
            assert view["table"]["you"] == view["your_seat"]

    assert len(set(orders)) > 1, "the seats always follow the join order"


# ---------------------------------------------------------------------------------------------
# Leaving a lobby


def test_when_the_host_leaves_a_lobby_the_longest_waiting_player_hosts(
    alice: Player, bob: Player, carol: Player
) -> None:
    lobby = new_lobby(alice)
    assert bob.join_by_code(lobby["invite_code"]).status_code == 200
    assert carol.join_by_code(lobby["invite_code"]).status_code == 200

    response = alice.leave(lobby["id"])

    assert response.status_code == 200, response.content
    game = Game.objects.get(pk=lobby["id"])
    assert game.status == Game.LOBBY
    assert game.host == bob.user
    assert not Seat.objects.filter(game=game, user=alice.user).exists()
    assert_error(alice.view(lobby["id"]), 404, "not_found")
    assert_error(carol.start(lobby["id"]), 403, "not_host")
    assert bob.start(lobby["id"]).status_code == 200


def test_a_player_who_leaves_a_lobby_may_come_back(alice: Player, bob: Player) -> None:
    lobby = new_lobby(alice)
    assert bob.join_by_code(lobby["invite_code"]).status_code == 200

    assert bob.leave(lobby["id"]).status_code == 200
    assert Game.objects.get(pk=lobby["id"]).host == alice.user
    assert bob.join_by_code(lobby["invite_code"]).status_code == 200


def test_a_lobby_expires_when_its_last_player_leaves(alice: Player, bob: Player) -> None:
    lobby = new_lobby(alice, visibility="public")

    assert alice.leave(lobby["id"]).status_code == 200

    game = Game.objects.get(pk=lobby["id"])
    assert game.status == Game.EXPIRED
    assert game.finished_at is not None
    assert bob.get(f"{API}open/").json() == []
    assert_error(bob.join(lobby["id"]), 409, "game_already_started")


def test_a_stranger_cannot_leave_a_lobby(alice: Player, bob: Player) -> None:
    game_id = new_lobby(alice, visibility="public")["id"]

    assert_error(bob.leave(game_id), 404, "not_found")


# ---------------------------------------------------------------------------------------------
# Invites


def test_the_host_may_renew_the_invite_and_the_old_code_stops_working(
    alice: Player, bob: Player, carol: Player
) -> None:
    lobby = new_lobby(alice)
    old = lobby["invite_code"]

    response = alice.post(game_url(lobby["id"], "invite/"))

    assert response.status_code == 200, response.content
    new = response.json()["invite_code"]
    assert new and new != old
    assert response.json()["version"] == lobby["version"] + 1
    assert_error(bob.join_by_code(old), 404, "invalid_invite")
    assert carol.join_by_code(new).status_code == 200


def test_a_renewed_invite_is_valid_again_after_it_expired(alice: Player, bob: Player) -> None:
    lobby = new_lobby(alice)
    Game.objects.filter(pk=lobby["id"]).update(invite_expires_at=timezone.now())

    new = alice.post(game_url(lobby["id"], "invite/")).json()["invite_code"]

    assert bob.join_by_code(new).status_code == 200


def test_only_the_host_may_renew_the_invite_and_only_before_the_start(
    alice: Player, bob: Player, carol: Player
) -> None:
    lobby = new_lobby(alice, max_players=3)
    assert bob.join_by_code(lobby["invite_code"]).status_code == 200

    assert_error(bob.post(game_url(lobby["id"], "invite/")), 403, "not_host")
    assert_error(carol.post(game_url(lobby["id"], "invite/")), 404, "not_found")
    assert alice.start(lobby["id"]).status_code == 200
    assert_error(alice.post(game_url(lobby["id"], "invite/")), 409, "game_already_started")


# ---------------------------------------------------------------------------------------------
# Expiry


def test_lobbies_that_never_started_expire(alice: Player, bob: Player, carol: Player) -> None:
    old = new_lobby(alice, visibility="public")["id"]
    active = start_game(bob, carol)
    later = timezone.now() + timedelta(days=30)
    fresh = new_lobby(carol, visibility="public")["id"]
    Game.objects.filter(pk=fresh).update(lobby_expires_at=later + timedelta(days=1))

    closed = services.expire_lobbies(now=later)

    assert closed == 1
    game = Game.objects.get(pk=old)
    assert game.status == Game.EXPIRED
    assert game.finished_at == later
    assert Game.objects.get(pk=active).status == Game.ACTIVE
    assert Game.objects.get(pk=fresh).status == Game.LOBBY
    assert [g["id"] for g in bob.get(f"{API}open/").json()] == [fresh]
    assert_error(bob.join(old), 409, "game_already_started")
    assert alice.get(API, {"status": "expired"}).json()[0]["id"] == old
    assert services.expire_lobbies(now=later) == 0


def test_an_expired_lobby_cannot_be_joined_by_invite_or_started(alice: Player, bob: Player) -> None:
    lobby = new_lobby(alice)
    services.expire_lobbies(now=timezone.now() + timedelta(days=30))

    response = bob.join_by_code(lobby["invite_code"])
    assert response.status_code == 409, response.content
    assert error_of(response)["code"] == "game_already_started"
    assert_error(alice.start(lobby["id"]), 409, "game_already_started")


def test_an_expired_lobby_does_not_answer_304_to_the_etag_of_the_open_lobby(
    alice: Player,
) -> None:
    lobby = new_lobby(alice)
    etag = alice.view(lobby["id"])["ETag"]

    services.expire_lobbies(now=timezone.now() + timedelta(days=30))
    response = alice.view(lobby["id"], **{"If-None-Match": etag})

    assert response.status_code == 200
    assert response.json()["status"] == "expired"


# ---------------------------------------------------------------------------------------------
# Rematch


def finished_game(*players: Player) -> str:
    """A game the first player won because everyone else left."""
    game_id = start_game(*players)
    for player in players[1:]:
        assert player.leave(game_id).status_code == 200
    assert Game.objects.get(pk=game_id).status == Game.FINISHED
    return game_id


def test_a_rematch_opens_a_lobby_the_other_players_may_join_by_id(
    alice: Player, bob: Player, carol: Player, dave: Player
) -> None:
    old = finished_game(alice, bob, carol)

    response = alice.post(game_url(old, "rematch/"))

    assert response.status_code == 200, response.content
    rematch = response.json()
    assert rematch["id"] != old
    assert rematch["status"] == "lobby"
    assert rematch["rematch_of"] == old
    assert rematch["host_id"] == alice.user.pk
    assert rematch["visibility"] == "private"
    assert rematch["max_players"] == 3
    assert rematch["target_score"] == 500
    # The same request again returns the same lobby, not a second one.
    again = alice.post(game_url(old, "rematch/"))
    assert again.status_code == 200
    assert again.json()["id"] == rematch["id"]
    assert Game.objects.filter(rematch_of_id=old).count() == 1
    # Players of the old game join by id; strangers cannot.
    assert bob.join(rematch["id"]).status_code == 200
    assert_error(dave.join(rematch["id"]), 404, "not_found")
    # Carol asks for a rematch too: she takes the last seat of the same lobby, which starts.
    response = carol.post(game_url(old, "rematch/"))
    assert response.status_code == 200, response.content
    assert response.json()["id"] == rematch["id"]
    assert response.json()["status"] == "active"
    assert Game.objects.filter(rematch_of_id=old).count() == 1


def test_a_rematch_needs_a_finished_game_of_yours(
    alice: Player, bob: Player, carol: Player
) -> None:
    active = start_game(alice, bob)
    finished = finished_game(alice, bob)

    assert_error(alice.post(game_url(active, "rematch/")), 409, "game_not_finished")
    assert_error(carol.post(game_url(finished, "rematch/")), 404, "not_found")
