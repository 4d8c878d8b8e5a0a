"""Following, friends (mutual follows) with presence, the presence setting, player search, and
blocks, which win over all of it both ways."""

from __future__ import annotations

import json
from datetime import date, timedelta
from typing import Any

import pytest
from django.core.cache import cache
from django.utils import timezone
from rest_framework import serializers as drf

from notifications.models import Notification
from players import selectors as player_selectors
from players.models import User
from social import selectors
from social.api.serializers import FriendSerializer
from social.models import Follow, Profile
from social.selectors import Friend, Person, Presence
from tests.social.conftest import SOCIAL_TESTS, Player, befriend, block, follow, friends, search

pytestmark = SOCIAL_TESTS


def seen(player: Player, ago: timedelta) -> None:
    Profile.objects.filter(user=player.user).update(last_seen_at=timezone.now() - ago)


def test_a_follow_becomes_a_friendship_when_it_is_mutual(alice: Player, bob: Player) -> None:
    first = follow(alice, bob)
    assert first.status_code == 200
    assert first.json() == {"player": {"username": "bob", "name": "Bob"}, "friend": False}
    assert friends(alice) == []
    assert follow(bob, alice).json()["friend"] is True
    assert [f["player"]["username"] for f in friends(alice)] == ["bob"]
    assert [f["player"]["username"] for f in friends(bob)] == ["alice"]
    listed = alice.get("/api/v1/me/following/").json()
    assert [(row["player"]["username"], row["friend"]) for row in listed] == [("bob", True)]


def test_following_again_changes_nothing_and_notifies_once(alice: Player, bob: Player) -> None:
    follow(alice, bob)
    assert alice.client.delete("/api/v1/me/following/bob/").status_code == 204
    follow(alice, bob)
    assert Notification.objects.filter(user=bob.user, kind="followed").count() == 1


def test_unfollowing_ends_the_friendship(alice: Player, bob: Player) -> None:
    befriend(alice, bob)
    assert bob.client.delete("/api/v1/me/following/alice/").status_code == 204
    assert friends(alice) == []


def test_nobody_follows_themselves_or_a_missing_player(alice: Player) -> None:
    assert follow(alice, alice).json()["error"]["code"] == "cannot_follow_self"
    missing = alice.post("/api/v1/me/following/", {"username": "nobody"})
    assert (missing.status_code, missing.json()["error"]["code"]) == (404, "not_found")


def test_a_friend_seen_in_the_last_five_minutes_is_online(alice: Player, bob: Player) -> None:
    befriend(alice, bob)
    seen(bob, timedelta(minutes=4))
    assert friends(alice)[0]["presence"] == {"status": "online", "last_seen_on": None}


def test_a_friend_seen_earlier_shows_the_day_only(alice: Player, bob: Player) -> None:
    befriend(alice, bob)
    seen(bob, timedelta(days=2, minutes=1))
    day = (timezone.now() - timedelta(days=2, minutes=1)).date().isoformat()
    assert friends(alice)[0]["presence"] == {"status": "offline", "last_seen_on": day}


def test_a_player_who_hides_presence_is_never_shown_online(alice: Player, bob: Player) -> None:
    befriend(alice, bob)
    seen(bob, timedelta(seconds=5))
    settings = bob.client.patch("/api/v1/me/social/", {"hide_presence": True}, format="json")
    assert settings.json() == {"hide_presence": True, "challenges_from": "friends"}
    assert friends(alice)[0]["presence"] == {"status": "hidden", "last_seen_on": None}


def test_a_request_stamps_last_seen_at_most_once_a_minute(alice: Player) -> None:
    cache.delete(f"social:seen:{alice.user.pk}")  # no stamp left by an earlier test's alice
    assert alice.get("/api/v1/me/friends/").status_code == 200
    first = Profile.objects.get(user=alice.user).last_seen_at
    assert first is not None and timezone.now() - first < timedelta(seconds=30)
    Profile.objects.filter(user=alice.user).update(last_seen_at=first - timedelta(seconds=30))
    alice.get("/api/v1/me/friends/")
    assert Profile.objects.get(user=alice.user).last_seen_at == first - timedelta(seconds=30)


@pytest.mark.parametrize("who_blocks", ["alice", "bob"])
def test_a_block_either_way_hides_the_friend_and_refuses_a_follow(
    alice: Player, bob: Player, who_blocks: str
) -> None:
    befriend(alice, bob)
    blocker, blocked = (alice, bob) if who_blocks == "alice" else (bob, alice)
    block(blocker, blocked)
    assert friends(alice) == [] and friends(bob) == []
    assert alice.get("/api/v1/me/following/").json() == []
    bob.client.delete("/api/v1/me/following/alice/")
    refused = follow(bob, alice)
    assert (refused.status_code, refused.json()["error"]["code"]) == (403, "follow_refused")


