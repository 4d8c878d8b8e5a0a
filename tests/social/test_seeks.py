"""Quick pairing: seeks matched by shown rating (the window widening with the wait), never with
oneself or across a block, within the cap on games in progress; withdrawn, expired, listed."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import override_settings
from django.utils import timezone

from games.models import Game, Seat
from ratings.models import Rating
from social import pairing
from social.models import Seek
from tests.games.conftest import make_player
from tests.social.conftest import SOCIAL_TESTS, Player, block

pytestmark = SOCIAL_TESTS

GAME = "uno_splash"


def seek(player: Player, **body: Any) -> Any:
    return player.post("/api/v1/seeks/", {"game": GAME, "seats": 2, **body})


def rate(player: Player, shown: int) -> None:
    Rating.objects.create(user=player.user, kind=GAME, shown=shown)


def age(response: Any, minutes: int) -> None:
    """Make a seek as old as if it had waited ``minutes``."""
    Seek.objects.filter(pk=response.json()["id"]).update(
        created_at=timezone.now() - timedelta(minutes=minutes)
    )


def test_two_compatible_seeks_start_a_game_with_both_seated(alice: Player, bob: Player) -> None:
    first = seek(alice)
    assert first.status_code == 201, first.content
    assert first.json()["status"] == "open"
    second = seek(bob)
    assert second.status_code == 201, second.content
    body = second.json()
    assert body["status"] == "matched"
    game = Game.objects.get(pk=body["game_id"])
    assert game.status == Game.ACTIVE and game.kind == GAME and game.visibility == Game.PRIVATE
    assert {s.user_id for s in Seat.objects.filter(game=game)} == {alice.user.pk, bob.user.pk}
    mine = alice.get("/api/v1/seeks/").json()
    assert [(s["status"], s["game_id"]) for s in mine] == [("matched", body["game_id"])]


def test_seeks_of_other_pools_are_not_matched(alice: Player, bob: Player, carol: Player) -> None:
    seek(alice)
    assert seek(bob, seats=3).json()["status"] == "open"
    assert seek(carol, rated=False).json()["status"] == "open"
    assert seek(carol, game="gin_rummy").json()["status"] == "open"
    assert Seek.objects.filter(status=Seek.OPEN).count() == 4


def test_a_player_is_never_matched_with_themselves(alice: Player) -> None:
    seek(alice)
    again = seek(alice)
    assert again.status_code == 409
    assert again.json()["error"]["code"] == "already_seeking"
    assert seek(alice, seats=3).json()["status"] == "open"  # another pool: still not themselves
    assert not Game.objects.exists()


def test_blocked_players_are_never_matched(alice: Player, bob: Player, carol: Player) -> None:
    block(bob, alice)
    seek(alice)
    assert seek(bob).json()["status"] == "open"
    assert pairing.pair_waiting() == 0
    assert seek(carol).json()["status"] == "matched"  # carol takes alice's seek
    assert Seek.objects.get(user=bob.user).status == Seek.OPEN


def test_a_group_of_three_leaves_out_a_pair_blocked_between_candidates(
    alice: Player, bob: Player, carol: Player
) -> None:
    dave = make_player("dave")
    block(bob, carol)
    seek(alice, seats=3)
    seek(bob, seats=3)
    assert seek(carol, seats=3).json()["status"] == "open"
    matched = seek(dave, seats=3).json()
    assert matched["status"] == "matched"
    seated = set(Seat.objects.filter(game_id=matched["game_id"]).values_list("user_id", flat=True))
    assert dave.user.pk in seated and len(seated) == 3
    assert not {bob.user.pk, carol.user.pk} <= seated


def test_ratings_far_apart_wait_until_the_window_has_widened(alice: Player, bob: Player) -> None:
    rate(alice, 1500)
    rate(bob, 1800)  # 300 apart: beyond a new seek's 150
    first = seek(alice)
    second = seek(bob)
    assert second.json()["status"] == "open"
    age(first, 60)
    assert pairing.pair_waiting() == 0  # the shorter wait counts: bob has only just come
    age(second, 15)  # 150 + 3 steps of 50 = 300
    assert pairing.pair_waiting() == 1
    assert Seek.objects.filter(status=Seek.MATCHED).count() == 2


def test_a_players_own_rating_range_is_a_hard_limit(alice: Player, bob: Player) -> None:
    rate(alice, 1500)
    rate(bob, 1560)
    first = seek(alice, max_rating=1550)
    assert seek(bob).json()["status"] == "open"
    age(first, 600)
    assert pairing.pair_waiting() == 0


def test_the_nearest_rating_is_matched_first(alice: Player, bob: Player, carol: Player) -> None:
    rate(alice, 1500)
    rate(bob, 1700)
    rate(carol, 1590)  # in reach of both, nearer alice
    seek(alice)
    assert seek(bob).json()["status"] == "open"
    matched = seek(carol).json()
    seated = set(Seat.objects.filter(game_id=matched["game_id"]).values_list("user_id", flat=True))
    assert seated == {alice.user.pk, carol.user.pk}


@override_settings(GAMES_IN_PROGRESS_MAX=1)
def test_a_player_at_the_cap_is_not_matched(alice: Player, bob: Player, carol: Player) -> None:
    seek(alice)
    alice.create(game=GAME)  # alice's one game in progress
    assert seek(bob).json()["status"] == "open"
    refused = seek(alice, seats=3)
    assert refused.status_code == 409
    assert refused.json()["error"]["code"] == "too_many_games"
    assert seek(carol).json()["status"] == "matched"  # bob, not alice
    assert Seek.objects.get(user=alice.user).status == Seek.OPEN


def test_a_withdrawn_seek_is_not_matched(alice: Player, bob: Player) -> None:
    posted = seek(alice).json()
    assert alice.client.delete(f"/api/v1/seeks/{posted['id']}/").status_code == 204
    again = alice.client.delete(f"/api/v1/seeks/{posted['id']}/")
    assert again.status_code == 409 and again.json()["error"]["code"] == "seek_closed"
    assert seek(bob).json()["status"] == "open"
    assert bob.client.delete(f"/api/v1/seeks/{posted['id']}/").status_code == 404


def test_expired_seeks_close_and_are_not_matched(alice: Player, bob: Player) -> None:
    posted = seek(alice).json()
    Seek.objects.filter(pk=posted["id"]).update(expires_at=timezone.now())
    assert seek(bob).json()["status"] == "open"
    assert pairing.expire_seeks() == 1
    assert pairing.expire_seeks() == 0
    assert Seek.objects.get(pk=posted["id"]).status == Seek.EXPIRED


def test_rated_seeks_refuse_house_rules(alice: Player) -> None:
    refused = seek(alice, rated=True, options={"stacking": True})
    assert refused.status_code == 400
    assert refused.json()["error"]["code"] == "rated_not_allowed"
    assert seek(alice, seats=11).status_code == 400
    assert seek(alice, game="gin_rummy", seats=3).json()["error"]["code"] == "invalid_setup"
    assert seek(alice, unknown=1).json()["error"]["code"] == "unknown_field"


def test_the_lobby_lists_public_games_and_others_seeks(
    alice: Player, bob: Player, carol: Player
) -> None:
    rate(alice, 1640)
    alice.create(game=GAME, visibility="public", max_players=3)
    carol.create(game=GAME, visibility="public")
    block(carol, bob)
    seek(alice, seats=4)
    lobby = bob.get("/api/v1/lobby/", {"game": GAME}).json()
    assert [(g["host"], g["host_rating"], g["players"], g["seats"]) for g in lobby["games"]] == [
        ("Alice", 1640, 1, 3)
    ]
    assert [(s["player"]["username"], s["rating"], s["seats"]) for s in lobby["seeks"]] == [
        ("alice", 1640, 4)
    ]
    assert alice.get("/api/v1/lobby/").json()["seeks"] == []  # not one's own
    assert bob.get("/api/v1/lobby/", {"game": "chess"}).status_code == 400


def test_the_lobby_costs_the_same_queries_whatever_its_length(
    alice: Player, bob: Player, django_assert_num_queries: Any
) -> None:
    for kind in (GAME, "gin_rummy"):
        alice.create(game=kind, visibility="public", max_players=2)
    seek(alice, seats=3)
    bob.get("/api/v1/lobby/")  # warm the session and token caches
    from social import lobby

    with django_assert_num_queries(7):  # blocks, games, seats, 2 kinds' ratings, blocks, seeks
        lobby.open_games(user=bob.user)
        lobby.others_seeks(user=bob.user)


@pytest.mark.parametrize("minutes,reach", [(0, 150), (4, 150), (5, 200), (60, 600)])
def test_the_window_widens_with_the_wait(minutes: int, reach: int) -> None:
    assert pairing.window(timedelta(minutes=minutes)) == reach


def test_seeks_that_refuse_a_rating_do_not_crowd_out_one_that_takes_it(
    alice: Player, bob: Player
) -> None:
    for i in range(pairing.CANDIDATES + 5):  # nearer in rating and older, but refusing alice
        seek(make_player(f"picky{i}"), min_rating=3000)
    seek(bob)  # a new player's rating, as alice's
    assert seek(alice).json()["status"] == "matched"
    assert Seek.objects.get(user=bob.user).status == Seek.MATCHED
