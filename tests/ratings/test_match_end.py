"""A rated match's end changes its players' ratings exactly once (docs/ratings.md)."""

from __future__ import annotations

import random
from typing import Any

from django.db import IntegrityError, transaction

from games.models import Game, Seat
from ratings import formula, services
from ratings.models import Rating, RatingChange
from tests.games.conftest import (
    API_TESTS,
    Player,
    give_card,
    play_to_end,
    set_state,
    start_game,
)

pytestmark = API_TESTS


def test_a_rated_match_played_to_its_end_rates_every_player_by_place(
    alice: Player, bob: Player, carol: Player, seeded_engine: Any
) -> None:
    seeded_engine(3)
    game_id = start_game(alice, bob, carol, game="uno_all_wild", target_score=0)
    assert Rating.objects.filter(kind="uno_all_wild").count() == 3  # made at the start

    play_to_end([alice, bob, carol], game_id, random.Random(3))

    seats = {s.user_id: s for s in Seat.objects.filter(game_id=game_id)}
    changes = {c.user_id: c for c in RatingChange.objects.filter(game_id=game_id)}
    assert set(changes) == set(seats)
    winner = next(user for user, seat in seats.items() if seat.place == 1)
    assert changes[winner].shown_after > changes[winner].shown_before == 1500
    for user, change in changes.items():
        assert change.place == seats[user].place
        assert seats[user].rating_change == change.delta
        rating = Rating.objects.get(user_id=user, kind="uno_all_wild")
        assert (rating.mu, rating.sigma) == (change.mu_after, change.sigma_after)
        assert rating.shown == formula.shown(change.mu_after, change.sigma_after)
        assert rating.rated_games == 1
        assert rating.wins == (user == winner)
        assert rating.places_total == change.place
    # Everyone at the table sees each player's change at the end ("+14").
    view = alice.table(game_id)
    assert {p["user_id"]: p["rating_change"] for p in view["players"]} == {
        user: change.delta for user, change in changes.items()
    }


def test_an_unrated_match_changes_no_rating(alice: Player, bob: Player) -> None:
    game_id = start_game(alice, bob, game="gin_rummy", rated=False)
    assert bob.leave(game_id).status_code == 200
    assert Game.objects.get(pk=game_id).status == Game.FINISHED
    assert not RatingChange.objects.exists()
    assert not Rating.objects.exists()
    assert all(p["rating_change"] is None for p in alice.table(game_id)["players"])


def test_a_player_who_leaves_is_placed_last_and_loses_rating(
    alice: Player, bob: Player, carol: Player
) -> None:
    game_id = start_game(alice, bob, carol, game="uno_splash")
    assert bob.leave(game_id).status_code == 200  # first to leave: last place
    assert carol.leave(game_id).status_code == 200  # alice is left alone and wins
    places = {s.user_id: s.place for s in Seat.objects.filter(game_id=game_id)}
    assert places == {alice.user.pk: 1, carol.user.pk: 2, bob.user.pk: 3}
    changes = {c.user_id: c for c in RatingChange.objects.filter(game_id=game_id)}
    assert changes[alice.user.pk].delta > 0 > changes[bob.user.pk].delta
    assert changes[bob.user.pk].mu_after < changes[carol.user.pk].mu_after


def test_a_seat_a_bot_kept_after_timeouts_is_placed_below_those_who_finished(
    alice: Player, bob: Player, carol: Player
) -> None:
    game_id = start_game(alice, bob, carol, game="uno_splash")
    game = Game.objects.get(pk=game_id)
    Seat.objects.filter(game=game, user=alice.user).update(
        bot_level="basic", taken_over_at=game.started_at
    )
    assert bob.leave(game_id).status_code == 200
    # Alice's seat (a bot's now) and carol remain; carol leaves last, so the bot "wins".
    assert carol.leave(game_id).status_code == 200
    places = {s.user_id: s.place for s in Seat.objects.filter(game_id=game_id)}
    # Every seat gave up: carol left last, alice's seat was handed over before bob left.
    assert places[carol.user.pk] == 1
    assert places[bob.user.pk] < places[alice.user.pk] == 3


