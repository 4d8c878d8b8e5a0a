"""Monthly season boards through the API (docs/ratings.md, "Seasons")."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from games.models import Game
from players.models import User
from ratings import seasons
from tests.games.conftest import API_TESTS, Player
from tests.ratings.changes import rating_change

pytestmark = API_TESTS

SEASON = "/api/v1/ratings/seasons/{}/{}/"


def duel(winner: User, loser: User, at: datetime, ratings: tuple[int, int] = (1600, 1400)) -> None:
    """A rated Uno Splash duel won by ``winner`` at ``at``, leaving these shown ratings."""
    game = Game.objects.create(kind="uno_splash", host=winner, status=Game.FINISHED, rated=True)
    for user, place, shown in ((winner, 1, ratings[0]), (loser, 2, ratings[1])):
        change = rating_change(
            game, user, place=place, shown_before=1500, shown_after=shown, created_at=at
        )
        change.save()


def day(month: int, day: int, year: int = 2025) -> datetime:
    return datetime(year, month, day, 12, tzinfo=UTC)


def test_a_season_ranks_a_months_wins_then_the_rating_at_its_end(
    alice: Player, bob: Player, carol: Player, dave: Player
) -> None:
    a, b, c, d = (p.user for p in (alice, bob, carol, dave))
    duel(a, b, day(11, 2))
    duel(a, c, day(11, 3))
    duel(b, d, day(11, 4), (1650, 1400))
    duel(c, d, day(11, 5), (1550, 1400))
    duel(b, a, day(11, 30), (1700, 1650))  # bob: 2 wins, ends at 1700
    duel(c, a, day(12, 1), (1800, 1600))  # December: not in November's board
    duel(d, a, day(10, 31))  # nor October's
    response = alice.get(SEASON.format("uno_splash", "2025-11"))
    assert response.status_code == 200, response.content
    board = response.json()
    assert board["game"] == "uno_splash" and board["month"] == "2025-11"
    assert [(e["name"], e["place"], e["wins"], e["rating"]) for e in board["entries"]] == [
        ("Bob", 1, 2, 1700),
        ("Alice", 2, 2, 1650),  # alice's last game of November was her loss to bob
        ("Carol", 3, 1, 1550),
    ]
    october = alice.get(SEASON.format("uno_splash", "2025-10")).json()
    assert [(e["name"], e["wins"]) for e in october["entries"]] == [("Dave", 1)]


def test_equal_wins_and_rating_share_a_place_and_banned_players_leave(
    alice: Player, bob: Player, carol: Player, dave: Player
) -> None:
    a, b, c, d = (p.user for p in (alice, bob, carol, dave))
    duel(a, d, day(11, 2), (1600, 1400))
    duel(b, d, day(11, 3), (1600, 1400))
    duel(c, d, day(11, 4), (1650, 1400))
    entries = alice.get(SEASON.format("uno_splash", "2025-11")).json()["entries"]
    assert [(e["name"], e["place"]) for e in entries] == [("Carol", 1), ("Alice", 2), ("Bob", 2)]
    User.objects.filter(pk=c.pk).update(is_active=False)
    entries = alice.get(SEASON.format("uno_splash", "2025-11")).json()["entries"]
    assert [e["name"] for e in entries] == ["Alice", "Bob"]


def test_a_season_board_takes_two_queries(
    alice: Player, bob: Player, carol: Player, django_assert_num_queries: Any
) -> None:
    for i in range(1, 20):
        duel(bob.user if i % 2 else carol.user, alice.user, day(11, i))
    path = SEASON.format("uno_splash", "2025-11")
    alice.get(path)  # the token's last use is written once
    # The token (with its player) and the board; no query per entry.
    with django_assert_num_queries(2):
        assert alice.get(path).status_code == 200


def test_an_unknown_game_or_month_is_not_found(alice: Player) -> None:
    this_month = seasons.current_month().strftime("%Y-%m")
    assert alice.get(SEASON.format("uno_splash", this_month)).status_code == 200
    for kind, month in (
        ("chess", "2025-11"),
        ("uno_splash", "2026-13"),
        ("uno_splash", "1999-12"),
        ("uno_splash", "2026-1"),
        ("uno_splash", "november"),
        ("uno_splash", "9999-01"),
    ):
        response = alice.get(SEASON.format(kind, month))
        assert response.status_code == 404, (kind, month)
        assert response.json()["error"]["code"] == "not_found"
