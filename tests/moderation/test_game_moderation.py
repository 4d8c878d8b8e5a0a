"""Game interventions (moderation.interventions): abort, remove a player, force the current turn to
out. Each needs a reason, is refused to a moderator seated in the game, and is logged."""

from __future__ import annotations

import pytest

from config.errors import ServiceError
from games.models import Game, Move, Seat
from moderation import audit, interventions
from moderation.models import AuditEntry
from notifications.models import Notification
from players.models import User
from tests.games.conftest import API_TESTS, Player, new_lobby, player_to_move, start_game

pytestmark = API_TESTS


def test_an_aborted_game_is_final_with_no_scores(
    moderator: User, alice: Player, bob: Player, carol: Player
) -> None:
    game_id = start_game(alice, bob, carol)
    interventions.abort_game(moderator=moderator, game_id=game_id, reason="Collusion.")
    table = alice.table(game_id)
    assert table["status"] == "aborted"
    assert table["finished_at"] is not None
    assert table["turn_deadline"] is None
    assert all(p["final_score"] is None and p["place"] is None for p in table["players"])
    response = alice.act(game_id, {"type": "draw"})
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "game_over"
    assert bob.get("/api/v1/me/stats/").json()["games_played"] == 0  # counts for nobody


def test_aborting_is_logged_and_the_players_are_told(
    moderator: User, alice: Player, bob: Player
) -> None:
    game_id = start_game(alice, bob)
    interventions.abort_game(moderator=moderator, game_id=game_id, reason="Collusion.")
    entry = AuditEntry.objects.get(action=audit.GAME_ABORTED)
    assert entry.actor == moderator
    assert str(entry.target_game_id) == game_id
    assert entry.reason == "Collusion."
    notices = Notification.objects.filter(kind="moderation", game_id=game_id)
    assert {n.user_id for n in notices} == {alice.user.pk, bob.user.pk}
    # The players are told the game ended, not the moderators' reason.
    assert all("Collusion" not in n.data["message"] for n in notices)


def test_a_lobby_can_be_aborted_too(moderator: User, alice: Player) -> None:
    lobby = new_lobby(alice)
    interventions.abort_game(moderator=moderator, game_id=lobby["id"], reason="Spam lobby.")
    assert Game.objects.get(pk=lobby["id"]).status == Game.ABORTED


def test_a_finished_game_cannot_be_aborted(moderator: User, alice: Player, bob: Player) -> None:
    game_id = start_game(alice, bob)
    alice.leave(game_id)
    with pytest.raises(ServiceError) as refused:
        interventions.abort_game(moderator=moderator, game_id=game_id, reason="x")
    assert refused.value.code == "game_over"


def test_every_intervention_needs_a_reason(moderator: User, alice: Player, bob: Player) -> None:
    game_id = start_game(alice, bob)
    calls = [
        lambda: interventions.abort_game(moderator=moderator, game_id=game_id, reason=""),
        lambda: interventions.force_timeout(moderator=moderator, game_id=game_id, reason=" "),
        lambda: interventions.remove_player(
            moderator=moderator, game_id=game_id, user_id=bob.user.pk, reason=""
        ),
    ]
    for call in calls:
        with pytest.raises(ServiceError) as refused:
            call()
        assert refused.value.code == "reason_required"
    assert Game.objects.get(pk=game_id).status == Game.ACTIVE


def test_removing_a_player_takes_them_out_per_the_rules(
    moderator: User, alice: Player, bob: Player, carol: Player
) -> None:
    game_id = start_game(alice, bob, carol)
    interventions.remove_player(
        moderator=moderator, game_id=game_id, user_id=bob.user.pk, reason="Stalling."
    )
    seat = Seat.objects.get(game_id=game_id, user=bob.user)
    assert seat.left_at is not None
    table = alice.table(game_id)
    assert not table["table"]["seats"][seat.position]["active"]
    assert Move.objects.filter(game_id=game_id, action__type="leave").count() == 1
    assert AuditEntry.objects.get(action=audit.PLAYER_REMOVED).target_user == bob.user
    notice = Notification.objects.get(user=bob.user, kind="moderation")
    assert "Stalling." in notice.data["message"]
    # bob can still read the game, but no longer act in it.
    assert bob.act(game_id, {"type": "draw"}).json()["error"]["code"] == "not_in_game"


def test_removing_a_player_from_a_lobby_frees_the_seat(
    moderator: User, alice: Player, bob: Player
) -> None:
    lobby = new_lobby(alice, max_players=3)
    bob.join_by_code(lobby["invite_code"])
    interventions.remove_player(
        moderator=moderator, game_id=lobby["id"], user_id=bob.user.pk, reason="x"
    )
    assert not Seat.objects.filter(game_id=lobby["id"], user=bob.user).exists()


def test_removing_someone_without_a_seat_is_not_found(
    moderator: User, alice: Player, bob: Player, carol: Player
) -> None:
    game_id = start_game(alice, bob)
    with pytest.raises(ServiceError) as refused:
        interventions.remove_player(
            moderator=moderator, game_id=game_id, user_id=carol.user.pk, reason="x"
        )
    assert refused.value.code == "not_found"


def test_forcing_a_timeout_passes_the_turn(
    moderator: User, alice: Player, bob: Player, carol: Player
) -> None:
    players = [alice, bob, carol]
    game_id = start_game(alice, bob, carol)
    staller = player_to_move(players, game_id)
    before = Game.objects.get(pk=game_id)
    interventions.force_timeout(moderator=moderator, game_id=game_id, reason="Stalling.")
    after = Game.objects.get(pk=game_id)
    assert after.version > before.version
    last = Move.objects.filter(game_id=game_id).order_by("-number").first()
    assert last is not None and last.action["type"] == "timeout"
    seat = Seat.objects.get(game_id=game_id, user=staller.user)
    assert seat.timeouts_in_row == 1  # counts toward the timeout policy like a real timeout
    entry = AuditEntry.objects.get(action=audit.TURN_TIMED_OUT)
    assert entry.target_user == staller.user
    assert after.turn_deadline is not None and after.turn_deadline > entry.created_at


def test_forced_timeouts_take_a_staller_out_by_the_timeout_policy(
    moderator: User, alice: Player, bob: Player, carol: Player
) -> None:
    game_id = start_game(alice, bob, carol)
    Game.objects.filter(pk=game_id).update(max_timeouts=1, timeout_policy=Game.POLICY_LEAVE)
    staller = player_to_move([alice, bob, carol], game_id)
    interventions.force_timeout(moderator=moderator, game_id=game_id, reason="Stalling.")
    assert Seat.objects.get(game_id=game_id, user=staller.user).left_at is not None


def test_a_seated_moderator_cannot_intervene(alice: Player, bob: Player) -> None:
    game_id = start_game(alice, bob)
    alice.user.is_staff = True
    alice.user.save()
    for call in (
        lambda: interventions.abort_game(moderator=alice.user, game_id=game_id, reason="x"),
        lambda: interventions.force_timeout(moderator=alice.user, game_id=game_id, reason="x"),
        lambda: interventions.remove_player(
            moderator=alice.user, game_id=game_id, user_id=bob.user.pk, reason="x"
        ),
    ):
        with pytest.raises(ServiceError) as refused:
            call()
        assert refused.value.code == "seated_moderator"
    assert Game.objects.get(pk=game_id).status == Game.ACTIVE
    assert AuditEntry.objects.count() == 0
