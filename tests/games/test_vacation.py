"""The vacation bank: a player's turn clocks stand still while they are away."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest
from rest_framework.test import APIClient

from config.errors import ServiceError
from games import services
from games.engine.uno.state import State
from games.models import Game, Seat
from players.models import ApiToken, User
from tests.games.factories import started_game, user


@pytest.fixture(autouse=True)
def seeded_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(1)  # opens on a plain Wild
    monkeypatch.setattr(services.base, "new_rng", lambda: rng)


def _game() -> tuple[Game, User, User]:
    alice, bob = user("alice"), user("bob")
    game = started_game(host=alice, guest=bob, turn_seconds=3600)
    position = State.from_dict(game.state).current
    mover = Seat.objects.get(game=game, position=position).user
    waiter = bob if mover == alice else alice
    return game, mover, waiter


@pytest.mark.django_db
def test_a_vacation_pushes_back_the_deadline_of_my_running_turn() -> None:
    game, mover, _ = _game()
    deadline = game.turn_deadline
    services.start_vacation(user=mover, days=2)
    game.refresh_from_db()
    assert game.turn_deadline == deadline + timedelta(days=2)
    assert services.sweep_expired_turns(now=deadline + timedelta(hours=1)) == 0


@pytest.mark.django_db
def test_a_turn_that_reaches_me_on_vacation_starts_counting_when_it_ends() -> None:
    game, mover, waiter = _game()
    waiter = services.start_vacation(user=waiter, days=1)
    services.act(user=mover, game_id=game.pk, action={"type": "draw"}, expected_version=None)
    services.act(user=mover, game_id=game.pk, action={"type": "pass"}, expected_version=None)
    game.refresh_from_db()
    assert game.current_user_id == waiter.pk
    assert game.turn_deadline == waiter.vacation_until + timedelta(hours=1)


@pytest.mark.django_db
def test_the_monthly_bank_runs_out_and_refills_next_month() -> None:
    _, mover, _ = _game()
    march = datetime(2026, 3, 2, 12, tzinfo=UTC)
    services.start_vacation(user=mover, days=5, now=march)
    with pytest.raises(ServiceError) as refused:
        services.start_vacation(user=mover, days=3, now=march + timedelta(days=6))
    assert refused.value.code == "vacation_bank_exhausted"
    assert refused.value.details == {"days_left": 2.0}
    april = datetime(2026, 4, 2, 12, tzinfo=UTC)
    mover.refresh_from_db()
    assert services.vacation_left(user=mover, now=april) == timedelta(days=7)
    services.start_vacation(user=mover, days=7, now=april)


@pytest.mark.django_db
def test_coming_back_early_refunds_the_rest_and_restarts_my_clock() -> None:
    game, mover, _ = _game()
    # Mid-month: the bank is monthly, and "now + 1 day" must stay in the same month (on the last
    # day of a month the refund would land in a fresh bank of 7 days).
    now = datetime(2026, 3, 10, 12, tzinfo=UTC)
    services.start_vacation(user=mover, days=4, now=now)
    back = now + timedelta(days=1)
    mover = services.end_vacation(user=mover, now=back)
    assert services.vacation_left(user=mover, now=back) == timedelta(days=6)
    game.refresh_from_db()
    assert game.turn_deadline == back + timedelta(hours=1)
    with pytest.raises(ServiceError) as refused:
        services.end_vacation(user=mover, now=back)
    assert refused.value.code == "not_on_vacation"


@pytest.mark.django_db
def test_the_vacation_api_starts_reports_and_ends_a_vacation() -> None:
    alice = User.objects.create_user(username="alice", password="pw-alice-123")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Bearer " + ApiToken.issue(alice, name="phone")[1])
    assert client.get("/api/v1/me/vacation/").json() == {
        "on_vacation_until": None,
        "days_left": 7.0,
    }
    started = client.post("/api/v1/me/vacation/", {"days": 2}, format="json")
    assert started.status_code == 200
    assert started.json()["days_left"] == 5.0
    assert started.json()["on_vacation_until"] is not None
    again = client.post("/api/v1/me/vacation/", {"days": 1}, format="json")
    assert (again.status_code, again.json()["error"]["code"]) == (409, "already_on_vacation")
    too_long = client.post("/api/v1/me/vacation/", {"days": 0}, format="json")
    assert too_long.status_code == 400
    ended = client.delete("/api/v1/me/vacation/")
    assert ended.status_code == 200
    assert ended.json()["on_vacation_until"] is None


@pytest.mark.django_db
def test_a_read_only_token_cannot_start_a_vacation() -> None:
    alice = User.objects.create_user(username="alice", password="pw-alice-123")
    client = APIClient()
    raw = ApiToken.issue(alice, name="watch", scope=ApiToken.SCOPE_READ)[1]
    client.credentials(HTTP_AUTHORIZATION="Bearer " + raw)
    assert client.post("/api/v1/me/vacation/", {"days": 1}, format="json").status_code == 403
