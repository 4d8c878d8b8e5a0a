"""The moderation admin: who may reach what (moderators, administrators, players), the report
queue and its actions, players and games pages, the replay, the audit log (append-only, CSV) and
the rate-limited log-in."""

from __future__ import annotations

import csv
import io
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.models import Game, Move, Seat
from moderation import audit, services
from moderation.models import AuditEntry, Report
from players.models import User
from tests.games.conftest import API_TESTS, Player, make_player, play_to_end, start_game
from tests.moderation.conftest import PASSWORD, logged_in, make_moderator, moderators_group

pytestmark = API_TESTS


def report_on(reporter: Player, reported: Player, **fields: Any) -> Report:
    fields.setdefault("reason", Report.CHEATING)
    return Report.objects.create(reporter=reporter.user, reported=reported.user, **fields)


def a_logged_entry(moderator: User, bob: Player) -> AuditEntry:
    services.warn(moderator=moderator, user_id=bob.user.pk, reason="Be nice.")
    return AuditEntry.objects.get()


# ---------------------------------------------------------------------------------------------
# Who may reach what


def test_a_player_cannot_reach_the_admin(alice: Player) -> None:
    alice.user.set_password(PASSWORD)
    alice.user.save()
    client = Client()
    response = client.post("/admin/login/", {"username": "alice", "password": PASSWORD})
    assert response.status_code == 200  # the form again, with an error
    assert "staff account" in response.content.decode()
    client.force_login(alice.user)
    for url in ("/admin/", "/admin/moderation/report/", "/admin/moderation/auditentry/"):
        response = client.get(url)
        assert response.status_code == 302 and "/admin/login/" in response["Location"], url


def test_a_players_token_does_not_open_the_admin(alice: Player) -> None:
    response = alice.client.get("/admin/moderation/report/")
    assert response.status_code == 302
    assert "/admin/login/" in response["Location"]


def test_a_moderator_sees_the_moderation_screens(mod_client: Client) -> None:
    index = mod_client.get("/admin/").content.decode()
    for name in ("Reports", "Audit log", "Collusion signals", "Games", "Users", "Sanctions"):
        assert name in index, name
    assert "Groups" not in index  # nothing about permissions


def test_a_moderator_cannot_grant_permissions(
    mod_client: Client, moderator: User, bob: Player
) -> None:
    group = moderators_group()
    perm = Permission.objects.get(codename="change_user")
    attempts = [
        ("/admin/auth/group/add/", {"name": "admins", "permissions": [perm.pk]}),
        (
            f"/admin/auth/group/{group.pk}/change/",
            {"name": "moderators", "permissions": [perm.pk]},
        ),
        (
            f"/admin/players/user/{moderator.pk}/change/",
            {"username": "mo", "is_superuser": "on", "is_staff": "on"},
        ),
        (
            f"/admin/players/user/{bob.user.pk}/change/",
            {"username": "bob", "is_staff": "on", "groups": [group.pk]},
        ),
        (f"/admin/players/user/{bob.user.pk}/password/", {"password1": "x", "password2": "x"}),
        ("/admin/players/user/add/", {"username": "sock", "password1": "x", "password2": "x"}),
    ]
    for url, data in attempts:
        assert mod_client.post(url, data).status_code == 403, url
    moderator.refresh_from_db()
    assert not moderator.is_superuser
    assert not User.objects.get(pk=bob.user.pk).is_staff
    assert list(group.permissions.filter(codename="change_user")) == []


def test_the_moderators_group_has_only_view_and_moderation_permissions() -> None:
    codenames = set(moderators_group().permissions.values_list("codename", flat=True))
    assert all(c.startswith("view_") or c in MODERATION_ACTS for c in codenames), codenames
    assert {"resolve_report", "sanction_player", "intervene_game", "view_replay"} <= codenames
    assert "void_ratings" in codenames


MODERATION_ACTS = {"resolve_report", "sanction_player", "intervene_game", "void_ratings"}


