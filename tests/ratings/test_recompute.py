"""``manage.py recompute_ratings`` and voids (docs/ratings.md, "Voids and recomputing"): a
recompute gives back exactly what the match ends wrote, and a void leaves exactly what the match
ends would have written without the voided match."""

from __future__ import annotations

from io import StringIO
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from games import services as game_services
from games.models import Game, Seat
from players.models import User
from ratings import formula, recompute, services
from ratings.models import Rating, RatingChange, VoidedMatch

pytestmark = pytest.mark.django_db

NAMES = ("alice", "bob", "carol", "dave")


@pytest.fixture
def people() -> dict[str, User]:
    return {
        name: User.objects.create_user(username=name, password=f"pw-{name}-123") for name in NAMES
    }


def rated_match(kind: str, players: list[User]) -> Game:
    """A rated match of ``players``, played to its end through the services: everyone but the
    first leaves, the last listed first (so the places are the order listed)."""
    host, *others = players
    game = game_services.create_game(host=host, kind=kind, max_players=len(players))
    for user in others:
        game_services.join_game(user=user, invite_code=game.invite_code)
    game.refresh_from_db()
    assert game.status == Game.ACTIVE and game.rated
    for user in reversed(others):
        game_services.leave_game(user=user, game_id=game.pk)
    game.refresh_from_db()
    assert game.status == Game.FINISHED
    return game


def play_history(people: dict[str, User]) -> list[tuple[Game, list[User]]]:
    """Duels and three- and four-player matches, in two games' pools, in a fixed order."""
    a, b, c, d = (people[name] for name in NAMES)
    tables = [
        ("gin_rummy", [a, b]),
        ("uno_splash", [c, a, b]),
        ("gin_rummy", [c, d]),
        ("gin_rummy", [b, c]),
        ("uno_splash", [d, c, b, a]),
        ("gin_rummy", [a, d]),
        ("gin_rummy", [b, a]),
        ("uno_splash", [a, b, d]),
        ("gin_rummy", [d, b]),
    ]
    return [(rated_match(kind, players), players) for kind, players in tables]


def snapshot() -> tuple[list[Any], list[Any], list[Any]]:
    changes = RatingChange.objects.order_by("id").values_list(
        "game_id",
        "user_id",
        "place",
        "mu_before",
        "sigma_before",
        "mu_after",
        "sigma_after",
        "shown_before",
        "shown_after",
    )
    ratings = Rating.objects.order_by("kind", "user_id").values_list(
        "kind", "user_id", "mu", "sigma", "shown", "rated_games", "wins", "places_total"
    )
    seats = Seat.objects.order_by("id").values_list("id", "rating_change")
    return list(changes), list(ratings), list(seats)


def expected_ratings(history: list[tuple[Game, list[User]]]) -> dict[tuple[str, int], Any]:
    """The ratings the match ends would write for ``history``, computed from the formula alone:
    every match in order, each player's rating from their last."""
    belief: dict[tuple[str, int], tuple[float, float]] = {}
    totals: dict[tuple[str, int], list[int]] = {}
    for game, players in history:
        keys = [(game.kind, user.pk) for user in players]
        before = [belief.get(key, (formula.MU, formula.SIGMA)) for key in keys]
        places = list(range(1, len(players) + 1))
        for key, after, place in zip(keys, formula.rate(before, places), places, strict=True):
            belief[key] = after
            games, wins, total = totals.get(key, [0, 0, 0])
            totals[key] = [games + 1, wins + (place == 1), total + place]
    return {
        key: (mu, sigma, formula.shown(mu, sigma), *totals[key])
        for key, (mu, sigma) in belief.items()
    }


def stored_ratings() -> dict[tuple[str, int], Any]:
    return {
        (r.kind, r.user_id): (r.mu, r.sigma, r.shown, r.rated_games, r.wins, r.places_total)
        for r in Rating.objects.all()
    }


def test_the_match_ends_write_what_the_formula_gives_in_order(people: dict[str, User]) -> None:
    history = play_history(people)
    assert stored_ratings() == expected_ratings(history)


def test_recompute_gives_back_exactly_what_the_match_ends_wrote(people: dict[str, User]) -> None:
    play_history(people)
    online = snapshot()
    out = StringIO()
    call_command("recompute_ratings", stdout=out)
    assert snapshot() == online
    assert "gin_rummy: 6 matches rated again, 0 rating changes differed, 4 players" in (
        out.getvalue()
    )
    assert "uno_splash: 3 matches rated again, 0 rating changes differed" in out.getvalue()


