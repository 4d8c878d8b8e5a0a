"""Leaderboards and profiles through the API (docs/api.md, "Ratings")."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils import timezone

from games.models import Game
from moderation import services as moderation
from moderation.models import Block
from players.models import User
from ratings import formula
from ratings.models import Rating, RatingChange
from tests.games.conftest import API_TESTS, Player
from tests.moderation.conftest import make_moderator
from tests.ratings.changes import rating_change

pytestmark = API_TESTS

BOARD = "/api/v1/ratings/leaderboards/{}/"


def rated(
    user: User, shown: int, *, games: int = 10, days_ago: int = 0, kind: str = "uno_splash"
) -> Rating:
    return Rating.objects.create(
        user=user,
        kind=kind,
        mu=30.0,
        sigma=5.0,
        shown=shown,
        rated_games=games,
        wins=games // 2,
        places_total=games * 2,
        updated_at=timezone.now() - timedelta(days=days_ago),
    )


def others(count: int) -> list[User]:
    return User.objects.bulk_create(
        User(username=f"p{i}", display_name=f"P {i}") for i in range(count)
    )


def test_the_board_ranks_listed_players_by_rating_with_ties_sharing_a_place(
    alice: Player, bob: Player, carol: Player, dave: Player
) -> None:
    rated(alice.user, 1700)
    rated(bob.user, 1800)
    rated(carol.user, 1700)
    rated(dave.user, 1900, kind="gin_rummy")  # another game's pool
    response = alice.get(BOARD.format("uno_splash"))
    assert response.status_code == 200, response.content
    board = response.json()
    assert [(e["name"], e["place"], e["rating"]) for e in board["entries"]] == [
        ("Bob", 1, 1800),
        ("Alice", 2, 1700),
        ("Carol", 2, 1700),
    ]
    assert board["entries"][0]["provisional"] is False
    assert board["you"] == {"place": 2, "rating": 1700, "provisional": False, "rated_games": 10}


def test_the_board_leaves_out_new_idle_and_banned_players(
    alice: Player, bob: Player, carol: Player, dave: Player
) -> None:
    rated(alice.user, 1500)
    rated(bob.user, 2000, games=9)  # not yet ten rated games
    rated(carol.user, 2100, days_ago=31)  # none in the last 30 days
    rated(dave.user, 2200)
    moderator = make_moderator()
    moderation.suspend(moderator=moderator, user_id=dave.user.pk, reason="x", until=None, ban=True)
    board = alice.get(BOARD.format("uno_splash")).json()
    assert [e["name"] for e in board["entries"]] == ["Alice"]
    assert bob.get(BOARD.format("uno_splash")).json()["you"]["place"] is None
    moderation.unban(moderator=moderator, user_id=dave.user.pk, reason="appeal upheld")
    board = alice.get(BOARD.format("uno_splash")).json()
    assert [e["name"] for e in board["entries"]] == ["Dave", "Alice"]
    assert board["you"]["place"] == 2


def test_an_account_saved_whole_carries_its_standing_to_its_ratings(alice: Player) -> None:
    # The admin's change form saves every field: the copy on the rating rows follows it too.
    rated(alice.user, 1600)
    rated(alice.user, 1700, kind="gin_rummy")
    alice.user.is_active = False
    alice.user.save()
    assert list(Rating.objects.filter(user=alice.user).values_list("active", flat=True)) == [
        False,
        False,
    ]


def test_a_reader_outside_the_top_hundred_sees_their_own_place(alice: Player) -> None:
    for i, user in enumerate(others(105)):
        rated(user, 2000 + i)
    rated(alice.user, 1600)
    board = alice.get(BOARD.format("uno_splash")).json()
    assert len(board["entries"]) == 100
    assert board["entries"][0]["rating"] == 2104
    assert board["you"]["place"] == 106


def test_a_player_never_rated_is_shown_the_starting_rating(alice: Player) -> None:
    board = alice.get(BOARD.format("gin_rummy")).json()
    assert board == {
        "game": "gin_rummy",
        "entries": [],
        "you": {"place": None, "rating": 1500, "provisional": True, "rated_games": 0},
    }


def test_an_unknown_game_has_no_board(alice: Player) -> None:
    response = alice.get(BOARD.format("chess"))
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


def test_a_board_takes_three_queries_whatever_its_length(
    alice: Player, django_assert_num_queries: Any
) -> None:
    for i, user in enumerate(others(120)):
        rated(user, 1500 + i)
    rated(alice.user, 1400)
    alice.get(BOARD.format("uno_splash"))  # the token's last use is written once
    # The token (with its player), the top hundred (with theirs), the reader's row and place.
    with django_assert_num_queries(3):
        response = alice.get(BOARD.format("uno_splash"))
    assert response.status_code == 200
    assert response.json()["you"]["place"] == 121


def test_a_profile_shows_each_games_rating(alice: Player, bob: Player) -> None:
    rated(bob.user, 1650, games=12)
    Rating.objects.create(user=bob.user, kind="gin_rummy", rated_games=2, wins=2, places_total=2)
    response = alice.get(f"/api/v1/players/{bob.user.pk}/profile/")
    assert response.status_code == 200, response.content
    assert response.json() == {
        "user_id": bob.user.pk,
        "name": "Bob",
        "ratings": [
            {
                "game": "gin_rummy",
                "rating": formula.shown(formula.MU, formula.SIGMA),
                "provisional": True,
                "rated_games": 2,
                "wins": 2,
                "average_place": 1.0,
                "history": [],
            },
            {
                "game": "uno_splash",
                "rating": 1650,
                "provisional": False,
                "rated_games": 12,
                "wins": 6,
                "average_place": 2.0,
                "history": [],
            },
        ],
        "rated_games": 14,
        "wins": 8,
        "average_place": 26 / 14,
        "streak": 0,
        "recent_games": [],
    }


def test_a_profile_is_not_found_across_a_block_either_way(
    alice: Player, bob: Player, carol: Player
) -> None:
    Block.objects.create(blocker=bob.user, blocked=alice.user)
    Block.objects.create(blocker=alice.user, blocked=carol.user)
    for reader, player in ((alice, bob), (bob, alice), (alice, carol), (carol, alice)):
        response = reader.get(f"/api/v1/players/{player.user.pk}/profile/")
        assert response.status_code == 404, (reader.name, player.name)
        assert response.json()["error"]["code"] == "not_found"
    assert carol.get(f"/api/v1/players/{bob.user.pk}/profile/").status_code == 200
    assert alice.get("/api/v1/players/999999/profile/").status_code == 404
    assert alice.get(f"/api/v1/players/{2**64}/profile/").status_code == 404


def history_of(user: User, other: User, places: list[int], kind: str = "uno_splash") -> None:
    """Rated games of ``user`` against ``other``, one a minute, in these places (1 or 2)."""
    start = timezone.now() - timedelta(days=1)
    games = Game.objects.bulk_create(
        Game(kind=kind, host=user, status=Game.FINISHED, rated=True) for _ in places
    )
    shown, changes = 1500, []
    for i, (game, place) in enumerate(zip(games, places, strict=True)):
        after = shown + (10 if place == 1 else -7)
        for who, where in ((user, place), (other, 3 - place)):
            at = start + timedelta(minutes=i)
            changes.append(
                rating_change(
                    game, who, place=where, shown_before=shown, shown_after=after, created_at=at
                )
            )
        shown = after
    RatingChange.objects.bulk_create(changes)
    rated(user, shown, games=len(places), kind=kind)


def test_a_profile_shows_the_rating_history_streak_and_latest_games(
    alice: Player, bob: Player
) -> None:
    history_of(bob.user, alice.user, [1, 2, 1, 1, 1])
    history_of(bob.user, alice.user, [2], kind="gin_rummy")  # after the first splash game
    profile = alice.get(f"/api/v1/players/{bob.user.pk}/profile/").json()
    splash = next(r for r in profile["ratings"] if r["game"] == "uno_splash")
    assert [(p["rating"], p["change"]) for p in splash["history"]] == [
        (1510, 10),
        (1503, -7),
        (1513, 10),
        (1523, 10),
        (1533, 10),
    ]
    assert profile["streak"] == 3  # the last three, every game together
    recent = profile["recent_games"]
    assert [(g["game"], g["place"], g["change"]) for g in recent[:2]] == [
        ("uno_splash", 1, 10),
        ("uno_splash", 1, 10),
    ]
    assert len(recent) == 6
    assert [g["game"] for g in recent[-2:]] == ["gin_rummy", "uno_splash"]
    assert recent[0]["finished_at"] > recent[1]["finished_at"]


def test_a_profile_with_a_thousand_matches_takes_five_queries(
    alice: Player, bob: Player, django_assert_num_queries: Any
) -> None:
    history_of(bob.user, alice.user, [1, 2] * 500)
    rated(bob.user, 1550, kind="gin_rummy")
    path = f"/api/v1/players/{bob.user.pk}/profile/"
    alice.get(path)  # the token's last use is written once
    # The token, the player, the blocks between them, the history, the ratings.
    with django_assert_num_queries(5):
        response = alice.get(path)
    assert response.status_code == 200
    splash = next(r for r in response.json()["ratings"] if r["game"] == "uno_splash")
    assert len(splash["history"]) == 1000


def test_ratings_need_a_signed_in_player(anonymous: Any, bob: Player) -> None:
    assert anonymous.get(BOARD.format("uno_splash")).status_code == 401
    assert anonymous.get(f"/api/v1/players/{bob.user.pk}/profile/").status_code == 401