@pytest.mark.parametrize("who", ["moderator", "superuser"])
def test_nobody_may_add_change_or_delete_audit_entries(
    who: str, request: pytest.FixtureRequest, moderator: User, bob: Player
) -> None:
    entry = a_logged_entry(moderator, bob)
    client = logged_in(request.getfixturevalue(who))
    base = "/admin/moderation/auditentry/"
    assert client.get(f"{base}{entry.pk}/change/").status_code == 200  # readable
    assert client.post(f"{base}{entry.pk}/change/", {"reason": "edited"}).status_code == 403
    assert client.post(f"{base}{entry.pk}/delete/", {"post": "yes"}).status_code == 403
    assert client.post(f"{base}add/", {"reason": "forged"}).status_code == 403
    assert client.post(
        base, {"action": "delete_selected", "_selected_action": [entry.pk], "post": "yes"}
    ).status_code in (200, 302, 403)
    entry.refresh_from_db()
    assert entry.reason == "Be nice."
    assert AuditEntry.objects.count() == 1


def test_the_audit_log_refuses_changes_below_the_admin_too(moderator: User, bob: Player) -> None:
    entry = a_logged_entry(moderator, bob)
    entry.reason = "edited"
    with pytest.raises(PermissionError):
        entry.save()
    with pytest.raises(PermissionError):
        entry.delete()
    with pytest.raises(PermissionError):
        AuditEntry.objects.update(reason="edited")
    with pytest.raises(PermissionError):
        AuditEntry.objects.all().delete()


# ---------------------------------------------------------------------------------------------
# The report queue


def test_the_queue_lists_open_reports_first(
    mod_client: Client, moderator: User, alice: Player, bob: Player, carol: Player
) -> None:
    closed = report_on(alice, bob)
    services.resolve_report(moderator=moderator, report_id=closed.pk, action="dismiss", reason="x")
    older_open = report_on(carol, bob)
    Report.objects.filter(pk=older_open.pk).update(
        last_reported_at=timezone.now() - timedelta(days=3)
    )
    response = mod_client.get("/admin/moderation/report/")
    assert response.status_code == 200
    shown = [r.pk for r in response.context["cl"].result_list]
    assert shown == [older_open.pk, closed.pk]


def test_the_queue_filters_by_reason_status_and_player(
    mod_client: Client, alice: Player, bob: Player, carol: Player
) -> None:
    on_bob = report_on(alice, bob, reason=Report.STALLING)
    on_carol = report_on(alice, carol, reason=Report.OFFENSIVE_NAME)

    def shown(**params: Any) -> list[int]:
        response = mod_client.get("/admin/moderation/report/", params)
        assert response.status_code == 200, response.content[:300]
        return [r.pk for r in response.context["cl"].result_list]

    assert shown(reason__exact="stalling") == [on_bob.pk]
    assert shown(status__exact="open") == sorted([on_bob.pk, on_carol.pk], reverse=True)
    assert shown(reported__id__exact=carol.user.pk) == [on_carol.pk]
    assert shown(q="carol") == [on_carol.pk]


def test_a_report_shows_the_players_recent_games_and_reports(
    mod_client: Client, alice: Player, bob: Player, carol: Player
) -> None:
    game_id = start_game(bob, carol)
    report = report_on(alice, bob, details="He and carol team up.")
    report_on(carol, bob, reason=Report.STALLING)
    page = mod_client.get(f"/admin/moderation/report/{report.pk}/change/").content.decode()
    assert "He and carol team up." in page
    assert game_id[:8] in page
    assert "Stalling or abandoning games" in page
    assert 'id="action-ban"' in page


def test_the_moderation_pages_carry_no_inline_style_or_script(
    mod_client: Client, alice: Player, bob: Player, carol: Player
) -> None:
    # The Content-Security-Policy runs only the service's own files: an inline <style> or
    # <script> on these pages is silently dropped by the browser (the report page lost its
    # layout and Ban's confirmation), so the pages link static files instead.
    game_id = start_game(bob, carol)
    report = report_on(alice, bob)
    services.warn(moderator=make_moderator("mo2"), user_id=bob.user.pk, reason="Be nice.")
    for url in (
        f"/admin/moderation/report/{report.pk}/change/",
        f"/admin/players/user/{bob.user.pk}/change/",
        f"/admin/games/game/{game_id}/change/",
        f"/admin/games/game/{game_id}/replay/",
        "/admin/moderation/auditentry/",
    ):
        response = mod_client.get(url)
        assert response.status_code == 200, url
        policy = response["Content-Security-Policy"]
        assert "'unsafe-inline'" not in policy and "style-src 'self'" in policy, url
        page = response.content.decode()
        assert "<style" not in page and "<script>" not in page and " style=" not in page, url
    assert (
        "moderation/confirm.js"
        in mod_client.get(f"/admin/moderation/report/{report.pk}/change/").content.decode()
    )


