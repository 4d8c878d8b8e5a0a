"""Challenges: sent with a game's settings, notified, accepted into a started game, declined,
withdrawn, expired; who may challenge whom (everyone, friends, nobody; blocks); and the cap on
games in progress on every path to a seat."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from time_machine import TimeMachineFixture

from games.models import Game
from notifications import texts
from notifications.models import Notification
from social import services
from social.models import Challenge
from tests.social.conftest import SOCIAL_TESTS, Player, befriend, block

pytestmark = SOCIAL_TESTS

CHALLENGES = "/api/v1/challenges/"


def challenge(player: Player, other: Player, **body: Any) -> Any:
    return player.post(CHALLENGES, {"username": other.user.username, **body})


def sent(player: Player, other: Player, **body: Any) -> dict[str, Any]:
    response = challenge(player, other, **body)
    assert response.status_code == 201, response.content
    return response.json()


def challenged_as_friends(player: Player, friend: Player, **body: Any) -> dict[str, Any]:
    """``player`` and ``friend`` become friends, then ``player`` challenges ``friend``."""
    befriend(player, friend)
    return sent(player, friend, **body)


def set_challenges_from(player: Player, who: str) -> None:
    response = player.client.patch("/api/v1/me/social/", {"challenges_from": who}, format="json")
    assert response.status_code == 200


def test_a_friend_challenged_is_notified_and_accepting_starts_the_game(
    alice: Player, bob: Player
) -> None:
    row = challenged_as_friends(alice, bob, game="uno_splash", target_score=0)
    assert (row["status"], row["game"], row["incoming"]) == ("pending", "uno_splash", False)
    notice = Notification.objects.get(user=bob.user, kind="challenged")
    assert notice.data["challenge"] == row["id"]
    incoming = bob.get(CHALLENGES).json()
    assert [(c["id"], c["incoming"]) for c in incoming] == [(row["id"], True)]

    accepted = bob.post(f"{CHALLENGES}{row['id']}/accept/")
    assert accepted.status_code == 200, accepted.content
    game = Game.objects.get(pk=accepted.json()["id"])
    assert game.status == Game.ACTIVE and game.kind == "uno_splash"
    assert sorted(s.user.username for s in game.seats.all()) == ["alice", "bob"]
    assert Challenge.objects.get(pk=row["id"]).status == Challenge.ACCEPTED
    assert bob.get(CHALLENGES).json() == []


def test_the_game_options_are_checked_by_the_games_app(alice: Player, bob: Player) -> None:
    befriend(alice, bob)
    bad = challenge(alice, bob, options={"no_such_rule": True})
    assert (bad.status_code, bad.json()["error"]["code"]) == (400, "invalid_setup")
    assert not Challenge.objects.exists() and not Game.objects.exists()


def test_declining_closes_the_challenge_and_its_lobby(alice: Player, bob: Player) -> None:
    row = challenged_as_friends(alice, bob)
    declined = bob.post(f"{CHALLENGES}{row['id']}/decline/")
    assert declined.json()["status"] == "declined"
    assert Game.objects.get(pk=row["game_id"]).status == Game.EXPIRED
    again = bob.post(f"{CHALLENGES}{row['id']}/accept/")
    assert (again.status_code, again.json()["error"]["code"]) == (409, "challenge_closed")


def test_the_challenger_withdraws_but_cannot_accept(alice: Player, bob: Player) -> None:
    row = challenged_as_friends(alice, bob)
    own = alice.post(f"{CHALLENGES}{row['id']}/accept/")
    assert (own.status_code, own.json()["error"]["code"]) == (403, "not_challenged")
    assert alice.post(f"{CHALLENGES}{row['id']}/decline/").json()["status"] == "cancelled"


def test_somebody_elses_challenge_is_not_found(alice: Player, bob: Player, carol: Player) -> None:
    row = challenged_as_friends(alice, bob)
    for path in ("accept/", "decline/"):
        response = carol.post(f"{CHALLENGES}{row['id']}/{path}")
        assert (response.status_code, response.json()["error"]["code"]) == (404, "not_found")


def test_one_pending_challenge_per_pair(alice: Player, bob: Player) -> None:
    befriend(alice, bob)
    sent(alice, bob)
    second = challenge(alice, bob)
    assert (second.status_code, second.json()["error"]["code"]) == (409, "already_challenged")
    assert Game.objects.count() == 1  # the second lobby rolled back with it


def test_a_pending_challenge_expires(
    alice: Player, bob: Player, time_machine: TimeMachineFixture, settings: Any
) -> None:
    settings.CHALLENGE_TTL_SECONDS = 600
    row = challenged_as_friends(alice, bob)
    assert services.expire_challenges() == 0
    time_machine.move_to(timezone.now() + timedelta(seconds=601))
    assert services.expire_challenges() == 1
    assert services.expire_challenges() == 0  # a second run finds nothing to do
    assert Challenge.objects.get(pk=row["id"]).status == Challenge.EXPIRED
    assert Game.objects.get(pk=row["game_id"]).status == Game.EXPIRED
    late = bob.post(f"{CHALLENGES}{row['id']}/accept/")
    assert late.json()["error"]["code"] == "challenge_closed"


def test_accepting_after_the_expiry_before_the_job_ran_is_refused(
    alice: Player, bob: Player, time_machine: TimeMachineFixture, settings: Any
) -> None:
    settings.CHALLENGE_TTL_SECONDS = 600
    row = challenged_as_friends(alice, bob)
    time_machine.move_to(timezone.now() + timedelta(seconds=601))
    late = bob.post(f"{CHALLENGES}{row['id']}/accept/")
    assert (late.status_code, late.json()["error"]["code"]) == (409, "challenge_closed")
    assert Challenge.objects.get(pk=row["id"]).status == Challenge.EXPIRED


@pytest.mark.parametrize(
    ("setting", "friends", "allowed"),
    [
        ("everyone", False, True),
        ("friends", False, False),
        ("friends", True, True),
        ("nobody", True, False),
    ],
)
def test_who_may_challenge_me(
    alice: Player, bob: Player, setting: str, friends: bool, allowed: bool
) -> None:
    if friends:
        befriend(alice, bob)
    set_challenges_from(bob, setting)
    response = challenge(alice, bob)
    if allowed:
        assert response.status_code == 201
    else:
        assert (response.status_code, response.json()["error"]["code"]) == (
            403,
            "challenge_refused",
        )


@pytest.mark.parametrize("who_blocks", ["alice", "bob"])
def test_a_block_either_way_refuses_a_challenge(
    alice: Player, bob: Player, who_blocks: str
) -> None:
    set_challenges_from(bob, "everyone")
    block(*((alice, bob) if who_blocks == "alice" else (bob, alice)))
    response = challenge(alice, bob)
    assert (response.status_code, response.json()["error"]["code"]) == (403, "challenge_refused")


def test_a_block_after_the_challenge_refuses_the_accept(alice: Player, bob: Player) -> None:
    row = challenged_as_friends(alice, bob)
    block(alice, bob)
    response = bob.post(f"{CHALLENGES}{row['id']}/accept/")
    assert (response.status_code, response.json()["error"]["code"]) == (403, "challenge_refused")


def test_nobody_challenges_themselves(alice: Player) -> None:
    response = challenge(alice, alice)
    assert response.json()["error"]["code"] == "cannot_challenge_self"


def test_the_cap_on_games_in_progress_holds_on_create_join_and_accept(
    alice: Player, bob: Player, carol: Player, settings: Any
) -> None:
    settings.GAMES_IN_PROGRESS_MAX = 2
    row = challenged_as_friends(alice, bob)  # alice: 1 (the challenge's lobby)
    assert alice.create(visibility="public").status_code == 201  # alice: 2
    full = alice.create()
    assert (full.status_code, full.json()["error"]["code"]) == (409, "too_many_games")
    assert full.json()["error"]["details"]["limit"] == 2
    refused = challenge(alice, bob)
    assert refused.json()["error"]["code"] in {"too_many_games", "already_challenged"}

    public = carol.create(visibility="public").json()["id"]
    bob.create()
    bob.create()  # bob: 2
    assert bob.join(public).json()["error"]["code"] == "too_many_games"
    late = bob.post(f"{CHALLENGES}{row['id']}/accept/")
    assert (late.status_code, late.json()["error"]["code"]) == (409, "too_many_games")
    assert Challenge.objects.get(pk=row["id"]).status == Challenge.PENDING


def test_rematch_and_invites_still_work(alice: Player, bob: Player) -> None:
    code = alice.create(max_players=2).json()["invite_code"]
    assert bob.join_by_code(code).json()["status"] == "active"


@pytest.mark.parametrize(
    ("language", "title", "body"),
    [
        ("en", "You are challenged", "Alice challenged you to a game."),
        ("da", "Du er udfordret", "Alice har udfordret dig til et spil."),
    ],
)
def test_the_challenge_notice_speaks_the_players_language(
    alice: Player, bob: Player, language: str, title: str, body: str
) -> None:
    befriend(alice, bob)
    sent(alice, bob)
    notice = Notification.objects.get(user=bob.user, kind="challenged")
    with texts.in_language(language):
        assert texts.render(notice.kind, notice.data) == (title, body)
    assert texts.url_for(notice.kind, notice.game_id).endswith("/friends")