def test_recompute_repairs_every_number_from_the_history(people: dict[str, User]) -> None:
    play_history(people)
    online = snapshot()
    RatingChange.objects.filter(kind="gin_rummy").update(mu_after=1.0, shown_after=0)
    Rating.objects.update(mu=99.0, sigma=1.0, shown=9999, rated_games=77, wins=0)
    Seat.objects.filter(game__kind="gin_rummy").update(rating_change=500)
    done = recompute.recompute(kinds=["gin_rummy", "uno_splash"])
    assert done["gin_rummy"].changed == RatingChange.objects.filter(kind="gin_rummy").count()
    assert snapshot() == online
    # Run again: idempotent.
    again = recompute.recompute(kinds=["gin_rummy", "uno_splash"])
    assert again["gin_rummy"].changed == again["uno_splash"].changed == 0
    assert snapshot() == online


def test_voiding_a_match_equals_never_having_rated_it(people: dict[str, User]) -> None:
    history = play_history(people)
    voided, _ = history[3]  # bob beat carol at Gin Rummy, early on
    untouched = list(RatingChange.objects.filter(game=history[5][0]).values_list())
    game, done = recompute.void_match(game_id=voided.pk)
    assert game.pk == voided.pk
    assert not RatingChange.objects.filter(game=voided).exists()
    assert VoidedMatch.objects.filter(game=voided).exists()
    assert set(Seat.objects.filter(game=voided).values_list("rating_change", flat=True)) == {None}
    # The later Gin Rummy matches of bob or carol, and of those who played them since, were
    # rated again (bob-alice, dave-bob); alice-dave came before alice met bob: it stands.
    assert done.matches == 2
    assert list(RatingChange.objects.filter(game=history[5][0]).values_list()) == untouched
    assert stored_ratings() == expected_ratings(
        [entry for entry in history if entry[0].pk != voided.pk]
    )
    # Each seat shows its recomputed change.
    for change in RatingChange.objects.all():
        seat = Seat.objects.get(game_id=change.game_id, user_id=change.user_id)
        assert seat.rating_change == change.delta
    # And a full recompute from every rated match left agrees to the last bit.
    after_void = snapshot()
    recomputed = recompute.recompute(kinds=["gin_rummy", "uno_splash"])
    assert recomputed["gin_rummy"].changed == 0
    assert snapshot() == after_void


def test_a_voided_players_only_match_leaves_them_at_the_start(people: dict[str, User]) -> None:
    game = rated_match("gin_rummy", [people["alice"], people["bob"]])
    recompute.void_match(game_id=game.pk)
    rating = Rating.objects.get(user=people["alice"], kind="gin_rummy")
    assert (rating.mu, rating.sigma, rating.rated_games, rating.wins) == (
        formula.MU,
        formula.SIGMA,
        0,
        0,
    )
    assert rating.shown == 1500 and rating.places_total == 0
    # Nothing rates it again: not a repeated task, not a full recompute.
    assert services.rate_game(game_id=game.pk) is False
    recompute.recompute(kinds=["gin_rummy"])
    assert not RatingChange.objects.exists()
    assert Rating.objects.get(user=people["alice"], kind="gin_rummy").rated_games == 0


def test_a_void_is_refused_twice_and_for_an_unrated_or_unfinished_game(
    people: dict[str, User],
) -> None:
    alice, bob = people["alice"], people["bob"]
    game = rated_match("gin_rummy", [alice, bob])
    recompute.void_match(game_id=game.pk)
    with pytest.raises(recompute.ServiceError) as again:
        recompute.void_match(game_id=game.pk)
    assert again.value.code == "already_voided"
    running = game_services.create_game(host=alice, kind="gin_rummy", max_players=2)
    with pytest.raises(recompute.ServiceError) as unfinished:
        recompute.void_match(game_id=running.pk)
    assert unfinished.value.code == "not_rated"
    unrated = game_services.create_game(host=alice, kind="gin_rummy", max_players=2, rated=False)
    game_services.join_game(user=bob, invite_code=unrated.invite_code)
    game_services.leave_game(user=bob, game_id=unrated.pk)
    with pytest.raises(recompute.ServiceError) as not_rated:
        recompute.void_match(game_id=unrated.pk)
    assert not_rated.value.code == "not_rated"


def test_the_command_refuses_an_unknown_game() -> None:
    with pytest.raises(CommandError, match="unknown game kind: chess"):
        call_command("recompute_ratings", "--game", "chess")