def test_a_report_names_the_players_bots_and_the_reporters_history(
    mod_client: Client, alice: Player, bob: Player, carol: Player
) -> None:
    bob.user.display_name = "B0b the Rude"
    bob.user.save()
    game_id = start_game(bob, carol)
    game = Game.objects.get(pk=game_id)
    Seat.objects.create(game=game, user=None, bot_level="easy", bot_name="Robo", position=None)
    earlier = report_on(alice, carol, reason=Report.STALLING)
    services.resolve_report(
        moderator=make_moderator("mo2"), report_id=earlier.pk, action="dismiss", reason="Fine."
    )
    report = report_on(alice, bob, reason=Report.OFFENSIVE_NAME)
    page = mod_client.get(f"/admin/moderation/report/{report.pk}/change/").content.decode()
    # The display name is what an "offensive name" report is about.
    assert "Reported: <strong>B0b the Rude</strong> (username @bob)" in page
    # Bots are named as bots, not "(deleted)"; people by name and username.
    assert "Robo (bot, easy)" in page and "(deleted" not in page
    assert "Carol (@carol)" in page
    # The reporter's history: their earlier report and how it ended.
    assert "The reporter's history: Alice (@alice)" in page
    assert "Dismissed 1" in page and f'href="/admin/moderation/report/{earlier.pk}/change/"' in page
    assert "Back to the report queue" in page and ">Close<" not in page


def test_banning_from_the_report_page(
    mod_client: Client, moderator: User, alice: Player, bob: Player
) -> None:
    report = report_on(alice, bob)
    url = reverse("admin:moderation_report_resolve", args=[report.pk])
    response = mod_client.post(url, {"action": "ban", "reason": "Cheating."}, follow=True)
    assert response.status_code == 200
    assert "Banned bob." in response.content.decode()
    report.refresh_from_db()
    assert report.status == Report.ACTIONED
    assert bob.get("/api/v1/me/").status_code == 401
    assert AuditEntry.objects.get(report=report).actor == moderator


def test_a_report_action_without_a_reason_changes_nothing(
    mod_client: Client, alice: Player, bob: Player
) -> None:
    report = report_on(alice, bob)
    url = reverse("admin:moderation_report_resolve", args=[report.pk])
    response = mod_client.post(url, {"action": "ban", "reason": ""}, follow=True)
    assert "reason" in response.content.decode()
    report.refresh_from_db()
    assert report.status == Report.OPEN
    assert bob.get("/api/v1/me/").status_code == 200


def test_staff_without_the_moderators_group_cannot_act(alice: Player, bob: Player) -> None:
    staff = User.objects.create_user(username="intern", is_staff=True)
    report = report_on(alice, bob)
    client = logged_in(staff)
    url = reverse("admin:moderation_report_resolve", args=[report.pk])
    assert client.post(url, {"action": "ban", "reason": "x"}).status_code == 403
    assert client.get("/admin/moderation/report/").status_code == 403


# ---------------------------------------------------------------------------------------------
# Players


