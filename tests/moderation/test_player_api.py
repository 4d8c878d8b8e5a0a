"""Players: reporting a player (merged repeats, throttled, own reports' status) and blocking one
(no more joining the blocker's private games)."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache.backends.locmem import LocMemCache
from rest_framework.throttling import ScopedRateThrottle

from games.models import Game
from moderation.models import Block, Report
from moderation.services import resolve_report
from tests.errors import assert_error
from tests.games.conftest import API_TESTS, Player, new_lobby, start_game

pytestmark = API_TESTS

REPORTS = "/api/v1/reports/"
BLOCKS = "/api/v1/blocks/"


def report(reporter: Player, player: Player, **body: Any) -> Any:
    body.setdefault("reason", Report.STALLING)
    return reporter.post(REPORTS, {"player_id": player.user.pk, **body})


# ---------------------------------------------------------------------------------------------
# Reports


def test_a_player_reports_another_and_sees_the_status(alice: Player, bob: Player) -> None:
    game_id = start_game(alice, bob)
    response = report(alice, bob, details="Lets every turn run out.", game_id=game_id)
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["player_id"] == bob.user.pk
    assert body["player_name"] == "Bob"
    assert body["status"] == "open"
    assert body["game_id"] == game_id
    mine = alice.get(REPORTS).json()
    assert [r["id"] for r in mine] == [body["id"]]
    assert bob.get(REPORTS).json() == []  # bob does not learn he was reported


def test_the_status_changes_when_a_moderator_closes_the_report(
    alice: Player, bob: Player, moderator: Any
) -> None:
    report_id = report(alice, bob).json()["id"]
    resolve_report(moderator=moderator, report_id=report_id, action="dismiss", reason="Fine.")
    (mine,) = alice.get(REPORTS).json()
    assert mine["status"] == "dismissed"
    assert mine["resolved_at"] is not None
    assert "resolution" not in mine  # what was done to bob is not alice's business


def test_reporting_the_same_player_again_merges_into_the_open_report(
    alice: Player, bob: Player
) -> None:
    first = report(alice, bob, reason="offensive_name", details="Rude name.")
    second = report(alice, bob, reason="stalling", details="And he stalls.")
    assert first.status_code == 201
    assert second.status_code == 200, second.content
    merged = second.json()
    assert merged["id"] == first.json()["id"]
    assert merged["times"] == 2
    assert merged["reasons"] == ["offensive_name", "stalling"]
    assert "Rude name." in merged["details"] and "And he stalls." in merged["details"]
    assert Report.objects.count() == 1


def test_a_new_report_opens_once_the_previous_one_is_closed(
    alice: Player, bob: Player, moderator: Any
) -> None:
    first = report(alice, bob).json()["id"]
    resolve_report(moderator=moderator, report_id=first, action="warn", reason="Stalling.")
    second = report(alice, bob)
    assert second.status_code == 201
    assert second.json()["id"] != first


def test_reports_by_different_players_stay_separate(
    alice: Player, bob: Player, carol: Player
) -> None:
    assert report(alice, bob).status_code == 201
    assert report(carol, bob).status_code == 201
    assert Report.objects.filter(reported=bob.user).count() == 2


def test_nobody_reports_themselves(alice: Player) -> None:
    assert_error(report(alice, alice), 400, "cannot_report_yourself")


def test_a_report_names_a_player_that_exists(alice: Player) -> None:
    response = alice.post(REPORTS, {"player_id": 999999, "reason": "other"})
    assert_error(response, 404, "not_found")


def test_an_unknown_reason_is_refused(alice: Player, bob: Player) -> None:
    assert_error(report(alice, bob, reason="ugly"), 400, "invalid_request")


def test_the_game_of_a_report_is_one_both_played(
    alice: Player, bob: Player, carol: Player, dave: Player
) -> None:
    theirs = start_game(carol, dave)
    assert_error(report(alice, bob, game_id=theirs), 404, "not_found")
    alices = start_game(alice, carol)
    assert_error(report(alice, bob, game_id=alices), 400, "player_not_in_game")


def test_a_read_only_token_cannot_report(alice: Player, bob: Player) -> None:
    from tests.games.conftest import make_player

    reader = make_player("reader", scope="read")
    assert_error(report(reader, bob), 403, "permission_denied")


def test_reporting_is_throttled(
    alice: Player, bob: Player, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ScopedRateThrottle, "cache", LocMemCache("reports-throttle", {}))
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**settings.THROTTLE_RATES, "reports": "2/hour"},
    }
    assert report(alice, bob).status_code == 201
    assert report(alice, bob).status_code == 200
    third = report(alice, bob)
    assert_error(third, 429, "throttled")
    assert int(third["Retry-After"]) > 0
    assert alice.get(REPORTS).status_code == 200  # reading one's reports is not throttled


def test_reports_need_a_signed_in_player(anonymous: Any) -> None:
    assert anonymous.get(REPORTS).status_code == 401


# ---------------------------------------------------------------------------------------------
# Blocks


def block(blocker: Player, player: Player) -> Any:
    return blocker.post(BLOCKS, {"player_id": player.user.pk})


def test_a_blocked_player_cannot_join_my_private_game(alice: Player, bob: Player) -> None:
    assert block(alice, bob).status_code == 201
    lobby = new_lobby(alice, max_players=3)
    response = bob.join_by_code(lobby["invite_code"])
    assert_error(response, 403, "join_refused")
    assert "alice" not in response.json()["error"]["message"].lower()


def test_a_block_by_any_seated_player_keeps_them_out(
    alice: Player, bob: Player, carol: Player
) -> None:
    lobby = new_lobby(alice, max_players=3)
    assert carol.join_by_code(lobby["invite_code"]).status_code == 200
    block(carol, bob)
    assert_error(bob.join_by_code(lobby["invite_code"]), 403, "join_refused")


def test_a_block_does_not_keep_anyone_out_of_public_games(alice: Player, bob: Player) -> None:
    block(alice, bob)
    lobby = new_lobby(alice, max_players=3, visibility="public")
    assert bob.join(lobby["id"]).status_code == 200


def test_a_rematch_does_not_invite_a_player_the_host_blocked(
    alice: Player, bob: Player, carol: Player
) -> None:
    game_id = start_game(alice, bob, carol)
    Game.objects.filter(pk=game_id).update(status=Game.FINISHED)
    block(alice, bob)
    response = alice.post(f"/api/v1/games/{game_id}/rematch/")
    assert response.status_code == 200, response.content
    invited = {p.name: p.get("/api/v1/games/invitations/").json() for p in (bob, carol)}
    assert invited["bob"] == []  # the lobby would refuse him: no invitation he cannot take
    assert [g["id"] for g in invited["carol"]] == [response.json()["id"]]
    assert not bob.user.notifications.filter(kind="invited").exists()
    assert carol.user.notifications.filter(kind="invited").exists()


def test_blocking_works_one_way(alice: Player, bob: Player) -> None:
    block(alice, bob)
    lobby = new_lobby(bob, max_players=3)
    assert alice.join_by_code(lobby["invite_code"]).status_code == 200


def test_unblocking_lets_them_join_again(alice: Player, bob: Player) -> None:
    block(alice, bob)
    assert [b["player_id"] for b in alice.get(BLOCKS).json()] == [bob.user.pk]
    assert alice.client.delete(f"{BLOCKS}{bob.user.pk}/").status_code == 204
    assert alice.get(BLOCKS).json() == []
    lobby = new_lobby(alice, max_players=3)
    assert bob.join_by_code(lobby["invite_code"]).status_code == 200


def test_blocking_twice_is_harmless(alice: Player, bob: Player) -> None:
    assert block(alice, bob).status_code == 201
    assert block(alice, bob).status_code == 200
    assert Block.objects.count() == 1


def test_nobody_blocks_themselves(alice: Player) -> None:
    assert_error(block(alice, alice), 400, "cannot_block_yourself")


def test_unblocking_someone_not_blocked_is_not_found(alice: Player, bob: Player) -> None:
    response = alice.client.delete(f"{BLOCKS}{bob.user.pk}/")
    assert_error(response, 404, "not_found")
