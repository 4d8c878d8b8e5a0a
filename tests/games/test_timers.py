"""Turn deadlines in the database, the timeout sweep and the timeout policy."""

from __future__ import annotations

import random
import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from games import services
from games.engine.uno.state import State
from games.models import Game, Move, Seat
from players.models import User
from tests.games.factories import started_game, user


@pytest.fixture(autouse=True)
def seeded_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    # Seed 1 opens on a plain Wild: the first player simply takes a turn, no opening choice.
    rng = random.Random(1)
    monkeypatch.setattr(services.base, "new_rng", lambda: rng)


def _two_player_game(turn_seconds: int = 60) -> Game:
    game = started_game(host=user("alice"), guest=user("bob"), turn_seconds=turn_seconds)
    assert State.from_dict(game.state).phase == "play"
    return game


def _current(game: Game) -> tuple[User, int]:
    state = State.from_dict(game.state)
    seat = Seat.objects.select_related("user").get(game=game, position=state.current)
    return seat.user, state.current


@pytest.mark.django_db
def test_a_turn_past_its_deadline_times_out_exactly_once() -> None:
    game = _two_player_game()
    _, position = _current(game)
    later = game.turn_deadline + timedelta(seconds=1)

    assert services.sweep_expired_turns(now=game.turn_deadline - timedelta(seconds=1)) == 0
    assert services.sweep_expired_turns(now=later) == 1
    assert services.sweep_expired_turns(now=later) == 0  # a repeated sweep finds nothing due

    last = Move.objects.filter(game=game).latest("number")
    assert last.action == {"type": "timeout", "seat": position}
    game.refresh_from_db()
    assert State.from_dict(game.state).current != position or game.status != Game.ACTIVE
    assert game.turn_deadline > later  # the next player got a fresh clock


@pytest.mark.django_db
def test_a_late_sweep_for_a_game_that_moved_on_does_nothing() -> None:
    game = _two_player_game()
    user, _ = _current(game)
    services.act(user=user, game_id=game.pk, action={"type": "draw"}, expected_version=None)
    # The sweeper read version N, the game is now at N+1: the claim must fail.
    assert not services.timeout_turn(
        game_id=game.pk, version=game.version, now=game.turn_deadline + timedelta(hours=1)
    )


@pytest.mark.django_db
def test_a_draw_mid_turn_and_free_actions_keep_the_clock_running() -> None:
    game = _two_player_game()
    user, _ = _current(game)
    deadline = game.turn_deadline
    services.act(user=user, game_id=game.pk, action={"type": "draw"}, expected_version=None)
    game.refresh_from_db()
    assert game.turn_deadline == deadline
    services.act(user=user, game_id=game.pk, action={"type": "pass"}, expected_version=None)
    game.refresh_from_db()
    assert game.turn_deadline > deadline


@pytest.mark.django_db
def test_three_timeouts_in_a_row_take_the_player_out_of_the_game_by_the_leave_policy() -> None:
    game = _two_player_game()
    # The default policy hands the seat to a bot (tests/bots); this is the older one.
    Game.objects.filter(pk=game.pk).update(timeout_policy=Game.POLICY_LEAVE)
    absent, position = _current(game)
    other = Seat.objects.exclude(user=absent).get(game=game)
    for _ in range(3):
        game.refresh_from_db()
        if State.from_dict(game.state).current != position:
            # Play the other seat's turn quickly so the clock comes back to the absent player.
            services.timeout_turn(game_id=game.pk, version=game.version, now=game.turn_deadline)
            other.refresh_from_db()
            Seat.objects.filter(pk=other.pk).update(timeouts_in_row=0)
            game.refresh_from_db()
        assert State.from_dict(game.state).current == position
        assert services.timeout_turn(game_id=game.pk, version=game.version, now=game.turn_deadline)
    game.refresh_from_db()
    seat = Seat.objects.get(game=game, user=absent)
    assert seat.left_at is not None
    # Two players: the one left wins the match.
    assert game.status == Game.FINISHED
    assert State.from_dict(game.state).winner == other.position
    assert Move.objects.filter(game=game, action__type="leave").count() == 1


@pytest.mark.django_db
def test_acting_resets_the_count_of_timeouts_in_a_row() -> None:
    game = _two_player_game()
    user, position = _current(game)
    Seat.objects.filter(game=game, position=position).update(timeouts_in_row=2)
    services.act(user=user, game_id=game.pk, action={"type": "draw"}, expected_version=None)
    assert Seat.objects.get(game=game, position=position).timeouts_in_row == 0


@pytest.mark.django_db(transaction=True)
def test_concurrent_sweeps_time_out_each_turn_once() -> None:
    game = _two_player_game()
    moves_before = Move.objects.filter(game=game).count()
    now = game.turn_deadline + timedelta(seconds=1)
    barrier = threading.Barrier(4)
    done: list[int] = []

    def sweep() -> None:
        barrier.wait()
        try:
            done.append(services.sweep_expired_turns(now=now))
        finally:
            connection.close()

    threads = [threading.Thread(target=sweep) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(done) == [0, 0, 0, 1]
    assert Move.objects.filter(game=game).count() == moves_before + 1


@pytest.mark.django_db
def test_finished_and_lobby_games_are_never_swept() -> None:
    alice = User.objects.create_user(username="alice", password="pw-alice-123")
    lobby = services.create_game(host=alice)
    Game.objects.filter(pk=lobby.pk).update(turn_deadline=timezone.now() - timedelta(days=1))
    assert services.sweep_expired_turns() == 0
