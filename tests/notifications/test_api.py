"""The inbox API: list, unread count, mark read, read all, preferences; and who may see what."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from notifications import services
from notifications.models import Notification, Preference
from tests.games.conftest import Player, make_player
from tests.notifications.conftest import new_game

pytestmark = pytest.mark.django_db

API = "/api/v1/notifications/"


def notices(player: Player, count: int, kind: str = "moderation") -> list[Notification]:
    return [
        services.notify(user=player.user, kind=kind, data={"message": f"notice {i}"})  # type: ignore[misc]
        for i in range(count)
    ]


def test_my_inbox_lists_my_notifications_newest_first(alice: Player, bob: Player) -> None:
    game = new_game(alice, bob)
    mine = notices(alice, 2)
    notices(bob, 1)

    response = alice.get(API)

    assert response.status_code == 200, response.content
    page = response.json()
    ids = [n["id"] for n in page["results"]]
    # The inbox: every notification but those withdrawn (the stream-only ``game_started``).
    expected = list(
        Notification.objects.filter(user=alice.user, cleared_at__isnull=True)
        .order_by("-pk")
        .values_list("pk", flat=True)
    )
    assert ids == expected
    assert page["has_more"] is False and page["next_before"] is None
    newest = page["results"][0]
    assert newest["id"] == mine[-1].pk
    assert newest["kind"] == "moderation"
    assert newest["title"] == "Message from the moderators"
    assert newest["body"] == "notice 1"
    assert newest["event_id"] == str(mine[-1].event_id)
    assert newest["read_at"] is None
    assert newest["url"].endswith("/notifications")
    turn = [n for n in page["results"] if n["kind"] == "your_turn"]
    if turn:
        assert turn[0]["game"] == str(game.pk)
        assert turn[0]["url"].endswith(f"/games/{game.pk}")


def test_the_inbox_pages_with_a_cursor(alice: Player) -> None:
    created = notices(alice, 5)
    first = alice.get(API, {"limit": 2}).json()
    assert [n["id"] for n in first["results"]] == [created[4].pk, created[3].pk]
    assert first["has_more"] is True
    second = alice.get(API, {"limit": 2, "before": first["next_before"]}).json()
    assert [n["id"] for n in second["results"]] == [created[2].pk, created[1].pk]
    last = alice.get(API, {"limit": 2, "before": second["next_before"]}).json()
    assert [n["id"] for n in last["results"]] == [created[0].pk]
    assert last["has_more"] is False and last["next_before"] is None


def test_the_inbox_can_show_only_unread_ones(alice: Player) -> None:
    first, second = notices(alice, 2)
    services.mark_read(user=alice.user, notification_id=first.pk)
    page = alice.get(API, {"unread": "true"}).json()
    assert [n["id"] for n in page["results"]] == [second.pk]


@pytest.mark.parametrize("params", [{"limit": "0"}, {"limit": "x"}, {"before": "-3"}])
def test_bad_paging_parameters_are_refused(alice: Player, params: dict[str, str]) -> None:
    response = alice.get(API, params)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid_request"


def test_the_unread_count_goes_down_as_i_read(alice: Player, bob: Player) -> None:
    first, _ = notices(alice, 2)
    notices(bob, 3)
    assert alice.get(f"{API}unread-count/").json()["unread"] == 2

    response = alice.post(f"{API}{first.pk}/read/")
    assert response.status_code == 200, response.content
    assert response.json()["read_at"] is not None
    assert alice.get(f"{API}unread-count/").json()["unread"] == 1


def test_marking_read_twice_keeps_the_first_time(alice: Player) -> None:
    (notice,) = notices(alice, 1)
    first = alice.post(f"{API}{notice.pk}/read/").json()["read_at"]
    assert alice.post(f"{API}{notice.pk}/read/").json()["read_at"] == first


def test_someone_elses_notification_is_not_found(alice: Player, bob: Player) -> None:
    (bobs,) = notices(bob, 1)
    response = alice.post(f"{API}{bobs.pk}/read/")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"
    assert Notification.objects.get(pk=bobs.pk).read_at is None
    assert alice.post(f"{API}999999/read/").status_code == 404
    assert bobs.pk not in [n["id"] for n in alice.get(API).json()["results"]]


def test_read_all_marks_only_mine_and_only_up_to_what_i_saw(alice: Player, bob: Player) -> None:
    a1, a2, a3 = notices(alice, 3)
    notices(bob, 1)
    response = alice.post(f"{API}read-all/", {"up_to": a2.pk})
    assert response.json() == {"marked": 2}
    assert alice.get(f"{API}unread-count/").json()["unread"] == 1
    assert alice.post(f"{API}read-all/", {}).json() == {"marked": 1}
    assert bob.get(f"{API}unread-count/").json()["unread"] == 1


def test_texts_come_in_the_players_language(alice: Player, bob: Player) -> None:
    alice.user.language = "da"
    alice.user.save()
    services.notify(user=alice.user, kind="swapped", data={"by": "Bob"})
    (notice,) = alice.get(API).json()["results"][:1]
    assert notice["title"] == "Hænder byttet"
    assert notice["body"] == "Bob byttede hånd med dig."


def test_preferences_start_from_the_defaults(alice: Player) -> None:
    response = alice.get(f"{API}preferences/")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["quiet_hours"] is None
    assert body["time_zone"] == "UTC"
    email = body["channels"]["email"]
    assert email["your_turn"] and email["reminder"] and email["match_over"]
    assert email["invited"] and email["moderation"]
    assert not email["caught"] and not email["round_over"] and not email["swapped"]
    assert not Preference.objects.exists()  # reading writes nothing


def test_preferences_change_only_what_is_sent(alice: Player) -> None:
    response = alice.client.put(
        f"{API}preferences/",
        {
            "channels": {"email": {"round_over": True}},
            "quiet_hours": {"start": "22:00", "end": "07:30"},
        },
        format="json",
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["channels"]["email"]["round_over"] is True
    assert body["channels"]["email"]["your_turn"] is True  # untouched
    assert body["quiet_hours"] == {"start": "22:00:00", "end": "07:30:00"}

    response = alice.client.put(
        f"{API}preferences/", {"channels": {"email": {"your_turn": False}}}, format="json"
    )
    body = response.json()
    assert body["channels"]["email"]["round_over"] is True
    assert body["channels"]["email"]["your_turn"] is False
    assert body["quiet_hours"] == {"start": "22:00:00", "end": "07:30:00"}  # kept

    response = alice.client.put(f"{API}preferences/", {"quiet_hours": None}, format="json")
    assert response.json()["quiet_hours"] is None


@pytest.mark.parametrize(
    "body",
    [
        {"channels": {"email": {"your_turn": "maybe"}}},
        {"quiet_hours": {"start": "22:00"}},
        {"quiet_hours": {"start": "22:00", "end": "22:00"}},
        {"quiet_hours": {"start": "25:00", "end": "07:00"}},
    ],
)
def test_bad_preferences_are_refused(alice: Player, body: dict[str, Any]) -> None:
    response = alice.client.put(f"{API}preferences/", body, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["error"]["code"] == "invalid_request"


def test_unknown_channels_and_kinds_are_refused_not_stored(alice: Player) -> None:
    """A misspelt channel or kind is named back, not dropped (config/serializers.py)."""
    response = alice.client.put(
        f"{API}preferences/",
        {"channels": {"carrier_pigeon": {"your_turn": True}, "email": {"nonsense": True}}},
        format="json",
    )
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "unknown_field"
    assert set(error["details"]["fields"]["channels"]) == {"carrier_pigeon"}
    assert not Preference.objects.filter(user=alice.user).exists() or (
        "carrier_pigeon" not in Preference.objects.get(user=alice.user).switches
    )
    response = alice.client.put(
        f"{API}preferences/", {"channels": {"email": {"nonsense": True}}}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["error"]["details"]["fields"] == {
        "channels": {"email": {"nonsense": ["This field is not part of the request."]}}
    }


def test_everything_needs_credentials(alice: Player) -> None:
    anonymous = APIClient()
    for method, path in [
        ("get", API),
        ("get", f"{API}unread-count/"),
        ("post", f"{API}1/read/"),
        ("post", f"{API}read-all/"),
        ("get", f"{API}preferences/"),
        ("put", f"{API}preferences/"),
    ]:
        response = getattr(anonymous, method)(path, {}, format="json")
        assert response.status_code == 401, (method, path)
        assert response.json()["error"]["code"] == "not_authenticated"


def test_a_read_token_reads_but_changes_nothing(db: None) -> None:
    reader = make_player("reader", scope="read")
    (notice,) = notices(reader, 1)
    assert reader.get(API).status_code == 200
    assert reader.get(f"{API}preferences/").status_code == 200
    assert reader.post(f"{API}{notice.pk}/read/").status_code == 403
    assert reader.post(f"{API}read-all/").status_code == 403
    response = reader.client.put(f"{API}preferences/", {}, format="json")
    assert response.status_code == 403
    assert Notification.objects.get(pk=notice.pk).read_at is None


def test_the_inbox_and_the_badge_take_a_fixed_number_of_queries_whatever_their_size(
    alice: Player, django_assert_num_queries: Any
) -> None:
    notices(alice, 30)
    alice.get(API)  # the token's last_used_at is written once: warm it up
    with django_assert_num_queries(2):  # token, one page
        assert alice.get(API, {"limit": 25}).status_code == 200
    with django_assert_num_queries(3):  # token, the count, the games waiting for a move
        assert alice.get(f"{API}unread-count/").status_code == 200


def test_an_invitation_links_to_my_games_where_it_is_joined(
    alice: Player, bob: Player, carol: Player
) -> None:
    # The invited player has no seat yet: the game's own page would answer "not found".
    game = new_game(alice, carol)
    services.notify_invited(user=bob.user, game=game, by=alice.user)

    (item,) = bob.get(API).json()["results"]

    assert item["kind"] == "invited" and item["game"] == str(game.pk)
    assert item["url"].endswith("/games")