def test_moderators_search_players_and_suspend_with_an_end_date(
    mod_client: Client, bob: Player
) -> None:
    found = mod_client.get("/admin/players/user/", {"q": "bo"})
    assert [u.pk for u in found.context["cl"].result_list] == [bob.user.pk]
    page = mod_client.get(f"/admin/players/user/{bob.user.pk}/change/").content.decode()
    assert "pbkdf2" not in page and "md5" not in page  # no password hash for moderators
    until = (timezone.now() + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M")
    url = reverse("admin:players_user_moderate", args=[bob.user.pk])
    response = mod_client.post(
        url, {"action": "suspend", "reason": "Cool off.", "until": until}, follow=True
    )
    assert "Suspended bob." in response.content.decode()
    assert "Suspension until" in response.content.decode()
    assert bob.get("/api/v1/me/").status_code == 401
    response = mod_client.post(url, {"action": "unban", "reason": "Appeal."}, follow=True)
    assert "Unbanned bob" in response.content.decode()
    assert User.objects.get(pk=bob.user.pk).is_active


# ---------------------------------------------------------------------------------------------
# Games: list, replay, interventions


def test_games_filter_by_status_preset_and_player(
    mod_client: Client, alice: Player, bob: Player, carol: Player
) -> None:
    ab = start_game(alice, bob)
    bc = start_game(bob, carol, preset="mattel_2021")

    def shown(**params: Any) -> set[str]:
        response = mod_client.get("/admin/games/game/", params)
        assert response.status_code == 200, response.content[:300]
        return {str(g.pk) for g in response.context["cl"].result_list}

    assert shown(player=alice.user.pk) == {ab}
    assert shown(preset__exact="mattel_2021") == {bc}
    assert shown(status__exact="active") == {ab, bc}
    assert shown(q="carol") == {bc}
    today = timezone.now().replace(hour=0, minute=0, second=0, microsecond=0).isoformat()
    assert shown(created_at__gte=today) == {ab, bc}


def test_the_game_page_shows_no_cards_or_invite_code(mod_client: Client, alice: Player) -> None:
    from tests.games.conftest import new_lobby

    lobby = new_lobby(alice)
    page = mod_client.get(f"/admin/games/game/{lobby['id']}/change/").content.decode()
    assert lobby["invite_code"] not in page


def test_the_game_page_says_its_options_and_turn_limit_in_words(
    mod_client: Client, alice: Player
) -> None:
    from tests.games.conftest import new_lobby

    lobby = new_lobby(alice, options={"stacking": True, "mercy": True})
    page = mod_client.get(f"/admin/games/game/{lobby['id']}/change/").content.decode()
    assert "Stacking, Mercy" in page
    assert "1 day per turn" in page
    assert "86400" not in page and "&quot;stacking&quot;" not in page
    plain = new_lobby(alice, turn_seconds=5400)
    page = mod_client.get(f"/admin/games/game/{plain['id']}/change/").content.decode()
    assert "None (the standard rules)" in page and "1 hour 30 minutes per turn" in page


def finished_game(players: list[Player], seed: int = 7) -> str:
    import random

    game_id = start_game(*players, target_score=0)
    play_to_end(players, game_id, random.Random(seed))
    return game_id


def test_the_replay_shows_every_hand_and_the_draw_pile_after_move_n(
    mod_client: Client, moderator: User, alice: Player, bob: Player, carol: Player
) -> None:
    game_id = finished_game([alice, bob, carol])
    url = reverse("admin:games_game_replay", args=[game_id])
    last = mod_client.get(url)
    assert last.status_code == 200
    assert last.context["matches_stored"] is True  # the replay reaches the stored state
    first = Move.objects.filter(game_id=game_id).order_by("number").first()
    assert first is not None
    response = mod_client.get(url, {"move": first.number})
    page = response.content.decode()
    game = Game.objects.get(pk=game_id)
    dealt = first.events
    assert response.context["move"].number == first.number
    hands = response.context["hands"]
    # Seven cards dealt each; the opening card's effect can only add some.
    assert len(hands) == 3 and all(len(h["cards"]) >= 7 for h in hands)
    draw = response.context["draw_pile"]
    assert (
        len(draw) + sum(len(h["cards"]) for h in hands) + len(response.context["discard_pile"])
        == 112
    )
    assert draw[0]["id"] in page  # the next card to be drawn is there (its id as a tooltip)
    assert f">{draw[0]['name']}<" in page  # ... and named as a player reads it
    # Drawn as the table: names, named cards, the log in words; no Python dicts.
    for player in (alice, bob, carol):
        assert f"{player.user.public_name} (@{player.user.username})" in page
    assert "{&#x27;" not in page and "{'" not in page
    assert 'id="replay-next"' in page and "Next ›" in page and "Last »" in page
    assert dealt and game.status == Game.FINISHED
    assert AuditEntry.objects.filter(action=audit.REPLAY_VIEWED, actor=moderator).count() == 2


def test_a_seated_moderator_cannot_open_that_games_replay(
    alice: Player, bob: Player, carol: Player
) -> None:
    mo = make_player("mo2")
    mo.user.is_staff = True
    mo.user.save()
    mo.user.groups.add(moderators_group())
    own = start_game(mo, alice)
    other = start_game(bob, carol)
    client = logged_in(mo.user)
    assert client.get(reverse("admin:games_game_replay", args=[own])).status_code == 403
    assert client.get(reverse("admin:games_game_replay", args=[other])).status_code == 200
    page = client.get(f"/admin/games/game/{own}/change/").content.decode()
    assert 'id="replay-link"' not in page and 'id="intervene-form"' not in page
    url = reverse("admin:games_game_intervene", args=[own])
    assert client.post(url, {"action": "abort", "reason": "x"}).status_code == 403
    assert Game.objects.get(pk=own).status == Game.ACTIVE


def test_a_seated_administrator_cannot_open_that_games_replay(
    superuser: User, alice: Player
) -> None:
    game = start_game(alice, make_player("other"))
    Seat.objects.filter(game_id=game, user=alice.user).update(user=superuser)
    client = logged_in(superuser)
    assert client.get(reverse("admin:games_game_replay", args=[game])).status_code == 403


def test_a_player_cannot_open_a_replay(alice: Player, bob: Player, carol: Player) -> None:
    game_id = start_game(bob, carol)
    client = Client()
    client.force_login(alice.user)
    response = client.get(reverse("admin:games_game_replay", args=[game_id]))
    assert response.status_code == 302 and "/admin/login/" in response["Location"]


def test_aborting_from_the_game_page(mod_client: Client, alice: Player, bob: Player) -> None:
    game_id = start_game(alice, bob)
    page = mod_client.get(f"/admin/games/game/{game_id}/change/").content.decode()
    assert 'id="action-abort"' in page
    url = reverse("admin:games_game_intervene", args=[game_id])
    response = mod_client.post(url, {"action": "abort", "reason": "Bots."}, follow=True)
    assert "aborted" in response.content.decode()
    assert alice.table(game_id)["status"] == "aborted"


def test_removing_a_player_from_the_game_page(
    mod_client: Client, alice: Player, bob: Player, carol: Player
) -> None:
    game_id = start_game(alice, bob, carol)
    url = reverse("admin:games_game_intervene", args=[game_id])
    mod_client.post(url, {"action": "remove", "player": bob.user.pk, "reason": "Stalling."})
    assert Seat.objects.get(game_id=game_id, user=bob.user).left_at is not None


def test_forcing_a_timeout_from_the_game_page(
    mod_client: Client, alice: Player, bob: Player
) -> None:
    game_id = start_game(alice, bob)
    version = Game.objects.get(pk=game_id).version
    url = reverse("admin:games_game_intervene", args=[game_id])
    mod_client.post(url, {"action": "timeout", "reason": "Stalling."})
    assert Game.objects.get(pk=game_id).version > version


# ---------------------------------------------------------------------------------------------
# Audit log: list, export


def test_the_audit_log_exports_as_csv_with_the_lists_filters(
    mod_client: Client, moderator: User, bob: Player, carol: Player
) -> None:
    services.warn(moderator=moderator, user_id=bob.user.pk, reason="=HYPERLINK(evil)")
    services.warn(moderator=moderator, user_id=carol.user.pk, reason="Other")
    services.suspend(
        moderator=moderator,
        user_id=carol.user.pk,
        reason="x",
        until=timezone.now() + timedelta(days=1),
    )
    page = mod_client.get("/admin/moderation/auditentry/").content.decode()
    assert 'id="export-csv"' in page
    response = mod_client.get(
        "/admin/moderation/auditentry/export.csv", {"action__exact": audit.PLAYER_WARNED}
    )
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(b"".join(response.streaming_content).decode())))
    assert rows[0][:5] == ["created_at", "actor", "action", "target", "reason"]
    assert len(rows) == 3
    assert {r[2] for r in rows[1:]} == {audit.PLAYER_WARNED}
    assert "'=HYPERLINK(evil)" in {r[4] for r in rows[1:]}  # no formula for spreadsheets


