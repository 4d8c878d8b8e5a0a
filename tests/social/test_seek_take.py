"""Taking a listed seek from the lobby (``seeks/{id}/take/``): the game starts with both seated,
within the seek's own range, never one's own, never across a block, once; and the "you were
paired" notice every matched player gets on their channels and account event stream."""

from __future__ import annotations

from typing import Any

from django.test import override_settings

from games.models import Game, Seat
from notifications import kinds
from notifications.models import Delivery, Notification
from ratings.models import Rating
from social import paired
from social.models import Seek
from tests.social.conftest import SOCIAL_TESTS, Player, block

pytestmark = SOCIAL_TESTS

GAME = "uno_splash"
EVENTS = "/api/v1/games/live/stream/"


def seek(player: Player, **body: Any) -> Any:
    response = player.post("/api/v1/seeks/", {"game": GAME, "seats": 2, **body})
    assert response.status_code == 201, response.content
    return response.json()


def take(player: Player, seek_id: int) -> Any:
    return player.post(f"/api/v1/seeks/{seek_id}/take/")


def code(response: Any) -> str:
    return str(response.json()["error"]["code"])


def test_taking_a_seek_starts_its_game_with_both_seated(alice: Player, bob: Player) -> None:
    # Far apart: a posted seek would wait, but a taker chooses their opponent.
    Rating.objects.create(user=bob.user, kind=GAME, shown=2400)
    posted = seek(alice)
    response = take(bob, posted["id"])
    assert response.status_code == 200, response.content
    game = Game.objects.get(pk=response.json()["id"])
    assert game.status == Game.ACTIVE and game.visibility == Game.PRIVATE
    assert game.host_id == alice.user.pk  # the seeker hosts
    assert {s.user_id for s in Seat.objects.filter(game=game)} == {alice.user.pk, bob.user.pk}
    matched = Seek.objects.filter(game=game, status=Seek.MATCHED)
    assert {s.user_id for s in matched} == {alice.user.pk, bob.user.pk}
    assert [s["status"] for s in alice.get("/api/v1/seeks/").json()] == ["matched"]


def test_the_takers_own_open_seek_of_the_pool_is_the_one_matched(
    alice: Player, bob: Player
) -> None:
    posted = seek(alice, max_rating=1000)  # refuses bob's posted seek (a new player's 1500)
    mine = seek(bob, min_rating=100, max_rating=3000)
    Seek.objects.filter(pk=posted["id"]).update(max_rating=None)
    assert take(bob, posted["id"]).status_code == 200
    assert Seek.objects.get(pk=mine["id"]).status == Seek.MATCHED
    assert Seek.objects.filter(user=bob.user).count() == 1


def test_ones_own_seek_is_refused(alice: Player) -> None:
    response = take(alice, seek(alice)["id"])
    assert response.status_code == 403 and code(response) == "seek_refused"


def test_a_seek_whose_range_leaves_the_taker_out_is_refused(alice: Player, bob: Player) -> None:
    Rating.objects.create(user=bob.user, kind=GAME, shown=1900)
    response = take(bob, seek(alice, max_rating=1800)["id"])
    assert response.status_code == 403 and code(response) == "seek_refused"
    assert not Game.objects.exists()


def test_a_blocked_players_seek_is_not_found_either_way(
    alice: Player, bob: Player, carol: Player
) -> None:
    block(alice, bob)
    response = take(bob, seek(alice)["id"])
    assert response.status_code == 404 and code(response) == "not_found"
    block(carol, alice)
    assert take(carol, Seek.objects.get(user=alice.user).pk).status_code == 404


def test_a_seek_for_more_seats_is_not_taken_alone(alice: Player, bob: Player) -> None:
    response = take(bob, seek(alice, seats=3)["id"])
    assert response.status_code == 409 and code(response) == "seek_needs_group"


def test_a_withdrawn_or_taken_seek_is_closed(alice: Player, bob: Player, carol: Player) -> None:
    posted = seek(alice)
    assert take(bob, posted["id"]).status_code == 200
    response = take(carol, posted["id"])
    assert response.status_code == 409 and code(response) == "seek_closed"
    again = seek(alice)
    assert alice.client.delete(f"/api/v1/seeks/{again['id']}/").status_code == 204
    assert code(take(carol, again["id"])) == "seek_closed"


@override_settings(GAMES_IN_PROGRESS_MAX=1)
def test_a_seeker_at_the_cap_is_not_taken(alice: Player, bob: Player, carol: Player) -> None:
    posted = seek(alice)
    assert take(bob, posted["id"]).status_code == 200  # alice now has her one game
    first = Seek.objects.get(pk=posted["id"])
    again = Seek.objects.create(  # posted before her game began: she may no longer sit
        user=alice.user,
        pool_id=first.pool_id,
        kind=GAME,
        seats=2,
        rated=True,
        rating=1500,
        expires_at=first.expires_at,
    )
    response = take(carol, again.pk)
    assert response.status_code == 409 and code(response) == "seek_closed"


def test_every_matched_player_is_told_on_their_channels_and_event_stream(
    alice: Player, bob: Player, django_capture_on_commit_callbacks: Any
) -> None:
    for player in (alice, bob):
        player.user.email, player.user.email_verified = f"{player.user.username}@x.test", True
        player.user.save(update_fields=["email", "email_verified"])
    off = {"channels": {"email": {kinds.PAIRED: False}}}
    assert (
        bob.client.put("/api/v1/notifications/preferences/", off, format="json").status_code == 200
    )
    seek(alice)
    with django_capture_on_commit_callbacks(execute=True):
        game_id = seek(bob)["game_id"]
    notices = Notification.objects.filter(kind=kinds.PAIRED, game_id=game_id)
    assert {n.user_id: n.data["opponents"] for n in notices} == {
        alice.user.pk: [bob.user.public_name],
        bob.user.pk: [alice.user.public_name],
    }
    emailed = Delivery.objects.filter(notification__in=notices, channel="email")
    assert [d.notification.user_id for d in emailed] == [alice.user.pk]  # bob turned it off
    events = alice.get(EVENTS, {"after": 0}).json()["events"]
    assert any(e["kind"] == kinds.PAIRED and e["game"] == game_id for e in events), events
    assert paired.notify_paired(game_id) == 0  # a repeated task writes nothing new
