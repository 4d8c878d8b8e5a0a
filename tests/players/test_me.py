"""My account: profile, statistics, deletion and the GDPR export."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from games import services as game_services
from games.models import Game, Move, Seat
from players.models import ApiToken, User
from tests.errors import error_code
from tests.players.conftest import PASSWORD

ME = "/api/v1/me/"
TokenFor = Callable[..., tuple[ApiToken, APIClient]]


def played_game(
    results: list[tuple[User | None, int, int]], *, status: str = Game.FINISHED
) -> Game:
    """A game with one seat per (user, final score, place), seated in that order."""
    game = Game.objects.create(host=results[0][0], status=status, started_at=timezone.now())
    finished = status == Game.FINISHED
    for position, (user, score, place) in enumerate(results):
        Seat.objects.create(
            game=game,
            user=user,
            position=position,
            final_score=score if finished else None,
            place=place if finished else None,
        )
    return game


# --- profile --------------------------------------------------------------------------------


@pytest.mark.django_db
def test_i_can_read_my_profile(alice: User, alice_api: APIClient) -> None:
    assert alice_api.get(ME).json() == {
        "id": alice.pk,
        "username": "alice",
        "email": "alice@example.com",
        "email_verified": False,
        "display_name": "Alice",
        "time_zone": "UTC",
        "language": "en",
        "date_joined": alice.date_joined.isoformat().replace("+00:00", "Z"),
        "bot": False,
    }


@pytest.mark.django_db
def test_the_profile_needs_authentication(client: APIClient) -> None:
    response = client.get(ME)
    assert response.status_code == 401
    assert response["WWW-Authenticate"].startswith("Bearer")


@pytest.mark.django_db
def test_i_cannot_name_myself_as_a_bot(alice: User, alice_api: APIClient) -> None:
    alice.display_name = "Alice"
    alice.save(update_fields=["display_name"])
    response = alice_api.patch(ME, {"display_name": "Alice (bot)"}, format="json")
    assert response.status_code == 400, response.content
    assert error_code(response) == "name_marks_a_bot"
    alice.refresh_from_db()
    assert alice.display_name == "Alice"


@pytest.mark.django_db
def test_i_can_change_display_name_time_zone_and_language(
    alice: User, alice_api: APIClient
) -> None:
    response = alice_api.patch(
        ME,
        {"display_name": "Queen of Wilds", "time_zone": "America/Sao_Paulo", "language": "da"},
        format="json",
    )
    assert response.status_code == 200
    alice.refresh_from_db()
    assert (alice.display_name, alice.time_zone, alice.language) == (
        "Queen of Wilds",
        "America/Sao_Paulo",
        "da",
    )


@pytest.mark.django_db
def test_the_username_cannot_change(alice: User, alice_api: APIClient) -> None:
    response = alice_api.patch(ME, {"username": "mallory"}, format="json")
    assert response.status_code == 200
    assert response.json()["username"] == "alice"
    alice.refresh_from_db()
    assert alice.username == "alice"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"display_name": "x" * 41}, "display_name"),
        ({"time_zone": "Europe/Atlantis"}, "time_zone"),
        ({"time_zone": "CEST"}, "time_zone"),
        ({"language": "de"}, "language"),
        ({"email": "nope"}, "email"),
    ],
)
def test_bad_profile_values_are_invalid_requests(
    alice_api: APIClient, fields: dict[str, str], field: str
) -> None:
    response = alice_api.patch(ME, fields, format="json")
    assert response.status_code == 400
    assert error_code(response) == "invalid_request"
    assert field in response.json()["error"]["details"]["fields"]


@pytest.mark.django_db
def test_a_new_email_needs_the_password_and_starts_unverified(
    alice: User,
    alice_api: APIClient,
    mailoutbox: list[Any],
    django_capture_on_commit_callbacks: Any,
) -> None:
    User.objects.filter(pk=alice.pk).update(email_verified=True)
    missing = alice_api.patch(ME, {"email": "alice@new.example"}, format="json")
    assert missing.status_code == 400
    assert error_code(missing) == "password_required"
    wrong = alice_api.patch(
        ME, {"email": "alice@new.example", "password": "guess-guess-1"}, format="json"
    )
    assert error_code(wrong) == "invalid_credentials"
    with django_capture_on_commit_callbacks(execute=True):
        ok = alice_api.patch(
            ME, {"email": "alice@new.example", "password": PASSWORD}, format="json"
        )
    assert ok.status_code == 200
    assert ok.json()["email"] == "alice@new.example"
    assert ok.json()["email_verified"] is False
    assert [mail.to for mail in mailoutbox] == [["alice@new.example"]]


@pytest.mark.django_db
def test_sending_the_same_email_again_needs_no_password(alice: User, alice_api: APIClient) -> None:
    User.objects.filter(pk=alice.pk).update(email_verified=True)
    response = alice_api.patch(ME, {"email": "alice@example.com", "language": "da"}, format="json")
    assert response.status_code == 200
    assert response.json()["email_verified"] is True


# --- stats ----------------------------------------------------------------------------------


@pytest.mark.django_db
def test_stats_count_finished_games_wins_points_and_running_games(
    alice: User, bob: User, carol: User, alice_api: APIClient
) -> None:
    played_game([(alice, 120, 1), (bob, 30, 2)])
    played_game([(bob, 500, 1), (alice, 80, 2), (carol, 10, 3)])
    played_game([(carol, 200, 1), (bob, 0, 2)])  # not alice's
    played_game([(alice, 0, 0), (bob, 0, 0)], status=Game.ACTIVE)
    played_game([(alice, 0, 0), (bob, 0, 0)], status=Game.ABORTED)
    response = alice_api.get("/api/v1/me/stats/")
    assert response.status_code == 200
    assert response.json() == {
        "games_played": 2,
        "games_won": 1,
        "points": 200,
        "games_in_progress": 1,
    }


@pytest.mark.django_db
def test_stats_of_a_new_player_are_zero(alice_api: APIClient) -> None:
    assert alice_api.get("/api/v1/me/stats/").json() == {
        "games_played": 0,
        "games_won": 0,
        "points": 0,
        "games_in_progress": 0,
    }


# --- delete ---------------------------------------------------------------------------------


@pytest.mark.django_db
def test_deleting_my_account_needs_my_password(alice: User, alice_api: APIClient) -> None:
    missing = alice_api.delete(ME, {}, format="json")
    assert missing.status_code == 400
    assert error_code(missing) == "invalid_request"
    wrong = alice_api.delete(ME, {"password": "guess-guess-1"}, format="json")
    assert wrong.status_code == 400
    assert error_code(wrong) == "invalid_credentials"
    assert User.objects.filter(pk=alice.pk).exists()


@pytest.mark.django_db
def test_deleting_my_account_keeps_finished_games_intact(
    alice: User, bob: User, alice_api: APIClient
) -> None:
    game = played_game([(alice, 120, 1), (bob, 30, 2)])
    Move.objects.create(game=game, number=1, seat=0, action={"type": "draw"})
    response = alice_api.delete(ME, {"password": PASSWORD}, format="json")
    assert response.status_code == 204
    assert not User.objects.filter(pk=alice.pk).exists()
    assert not ApiToken.objects.filter(user_id=alice.pk).exists()
    seats = {s.position: s for s in Seat.objects.filter(game=game)}
    assert seats[0].user is None and seats[0].final_score == 120 and seats[0].place == 1
    assert seats[1].user == bob
    assert game.moves.count() == 1
    assert alice_api.get(ME).status_code == 401


@pytest.mark.django_db
def test_deleting_my_account_leaves_my_running_games(
    alice: User, bob: User, carol: User, alice_api: APIClient
) -> None:
    lobby = game_services.create_game(host=alice, max_players=4, visibility=Game.PUBLIC)
    game_services.join_game(user=bob, game_id=lobby.pk)
    running = game_services.create_game(host=alice, max_players=3, visibility=Game.PUBLIC)
    game_services.join_game(user=bob, game_id=running.pk)
    game_services.join_game(user=carol, game_id=running.pk)
    running.refresh_from_db()
    assert running.status == Game.ACTIVE

    assert alice_api.delete(ME, {"password": PASSWORD}, format="json").status_code == 204

    lobby.refresh_from_db()
    assert list(lobby.seats.values_list("user", flat=True)) == [bob.pk]
    assert lobby.host == bob
    gone = Seat.objects.get(game=running, user=None)
    assert gone.left_at is not None
    running.refresh_from_db()
    # Bob and Carol play on, and the turn never waits for the seat nobody holds any more.
    assert running.status == Game.ACTIVE
    assert running.current_user in (bob, carol)


@pytest.mark.django_db
def test_a_session_user_is_logged_out_by_deleting_the_account(alice: User) -> None:
    api = APIClient()
    api.post("/api/v1/auth/login/", {"username": "alice", "password": PASSWORD}, format="json")
    assert api.delete(ME, {"password": PASSWORD}, format="json").status_code == 204
    assert api.get(ME).status_code == 401


@pytest.mark.django_db
def test_the_username_is_free_again_after_deletion(
    client: APIClient, alice: User, alice_api: APIClient
) -> None:
    alice_api.delete(ME, {"password": PASSWORD}, format="json")
    response = client.post(
        "/api/v1/auth/signup/", {"username": "alice", "password": PASSWORD}, format="json"
    )
    assert response.status_code == 201