def test_the_audit_list_counts_its_entries_in_english(
    mod_client: Client, moderator: User, bob: Player
) -> None:
    services.warn(moderator=moderator, user_id=bob.user.pk, reason="One")
    page = mod_client.get("/admin/moderation/auditentry/").content.decode()
    assert "1 entry in the audit log" in page and "1 audit entry" not in page
    services.warn(moderator=moderator, user_id=bob.user.pk, reason="Two")
    page = mod_client.get("/admin/moderation/auditentry/").content.decode()
    assert "2 entries in the audit log" in page and "2 audit log" not in page


def change_user(client: Client, user: User, **changes: Any) -> None:
    """Post the user admin's change form as an administrator would: as shown, plus ``changes``."""
    url = reverse("admin:players_user_change", args=[user.pk])
    form = client.get(url).context["adminform"].form
    data: dict[str, Any] = {}
    for field in form:
        if field.field.disabled:
            continue
        value = field.value()
        if isinstance(value, (list, tuple)) and field.name in ("groups", "user_permissions"):
            data[field.html_name] = [getattr(v, "pk", v) for v in value]
        elif hasattr(field.field, "fields"):  # a split date and time
            for i, part in enumerate(field.field.widget.decompress(value)):
                data[f"{field.html_name}_{i}"] = "" if part is None else part
        elif isinstance(value, bool):
            if value:
                data[field.html_name] = "on"
        elif value is not None:
            data[field.html_name] = value
    for name, value in changes.items():
        if value is False:
            data.pop(name, None)
        else:
            data[name] = value
    response = client.post(url, data)
    assert response.status_code == 302, response.context["adminform"].form.errors