def test_search_finds_a_prefix_ignoring_case_and_accents(
    alice: Player, bob: Player, carol: Player
) -> None:
    bob.user.display_name = "Søren Ærø"
    bob.user.save()
    carol.user.display_name = "Émilie"
    carol.user.save()
    assert search(alice, "sor") == ["bob"]
    assert search(alice, "SØREN A") == ["bob"]
    assert search(alice, "emil") == ["carol"]
    assert search(alice, "Émilie") == ["carol"]
    assert search(alice, "milie") == []  # a prefix, not a substring


def test_search_leaves_out_me_and_blocked_players(alice: Player, bob: Player, dave: Player) -> None:
    block(dave, alice)
    empty = alice.get("/api/v1/players/search/", {"q": ""})
    assert (empty.status_code, empty.json()["error"]["code"]) == (400, "invalid_request")
    assert search(alice, "a") == []  # alice herself
    assert search(alice, "d") == []  # dave blocked alice
    assert search(alice, "b") == ["bob"]
    rows = alice.get("/api/v1/players/search/", {"q": "b"}).json()
    assert rows[0]["following"] is False


def test_search_is_rate_limited(alice: Player, settings: Any) -> None:
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "search": "2/min",
        },
    }
    codes = [alice.get("/api/v1/players/search/", {"q": "x"}).status_code for _ in range(3)]
    assert codes == [200, 200, 429]


def test_the_friends_list_costs_two_queries_for_500_friends(
    alice: Player, django_assert_num_queries: Any
) -> None:
    """The budget is 3; it takes 2: the blocks, then the friends with their profiles."""
    users = User.objects.bulk_create(
        [User(username=f"friend{i}", display_name=f"Friend {i}") for i in range(500)]
    )
    Profile.objects.bulk_create(
        [
            Profile(user=u, last_seen_at=timezone.now() - timedelta(minutes=i))
            for i, u in enumerate(users)
        ]
    )
    Follow.objects.bulk_create(
        [Follow(follower=alice.user, followee=u) for u in users]
        + [Follow(follower=u, followee=alice.user) for u in users]
    )
    with django_assert_num_queries(2):
        found = selectors.friends(user=alice.user)
    assert len(found) == 500
    assert sum(f.presence.status == "online" for f in found) == 5


def test_my_data_export_has_my_follows_and_settings(alice: Player, bob: Player) -> None:
    follow(alice, bob)
    exported = player_selectors.export(alice.user)["social"]
    assert [f["username"] for f in exported["following"]] == ["bob"]
    assert exported["challenges_from"] == "friends"


def test_a_friends_row_is_what_its_fields_would_make_of_it() -> None:
    """FriendSerializer builds its rows directly; they must equal the nested fields' output."""
    rows = [
        Friend(Person("soren", "Søren Ærø"), Presence("online", None)),
        Friend(Person("bo", "bo"), Presence("offline", date(2026, 2, 3))),
        Friend(Person("ida", "Ida"), Presence("offline", None)),
        Friend(Person("eve", "Eve"), Presence("hidden", None)),
    ]
    fast = FriendSerializer(rows, many=True).data
    by_fields = [drf.Serializer.to_representation(FriendSerializer(), row) for row in rows]
    assert json.dumps(fast) == json.dumps(by_fields)
    assert by_fields[1]["presence"]["last_seen_on"] == "2026-02-03"


def test_a_friends_list_read_again_within_a_minute_costs_one_query(
    alice: Player, bob: Player, django_assert_num_queries: Any
) -> None:
    befriend(alice, bob)
    assert len(selectors.friends(user=alice.user)) == 1
    with django_assert_num_queries(1):  # the blocks: always read afresh
        assert len(selectors.friends(user=alice.user)) == 1


def test_the_cached_list_follows_follows_names_settings_and_blocks(
    alice: Player, bob: Player, carol: Player
) -> None:
    befriend(alice, bob)
    seen(bob, timedelta(seconds=5))
    assert [f["player"]["name"] for f in friends(alice)] == ["Bob"]
    befriend(alice, carol)  # a new friend
    assert sorted(f["player"]["name"] for f in friends(alice)) == ["Bob", "Carol"]
    bob.user.display_name = "Bobby"
    bob.user.save()  # a friend's new name
    assert sorted(f["player"]["name"] for f in friends(alice)) == ["Bobby", "Carol"]
    hidden = bob.client.patch("/api/v1/me/social/", {"hide_presence": True}, format="json")
    assert hidden.status_code == 200, hidden.content
    presence = {f["player"]["name"]: f["presence"]["status"] for f in friends(alice)}
    assert presence["Bobby"] == "hidden"
    block(carol, alice)  # read afresh: no wait for the cache
    assert [f["player"]["name"] for f in friends(alice)] == ["Bobby"]
    assert alice.client.delete("/api/v1/me/following/bob/").status_code == 204
    assert friends(alice) == []
