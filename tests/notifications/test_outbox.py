"""Which moves notify whom: inbox rows written with the move, exactly once, to the right players."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import transaction

from config.errors import ServiceError
from games import services
from games.engine.uno.state import State
from games.models import Game, Move
from notifications import outbox
from notifications.kinds import STREAM_ONLY
from notifications.models import Delivery, Notification
from tests.games.conftest import Player, give_card, set_state
from tests.notifications.conftest import (
    act,
    clear_outbox,
    inbox,
    kinds_of,
    new_game,
    others,
    pass_turn,
    seat_of,
    started,
    to_move,
)

pytestmark = pytest.mark.django_db


def test_a_started_game_tells_only_the_first_player_it_is_their_turn(
    alice: Player, bob: Player
) -> None:
    game = new_game(alice, bob)  # this deal opens on a plain Wild: no opening effect
    first = to_move(game, alice, bob)
    (second,) = others(game, alice, bob)

    assert kinds_of(first) == ["your_turn"]
    assert kinds_of(second) == []
    (notice,) = inbox(first)
    assert notice.game_id == game.pk
    assert notice.data == {
        "opponents": [second.user.public_name],
        "deadline": game.turn_deadline.isoformat(),
        "version": game.version,
    }


def test_passing_the_turn_notifies_the_next_player_once(alice: Player, bob: Player) -> None:
    game, mover, (waiting,) = started(alice, bob)
    clear_outbox()

    act(mover, game, type="draw")
    assert Notification.objects.count() == 0  # a draw mid-turn keeps the turn: nothing to say

    act(mover, game, type="pass")
    assert kinds_of(waiting) == ["your_turn"]
    assert kinds_of(mover) == []


def test_every_inbox_row_has_its_own_stable_event_id(alice: Player, bob: Player) -> None:
    game = new_game(alice, bob)
    for _ in range(4):
        pass_turn(to_move(game, alice, bob), game)
    ids = list(Notification.objects.values_list("event_id", flat=True))
    assert len(ids) == 7 and len(set(ids)) == 7  # 5 turns, and 2 players told of the start


def test_a_move_that_fails_writes_no_notification(
    alice: Player, bob: Player, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = new_game(alice, bob)
    mover = to_move(game, alice, bob)
    act(mover, game, type="draw")
    clear_outbox()
    real = outbox.write

    def write_then_fail(*args: Any, **kwargs: Any) -> Any:
        real(*args, **kwargs)
        assert Notification.objects.exists()  # written inside the move's transaction...
        raise RuntimeError("the move fails after its outbox rows were written")

    monkeypatch.setattr(outbox, "write", write_then_fail)
    # The test runs inside a transaction, so the move runs inside a caller's transaction, as a
    # keyed action does (games.idempotency): it takes no savepoint of its own there, and the
    # error rolls back the caller's transaction with everything in it.
    with pytest.raises(RuntimeError), transaction.atomic():
        act(mover, game, type="pass")
    # ...and rolled back with it.
    assert not Notification.objects.exists()
    assert not Delivery.objects.exists()
    assert Game.objects.get(pk=game.pk).version == game.version + 1


def test_a_refused_move_writes_no_notification(alice: Player, bob: Player) -> None:
    game = new_game(alice, bob)
    (waiting,) = others(game, alice, bob)
    clear_outbox()
    with pytest.raises(ServiceError):
        act(waiting, game, type="draw")  # not their turn
    assert not Notification.objects.exists()


def test_caught_without_uno_notifies_the_caught_player(
    alice: Player, bob: Player, carol: Player
) -> None:
    game, mover, (victim, catcher) = started(alice, bob, carol)
    target = seat_of(game, victim)

    def one_card_no_uno(state: dict[str, Any]) -> None:
        seat = state["seats"][target]
        state["draw_pile"].extend(seat["hand"][1:])
        seat["hand"] = seat["hand"][:1]
        seat["uno"] = False
        seat["exposed"] = True

    set_state(game.pk, one_card_no_uno)
    clear_outbox()
    act(catcher, game, type="catch", target=target)

    (notice,) = inbox(victim)
    assert notice.kind == "caught"
    assert notice.data == {"by": catcher.user.public_name, "cards": 2}
    assert kinds_of(catcher) == [] and kinds_of(mover) == []


def test_a_targeted_draw_2_notifies_its_target(alice: Player, bob: Player, carol: Player) -> None:
    game, mover, (victim, bystander) = started(alice, bob, carol)
    card = give_card(game.pk, seat_of(game, mover), "targeted_draw2")
    clear_outbox()

    act(mover, game, type="play", card=card, target=seat_of(game, victim))

    assert "targeted" in kinds_of(victim)
    (notice,) = inbox(victim, "targeted")
    assert notice.data == {"by": mover.user.public_name}
    assert "targeted" not in kinds_of(bystander)
    # Drawn cards are secret: nothing about them reaches the inbox.
    assert "cards" not in str(notice.data)


def test_a_force_swap_notifies_the_other_hand(alice: Player, bob: Player, carol: Player) -> None:
    game, mover, (victim, bystander) = started(alice, bob, carol)
    card = give_card(game.pk, seat_of(game, mover), "force_swap")
    clear_outbox()

    act(mover, game, type="play", card=card, target=seat_of(game, victim))

    (notice,) = inbox(victim, "swapped")
    assert notice.data == {"by": mover.user.public_name}
    assert inbox(bystander, "swapped") == []


def test_a_timeout_notifies_the_late_player_and_passes_the_turn(alice: Player, bob: Player) -> None:
    game, late, (waiting,) = started(alice, bob)
    clear_outbox()

    assert services.sweep_expired_turns(now=game.turn_deadline + timedelta(seconds=1)) == 1

    assert kinds_of(late) == ["timed_out"]
    assert inbox(late)[0].data["opponents"] == [waiting.user.public_name]
    assert kinds_of(waiting) == ["your_turn"]


def test_speed_mode_turns_send_no_your_turn_and_no_timed_out(alice: Player, bob: Player) -> None:
    game = new_game(alice, bob, options={"speed_mode": True})
    assert Notification.objects.filter(kind="your_turn").count() == 0
    mover = to_move(game, alice, bob)
    act(mover, game, type="draw")
    act(mover, game, type="pass")
    game.refresh_from_db()
    assert services.sweep_expired_turns(now=game.turn_deadline + timedelta(seconds=1)) == 1
    assert not Notification.objects.filter(kind__in=["your_turn", "timed_out"]).exists()


def play_the_last_card(game: Game, winner: Player) -> None:
    """``winner`` (to move) is left one card, the outbox is emptied, and the card played."""
    position = seat_of(game, winner)

    def last_card(state: dict[str, Any]) -> None:
        seat = state["seats"][position]
        state["draw_pile"].extend(seat["hand"][1:])
        seat["hand"] = seat["hand"][:1]

    state = set_state(game.pk, last_card)
    clear_outbox()
    act(winner, game, type="play", card=state["seats"][position]["hand"][0])


def test_the_end_of_a_match_tells_every_player_once(
    alice: Player, bob: Player, carol: Player
) -> None:
    game = new_game(alice, bob, carol, target_score=0)  # one round decides the match
    winner = to_move(game, alice, bob, carol)
    play_the_last_card(game, winner)

    assert Game.objects.get(pk=game.pk).status == Game.FINISHED
    for player in (alice, bob, carol):
        (notice,) = inbox(player)
        assert notice.kind == "match_over"  # not also "round over": one message per ending
        assert notice.data["winner"] == winner.user.public_name
        assert notice.data["you_won"] is (player is winner)
    assert inbox(winner)[0].data["place"] == 1


def test_a_round_that_does_not_end_the_match_tells_everyone_its_result(
    alice: Player, bob: Player
) -> None:
    game, winner, (loser,) = started(alice, bob, target_score=100_000)
    play_the_last_card(game, winner)

    (won,) = inbox(winner, "round_over")
    (lost,) = inbox(loser, "round_over")
    assert won.data["you_won"] is True and lost.data["you_won"] is False
    assert won.data["round"] == lost.data["round"] == 1
    assert won.data["points"] == lost.data["points"] > 0
    assert won.data["winner"] == winner.user.public_name
    # The next round is dealt at once: whoever opens it is told it is their turn.
    opener = to_move(game, alice, bob)
    assert "your_turn" in kinds_of(opener)


def test_recording_the_same_move_twice_is_refused_by_the_unique_key(
    alice: Player, bob: Player
) -> None:
    """Belt and braces: the inbox is exactly-once because it commits with the move, and a bug
    that recorded one move twice would hit the unique key instead of notifying twice."""
    game = new_game(alice, bob)
    move = Move.objects.filter(game=game).latest("number")
    seats = list(game.seats.select_related("user"))
    state = State.from_dict(game.state)
    from django.db import IntegrityError

    with pytest.raises(IntegrityError), transaction.atomic():
        outbox.record_move(
            game=game, move=move, state=state, events=[], seats=seats, turn_passed=True
        )
    assert Notification.objects.exclude(kind__in=STREAM_ONLY).count() == 1


@pytest.mark.parametrize("targets", [False, True], ids=["no targets", "push and webhooks"])
def test_the_outbox_adds_a_fixed_number_of_queries_to_a_move_whatever_the_number_of_players(
    alice: Player, bob: Player, carol: Player, dave: Player, targets: bool
) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from notifications.models import PushSubscription, WebhookEndpoint

    players = (alice, bob, carol, dave)
    if targets:
        for player in players:
            PushSubscription.objects.create(
                user=player.user, endpoint=f"https://push.example/{player.user.pk}", p256dh="k"
            )
            WebhookEndpoint.objects.create(
                user=player.user, url="https://example.com/hook", secret="s"
            )
    game = new_game(*players)
    mover = to_move(game, *players)
    act(mover, game, type="draw")
    with CaptureQueriesContext(connection) as queries:
        act(mover, game, type="pass")  # the turn passes: a "your turn" with an e-mail delivery
    ours = [q["sql"] for q in queries.captured_queries if "notifications_" in q["sql"]]
    # The inbox row, the recipients' preferences, the delivery rows, and, when a player has any
    # push subscription or webhook endpoint, one query (a UNION) for all the channels whose
    # targets have a table of their own: no query per player, nor per channel. Players with
    # neither (User.has_channel_targets) are not asked about at all. Plus one UPDATE that
    # withdraws the "your turn" notices the move made moot (one live notice per game).
    tables = ["notifications_pushsubscription", "notifications_webhookendpoint"]
    asked = [sql for sql in ours if any(table in sql for table in tables)]
    if targets:
        assert len(asked) == 1 and all(table in asked[0] for table in tables), ours
        assert len(ours) == 4 + 1, ours
    else:
        assert asked == [], ours
        assert len(ours) == 4, ours