def one_card_left(game_id: str, players: list[Player]) -> tuple[Player, str]:
    """The player to move holds one plain Wild (the rest of the hand back under the draw pile):
    playing it ends a one-round All Wild match (one whose opening card asks no choice: seed the
    engine). Returns the player and the card."""
    mover = next(p for p in players if p.user.pk == Game.objects.get(pk=game_id).current_user_id)
    seat = mover.table(game_id)["your_seat"]
    card = give_card(game_id, seat, "wild")

    def keep_one(state: dict[str, Any]) -> None:
        hand = state["seats"][seat]["hand"]
        state["draw_pile"] += [c for c in hand if c != card]
        state["seats"][seat]["hand"] = [card]

    set_state(game_id, keep_one)
    return mover, card


def test_a_retried_final_move_and_a_repeated_rating_apply_once(
    alice: Player, bob: Player, seeded_engine: Any
) -> None:
    seeded_engine(4)  # an opening card that asks nobody to choose
    game_id = start_game(alice, bob, game="uno_all_wild", target_score=0)
    mover, card = one_card_left(game_id, [alice, bob])
    key = {"Idempotency-Key": "the-last-card"}
    first = mover.act(game_id, {"type": "play", "card": card}, **key)
    assert first.status_code == 200, first.content
    assert first.json()["status"] == "finished"
    before = list(Rating.objects.order_by("user_id").values_list("mu", "sigma", "rated_games"))
    assert [games for _, _, games in before] == [1, 1]
    # The same request again (a client that never saw the answer): the answer, replayed.
    again = mover.act(game_id, {"type": "play", "card": card}, **key)
    assert again.status_code == 200 and again.content == first.content
    assert mover.act(game_id, {"type": "play", "card": card}).status_code == 409
    # A repeated task or command: the match is rated already, so nothing happens.
    assert services.rate_game(game_id=game_id) is False
    # And a second rating of the same match cannot be written at all.
    game = Game.objects.get(pk=game_id)
    standings = [(alice.user.pk, 1), (bob.user.pk, 2)]
    try:
        with transaction.atomic():
            services.rate_match(game=game, standings=standings)
    except IntegrityError:
        pass
    else:
        raise AssertionError("a second rating of the match was written")
    assert RatingChange.objects.filter(game_id=game_id).count() == 2
    after = list(Rating.objects.order_by("user_id").values_list("mu", "sigma", "rated_games"))
    assert after == before


def test_rating_a_finished_game_that_was_not_rated_applies_once(alice: Player, bob: Player) -> None:
    game_id = start_game(alice, bob, game="gin_rummy")
    assert bob.leave(game_id).status_code == 200
    RatingChange.objects.all().delete()
    Rating.objects.all().delete()  # as if it finished before ratings existed
    assert services.rate_game(game_id=game_id) is True
    assert services.rate_game(game_id=game_id) is False
    assert Rating.objects.get(user=alice.user).rated_games == 1
    assert Seat.objects.get(game_id=game_id, user=alice.user).rating_change > 0


def test_a_rated_games_record_lists_its_rating_changes(
    alice: Player, bob: Player, seeded_engine: Any
) -> None:
    seeded_engine(5)
    game_id = start_game(alice, bob, game="uno_all_wild", target_score=0)
    play_to_end([alice, bob], game_id, random.Random(5))

    response = alice.get(f"/api/v1/games/{game_id}/record/")
    assert response.status_code == 200, response.content
    seats = {s.user_id: s.position for s in Seat.objects.filter(game_id=game_id)}
    assert sorted(response.json()["rating_changes"], key=lambda c: c["user_id"]) == [
        {
            "seat": seats[change.user_id],
            "user_id": change.user_id,
            "rating_before": change.shown_before,
            "rating_after": change.shown_after,
            "change": change.delta,
        }
        for change in RatingChange.objects.filter(game_id=game_id).order_by("user_id")
    ]
