"""Sanctions and their effect on the API: a suspended or banned player's tokens stop working
(401), they cannot log in, join or act, a bot takes their seats in running games, they get a
moderation notice, and every act is in the audit log."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from config.errors import ServiceError
from games.models import Game, Seat
from moderation import audit, services
from moderation.models import AuditEntry, Report, Sanction
from notifications.models import Notification
from players.models import ApiToken, User
from tests.games.conftest import API_TESTS, Player, new_lobby, start_game
from tests.moderation.conftest import PASSWORD, make_moderator

pytestmark = API_TESTS


def ban(moderator: User, player: Player, **kwargs: Any) -> Sanction:
    kwargs.setdefault("reason", "Colluding with carol.")
    return services.suspend(
        moderator=moderator, user_id=player.user.pk, ban=True, until=None, **kwargs
    )


def test_a_banned_players_token_gets_401(moderator: User, bob: Player) -> None:
    assert bob.get("/api/v1/me/").status_code == 200
    ban(moderator, bob)
    response = bob.get("/api/v1/me/")
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "authentication_failed"
    assert not ApiToken.objects.filter(user=bob.user, revoked_at__isnull=True).exists()


def test_a_banned_player_cannot_join_a_game(moderator: User, alice: Player, bob: Player) -> None:
    lobby = new_lobby(alice, max_players=3, visibility="public")
    ban(moderator, bob)
    assert bob.join(lobby["id"]).status_code == 401
    assert bob.join_by_code(lobby["invite_code"]).status_code == 401
    assert not Seat.objects.filter(game_id=lobby["id"], user=bob.user).exists()


def test_a_banned_player_cannot_log_in_or_create_a_token(moderator: User, bob: Player) -> None:
    bob.user.set_password(PASSWORD)
    bob.user.save()
    ban(moderator, bob)
    client = APIClient()
    login = client.post("/api/v1/auth/login/", {"username": "bob", "password": PASSWORD})
    assert login.status_code == 400
    assert login.json()["error"]["code"] == "invalid_credentials"
    token = client.post(
        "/api/v1/auth/tokens/", {"username": "bob", "password": PASSWORD, "name": "phone"}
    )
    assert token.json()["error"]["code"] == "invalid_credentials"


def test_a_banned_players_browser_session_ends(moderator: User, bob: Player) -> None:
    session = APIClient()
    session.force_login(bob.user)
    assert session.get("/api/v1/me/").status_code == 200
    ban(moderator, bob)
    assert session.get("/api/v1/me/").status_code == 401


def test_a_bot_takes_a_banned_players_seat_in_running_games_and_they_leave_lobbies(
    moderator: User, alice: Player, bob: Player, carol: Player
) -> None:
    running = start_game(alice, bob, carol)
    lobby = new_lobby(bob, max_players=4)
    ban(moderator, bob)
    seat = Seat.objects.get(game_id=running, user=bob.user)
    assert seat.left_at is None
    assert seat.taken_over and seat.bot_level
    table = alice.table(running)
    assert table["status"] == "active"  # alice and carol play on, against bob's bot
    shown = next(p for p in table["players"] if p["seat"] == seat.position)
    assert shown["taken_over"] is True
    assert table["table"]["seats"][seat.position]["active"]
    assert Game.objects.get(pk=lobby["id"]).status == Game.EXPIRED  # bob was alone in it


def test_a_ban_in_a_two_player_game_leaves_the_other_a_bot_to_finish_against(
    moderator: User, alice: Player, bob: Player
) -> None:
    game_id = start_game(alice, bob)
    ban(moderator, bob)
    assert alice.table(game_id)["status"] == "active"
    assert Seat.objects.get(game_id=game_id, user=bob.user).taken_over


def test_a_suspended_player_reclaims_their_seat_once_the_account_is_open(
    moderator: User, alice: Player, bob: Player, carol: Player
) -> None:
    game_id = start_game(alice, bob, carol)
    services.suspend(
        moderator=moderator,
        user_id=bob.user.pk,
        reason="Cool off.",
        until=timezone.now() + timedelta(days=1),
    )
    services.unban(moderator=moderator, user_id=bob.user.pk, reason="Appeal granted.")
    back = Player("bob", User.objects.get(pk=bob.user.pk), APIClient(), "")
    back.client.force_authenticate(back.user)
    response = back.post(f"/api/v1/games/{game_id}/reclaim/")
    assert response.status_code == 200, response.content
    assert not Seat.objects.get(game_id=game_id, user=bob.user).taken_over


def test_a_sanctioned_player_gets_a_moderation_notice(moderator: User, bob: Player) -> None:
    ban(moderator, bob, reason="Offensive chat.")
    notice = Notification.objects.get(user=bob.user, kind="moderation")
    assert "banned" in notice.data["message"]
    assert "Offensive chat." in notice.data["message"]


def test_a_ban_is_in_the_audit_log(moderator: User, bob: Player) -> None:
    ban(moderator, bob, reason="Colluding.")
    entry = AuditEntry.objects.get(action=audit.PLAYER_BANNED)
    assert entry.actor == moderator
    assert entry.actor_name == "mo"
    assert entry.target_user == bob.user
    assert entry.reason == "Colluding."
    assert entry.details["tokens_revoked"] == 1


def test_a_suspension_needs_an_end_and_a_reason(moderator: User, bob: Player) -> None:
    with pytest.raises(ServiceError) as no_end:
        services.suspend(moderator=moderator, user_id=bob.user.pk, reason="x", until=None)
    assert no_end.value.code == "until_required"
    with pytest.raises(ServiceError) as no_reason:
        services.suspend(
            moderator=moderator,
            user_id=bob.user.pk,
            reason="  ",
            until=timezone.now() + timedelta(days=1),
        )
    assert no_reason.value.code == "reason_required"
    assert bob.user.sanctions.count() == 0
    assert AuditEntry.objects.count() == 0


def test_a_suspension_that_ran_out_is_lifted_at_log_in(moderator: User, bob: Player) -> None:
    bob.user.set_password(PASSWORD)
    bob.user.save()
    services.suspend(
        moderator=moderator,
        user_id=bob.user.pk,
        reason="Cool off.",
        until=timezone.now() + timedelta(days=3),
    )
    client = APIClient()
    body = {"username": "Bob", "password": PASSWORD}
    assert client.post("/api/v1/auth/login/", body).status_code == 400
    Sanction.objects.filter(user=bob.user).update(until=timezone.now() - timedelta(seconds=1))
    assert client.post("/api/v1/auth/login/", body).status_code == 200
    assert AuditEntry.objects.filter(action=audit.SUSPENSION_EXPIRED, actor=None).count() == 1


def test_a_ban_with_an_end_is_lifted_like_a_suspension(moderator: User, bob: Player) -> None:
    services.suspend(
        moderator=moderator,
        user_id=bob.user.pk,
        reason="x",
        ban=True,
        until=timezone.now() + timedelta(days=1),
    )
    assert not services.end_expired_suspension(username="bob")
    Sanction.objects.update(until=timezone.now() - timedelta(seconds=1))
    assert services.end_expired_suspension(username="bob")
    assert User.objects.get(pk=bob.user.pk).is_active


def test_a_ban_without_an_end_is_never_lifted_by_time(moderator: User, bob: Player) -> None:
    ban(moderator, bob)
    assert not services.end_expired_suspension(username="bob")
    assert not User.objects.get(pk=bob.user.pk).is_active


def test_the_periodic_job_lifts_only_suspensions_that_ran_out(
    moderator: User, alice: Player, bob: Player, carol: Player
) -> None:
    from moderation import tasks

    for player, days in ((alice, 1), (bob, 2)):
        services.suspend(
            moderator=moderator,
            user_id=player.user.pk,
            reason="Cool off.",
            until=timezone.now() + timedelta(days=days),
        )
    ban(moderator, carol)  # no end: never lifted by time
    Sanction.objects.filter(user=alice.user).update(until=timezone.now() - timedelta(seconds=1))

    assert tasks.end_expired_suspensions.apply().get() == 1
    assert tasks.end_expired_suspensions() == 0  # a second run finds nothing left to do

    active = dict(User.objects.values_list("username", "is_active"))
    assert (active["alice"], active["bob"], active["carol"]) == (True, False, False)
    assert AuditEntry.objects.filter(action=audit.SUSPENSION_EXPIRED, actor=None).count() == 1


def test_unban_lets_the_player_log_in_again(moderator: User, bob: Player) -> None:
    bob.user.set_password(PASSWORD)
    bob.user.save()
    ban(moderator, bob)
    services.unban(moderator=moderator, user_id=bob.user.pk, reason="Appeal accepted.")
    client = APIClient()
    body = {"username": "bob", "password": PASSWORD}
    assert client.post("/api/v1/auth/login/", body).status_code == 200
    assert Sanction.objects.get(user=bob.user).lifted_by == moderator
    assert AuditEntry.objects.filter(action=audit.PLAYER_UNBANNED).count() == 1


def test_unbanning_a_player_in_good_standing_is_refused(moderator: User, bob: Player) -> None:
    with pytest.raises(ServiceError) as refused:
        services.unban(moderator=moderator, user_id=bob.user.pk, reason="x")
    assert refused.value.code == "not_restricted"


def test_a_warning_is_a_notice_and_an_audit_entry(moderator: User, bob: Player) -> None:
    services.warn(moderator=moderator, user_id=bob.user.pk, reason="Stop stalling.")
    assert bob.get("/api/v1/me/").status_code == 200  # still plays
    notice = Notification.objects.get(user=bob.user, kind="moderation")
    assert "Stop stalling." in notice.data["message"]
    assert AuditEntry.objects.get().action == audit.PLAYER_WARNED


def test_resetting_a_display_name_shows_a_neutral_one(
    moderator: User, alice: Player, bob: Player
) -> None:
    game_id = start_game(alice, bob)
    services.reset_display_name(moderator=moderator, user_id=bob.user.pk, reason="Slur.")
    names = {p["user_id"]: p["name"] for p in alice.table(game_id)["players"]}
    assert names[bob.user.pk] == f"Player {bob.user.pk}"
    entry = AuditEntry.objects.get(action=audit.NAME_RESET)
    assert entry.details["old_display_name"] == "Bob"


def test_a_moderator_cannot_sanction_staff_or_themselves(moderator: User) -> None:
    other = make_moderator("mo2")
    for target in (other, moderator):
        with pytest.raises(ServiceError) as refused:
            services.warn(moderator=moderator, user_id=target.pk, reason="x")
        assert refused.value.code == "not_allowed"


def test_an_administrator_may_sanction_a_moderator(superuser: User, moderator: User) -> None:
    services.suspend(
        moderator=superuser,
        user_id=moderator.pk,
        reason="Abused the tools.",
        until=timezone.now() + timedelta(days=7),
    )
    assert not User.objects.get(pk=moderator.pk).is_active


# ---------------------------------------------------------------------------------------------
# Report decisions


def open_report(alice: Player, bob: Player) -> Report:
    return Report.objects.create(reporter=alice.user, reported=bob.user, reason=Report.CHEATING)


def test_banning_from_a_report_closes_it(moderator: User, alice: Player, bob: Player) -> None:
    report = open_report(alice, bob)
    services.resolve_report(moderator=moderator, report_id=report.pk, action="ban", reason="Yes.")
    report.refresh_from_db()
    assert report.status == Report.ACTIONED
    assert report.resolution == "ban"
    assert report.resolved_by == moderator
    assert bob.get("/api/v1/me/").status_code == 401
    entry = AuditEntry.objects.get(action=audit.PLAYER_BANNED)
    assert entry.report == report


@pytest.mark.parametrize(
    ("action", "status", "logged"),
    [
        ("dismiss", Report.DISMISSED, audit.REPORT_DISMISSED),
        ("warn", Report.ACTIONED, audit.PLAYER_WARNED),
        ("suspend", Report.ACTIONED, audit.PLAYER_SUSPENDED),
        ("reset_name", Report.ACTIONED, audit.NAME_RESET),
    ],
)
def test_every_report_decision_closes_it_and_is_logged(
    moderator: User, alice: Player, bob: Player, action: str, status: str, logged: str
) -> None:
    report = open_report(alice, bob)
    until = timezone.now() + timedelta(days=2)
    services.resolve_report(
        moderator=moderator, report_id=report.pk, action=action, reason="Because.", until=until
    )
    report.refresh_from_db()
    assert report.status == status
    assert AuditEntry.objects.get(report=report).action == logged


def test_a_closed_report_cannot_be_acted_on_twice(
    moderator: User, alice: Player, bob: Player
) -> None:
    report = open_report(alice, bob)
    services.resolve_report(moderator=moderator, report_id=report.pk, action="warn", reason="x")
    with pytest.raises(ServiceError) as refused:
        services.resolve_report(moderator=moderator, report_id=report.pk, action="ban", reason="x")
    assert refused.value.code == "report_closed"
    assert bob.get("/api/v1/me/").status_code == 200


def test_a_failed_decision_leaves_the_report_open(
    moderator: User, alice: Player, bob: Player
) -> None:
    report = open_report(alice, bob)
    with pytest.raises(ServiceError):
        services.resolve_report(
            moderator=moderator, report_id=report.pk, action="suspend", reason="x"
        )  # no end date
    report.refresh_from_db()
    assert report.status == Report.OPEN
    assert AuditEntry.objects.count() == 0


def test_deleting_an_account_keeps_its_audit_entries(moderator: User, bob: Player) -> None:
    services.warn(moderator=moderator, user_id=bob.user.pk, reason="x")
    bob.user.delete()
    entry = AuditEntry.objects.get()
    assert entry.target_user is None
    assert "bob" in entry.target