def test_granting_and_removing_the_moderator_role_is_in_the_audit_log(
    root_client: Client, superuser: User, carol: Player
) -> None:
    group = moderators_group()
    change_user(root_client, carol.user, is_staff="on", groups=[group.pk])
    granted = AuditEntry.objects.get(action=audit.MODERATOR_GRANTED)
    assert granted.actor == superuser and granted.target_user == carol.user
    change_user(root_client, carol.user, display_name="Carol C")  # no role change: no entry
    assert AuditEntry.objects.filter(target_user=carol.user).count() == 1
    change_user(root_client, carol.user, groups=[])
    removed = AuditEntry.objects.get(action=audit.MODERATOR_REMOVED)
    assert removed.actor == superuser and removed.target_user == carol.user


def test_a_player_cannot_export_the_audit_log(alice: Player) -> None:
    client = Client()
    client.force_login(alice.user)
    assert client.get("/admin/moderation/auditentry/export.csv").status_code == 302


# ---------------------------------------------------------------------------------------------
# Log-in


def test_admin_log_in_is_rate_limited(moderator: User, settings: Any) -> None:
    settings.LOGIN_FAILURES_BEFORE_DELAY = 3
    client = Client()
    for _ in range(3):
        response = client.post("/admin/login/", {"username": "mo", "password": "wrong"})
        assert "Too many" not in response.content.decode()
    refused = client.post("/admin/login/", {"username": "mo", "password": PASSWORD})
    assert "Too many failed log-in attempts" in refused.content.decode()
    assert "_auth_user_id" not in client.session


def test_a_moderator_logs_in_to_the_admin(moderator: User) -> None:
    client = Client()
    response = client.post("/admin/login/?next=/admin/", {"username": "mo", "password": PASSWORD})
    assert response.status_code == 302
    assert client.get("/admin/moderation/report/").status_code == 200


# ---------------------------------------------------------------------------------------------
# Collusion page


def test_the_collusion_page_opens_for_moderators_only(mod_client: Client, alice: Player) -> None:
    response = mod_client.get("/admin/moderation/collusionsignal/")
    assert response.status_code == 200
    assert "No pair is outside chance." in response.content.decode()
    assert mod_client.get("/admin/moderation/collusionsignal/", {"all": "1"}).status_code == 200
    staff = User.objects.create_user(username="intern", is_staff=True)
    assert logged_in(staff).get("/admin/moderation/collusionsignal/").status_code == 403
