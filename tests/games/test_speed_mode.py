"""Speed mode: a short turn limit applied by the timer sweep, outside the timeout policy."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from config.errors import ServiceError
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


def _speed_game(**kwargs: int) -> Game:
    return started_game(
        host=user("alice"), guest=user("bob"), options={"speed_mode": True}, **kwargs
    )


@pytest.mark.django_db
def test_a_speed_mode_turn_has_five_seconds_by_default() -> None:
    before = timezone.now()
    game = _speed_game()
    assert game.speed_seconds == 5
    assert game.turn_deadline is not None
    assert before + timedelta(seconds=5) <= game.turn_deadline
    assert game.turn_deadline <= timezone.now() + timedelta(seconds=5)


@pytest.mark.django_db
def test_the_speed_mode_limit_can_be_chosen_and_replaces_the_normal_limit() -> None:
    game = _speed_game(speed_seconds=12, turn_seconds=3600)
    assert game.turn_deadline is not None
    left = game.turn_deadline - timezone.now()
    assert timedelta(seconds=10) < left <= timedelta(seconds=12)


@pytest.mark.django_db
@pytest.mark.parametrize("seconds", [0, 2, 61, 3600])
def test_a_speed_mode_limit_outside_3_to_60_seconds_is_refused(seconds: int) -> None:
    alice = User.objects.create_user(username="alice", password="pw-alice-123")
    with pytest.raises(ServiceError) as refused:
        services.create_game(host=alice, options={"speed_mode": True}, speed_seconds=seconds)
    assert refused.value.code == "invalid_setup"
    assert not Game.objects.exists()


@pytest.mark.django_db
def test_an_expired_speed_turn_draws_one_and_passes_via_the_sweep() -> None:
    game = _speed_game()
    state = State.from_dict(game.state)
    position = state.current
    hand = len(state.seats[position].hand)
    assert services.sweep_expired_turns(now=game.turn_deadline - timedelta(seconds=1)) == 0
    assert services.sweep_expired_turns(now=game.turn_deadline + timedelta(seconds=1)) == 1
    game.refresh_from_db()
    after = State.from_dict(game.state)
    assert after.current != position
    assert len(after.seats[position].hand) == hand + 1
    last = Move.objects.filter(game=game).latest("number")
    assert last.action == {"type": "timeout", "seat": position}
    assert [e["reason"] for e in last.events if e["type"] == "draw"] == ["timeout"]


@pytest.mark.django_db
def test_speed_mode_timeouts_do_not_count_toward_the_timeout_policy() -> None:
    game = _speed_game()
    # Ten expired turns in a row, both seats: far past max_timeouts (3) in a normal game.
    for _ in range(10):
        game.refresh_from_db()
        assert game.status == Game.ACTIVE
        assert services.timeout_turn(
            game_id=game.pk, version=game.version, now=game.turn_deadline + timedelta(seconds=1)
        )
    seats = list(Seat.objects.filter(game=game))
    assert [s.timeouts_in_row for s in seats] == [0, 0]
    assert not any(s.taken_over for s in seats)
    assert all(s.left_at is None for s in seats)
    assert Move.objects.filter(game=game, action__type="timeout").count() == 10


@pytest.mark.django_db
def test_without_speed_mode_timeouts_still_count() -> None:
    alice = User.objects.create_user(username="alice", password="pw-alice-123")
    bob = User.objects.create_user(username="bob", password="pw-bob-123")
    game = services.create_game(host=alice, max_players=2, target_score=0, turn_seconds=60)
    services.join_game(user=bob, invite_code=game.invite_code)
    game.refresh_from_db()
    position = State.from_dict(game.state).current
    assert services.timeout_turn(game_id=game.pk, version=game.version, now=game.turn_deadline)
    assert Seat.objects.get(game=game, position=position).timeouts_in_row == 1


@pytest.mark.django_db
def test_a_speed_mode_rematch_keeps_its_turn_limit() -> None:
    game = _speed_game(speed_seconds=20)
    Game.objects.filter(pk=game.pk).update(status=Game.FINISHED)
    rematch = services.rematch(user=game.host, game_id=game.pk)
    assert rematch.speed_seconds == 20
    assert rematch.options["speed_mode"] is True
