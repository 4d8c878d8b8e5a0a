"""Idempotency-Key on the action endpoint: a retry gets the first answer, never a second move."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games.idempotency import request_hash
from games.models import Game, IdempotencyRecord, Move
from tests.games.conftest import API_TESTS, Player, player_to_move, start_game

pytestmark = API_TESTS

KEY = "6f1c1b0e-retry-me"


@pytest.fixture
def game(alice: Player, bob: Player) -> str:
    game_id = start_game(alice, bob)
    mover = player_to_move([alice, bob], game_id)
    view = mover.table(game_id)
    if view["table"]["phase"] == "choose":
        target = next(
            a["target"] for a in view["table"]["legal_actions"] if a["type"] == "choose_target"
        )
        assert mover.act(game_id, {"type": "choose_target", "target": target}).status_code == 200
    return game_id


def roles(game_id: str, alice: Player, bob: Player) -> tuple[Player, Player]:
    mover = player_to_move([alice, bob], game_id)
    return mover, (bob if mover is alice else alice)


def moves(game_id: str) -> int:
    return Move.objects.filter(game_id=game_id).count()


def error_code(response: Any) -> str:
    return response.json()["error"]["code"]


def test_a_retry_with_the_same_key_and_body_gets_the_first_answer_and_moves_once(
    alice: Player, bob: Player, game: str
) -> None:
    mover, _ = roles(game, alice, bob)
    body = {"type": "draw", "expected_version": Game.objects.get(pk=game).version}
    before = moves(game)

    first = mover.act(game, body, **{"Idempotency-Key": KEY})
    second = mover.act(game, body, **{"Idempotency-Key": KEY})

    assert first.status_code == second.status_code == 200
    assert "Idempotent-Replayed" not in first
    assert second["Idempotent-Replayed"] == "true"
    # The same JSON (PostgreSQL's jsonb stores the replayed body with its keys reordered).
    assert second.json() == first.json()
    assert moves(game) == before + 1
    record = IdempotencyRecord.objects.get(user=mover.user, key=KEY)
    assert record.status == IdempotencyRecord.DONE
    assert record.response_status == 200


def test_the_same_key_with_a_different_body_is_refused(
    alice: Player, bob: Player, game: str
) -> None:
    mover, _ = roles(game, alice, bob)
    assert mover.act(game, {"type": "draw"}, **{"Idempotency-Key": KEY}).status_code == 200
    before = moves(game)

    response = mover.act(game, {"type": "pass"}, **{"Idempotency-Key": KEY})

    assert response.status_code == 422, response.content
    assert error_code(response) == "idempotency_key_reused"
    assert moves(game) == before


def test_the_same_key_for_another_game_is_refused(
    alice: Player, bob: Player, carol: Player, game: str
) -> None:
    other = start_game(alice, carol)
    assert alice.act(game, {"type": "uno"}, **{"Idempotency-Key": KEY}).status_code == 422

    response = alice.act(other, {"type": "uno"}, **{"Idempotency-Key": KEY})

    assert response.status_code == 422
    assert error_code(response) == "idempotency_key_reused"


def test_keys_belong_to_one_user(alice: Player, bob: Player, game: str) -> None:
    mover, waiter = roles(game, alice, bob)
    assert mover.act(game, {"type": "draw"}, **{"Idempotency-Key": KEY}).status_code == 200

    response = waiter.act(game, {"type": "draw"}, **{"Idempotency-Key": KEY})

    assert "Idempotent-Replayed" not in response
    assert error_code(response) == "not_your_turn"


def test_a_request_still_in_progress_is_answered_409(alice: Player, bob: Player, game: str) -> None:
    mover, _ = roles(game, alice, bob)
    body = {"type": "draw"}
    IdempotencyRecord.objects.create(
        user=mover.user, key=KEY, request_hash=request_hash({"game": game, **body})
    )
    before = moves(game)

    response = mover.act(game, body, **{"Idempotency-Key": KEY})

    assert response.status_code == 409, response.content
    assert error_code(response) == "request_in_progress"
    assert moves(game) == before
    assert IdempotencyRecord.objects.get(user=mover.user, key=KEY).status == "in_progress"


def test_a_claim_left_by_a_request_that_died_is_taken_over(
    alice: Player, bob: Player, game: str
) -> None:
    mover, _ = roles(game, alice, bob)
    body = {"type": "draw"}
    record = IdempotencyRecord.objects.create(
        user=mover.user, key=KEY, request_hash=request_hash({"game": game, **body})
    )
    IdempotencyRecord.objects.filter(pk=record.pk).update(
        created_at=timezone.now() - timedelta(minutes=2)
    )
    before = moves(game)

    response = mover.act(game, body, **{"Idempotency-Key": KEY})

    assert response.status_code == 200, response.content
    assert "Idempotent-Replayed" not in response
    assert moves(game) == before + 1
    record.refresh_from_db()
    assert record.status == IdempotencyRecord.DONE
    assert record.response_status == 200
    replay = mover.act(game, body, **{"Idempotency-Key": KEY})
    assert replay["Idempotent-Replayed"] == "true"
    assert replay.json() == response.json()
    assert moves(game) == before + 1


def test_a_refused_action_is_replayed_with_the_same_status_and_body(
    alice: Player, bob: Player, game: str
) -> None:
    mover, waiter = roles(game, alice, bob)
    body = {"type": "draw"}

    first = waiter.act(game, body, **{"Idempotency-Key": KEY})
    assert first.status_code == 422
    assert error_code(first) == "not_your_turn"
    # The turn comes round to the waiter; the retry still gets the first answer.
    assert mover.act(game, {"type": "draw"}).status_code == 200
    assert mover.act(game, {"type": "pass"}).status_code == 200
    assert player_to_move([alice, bob], game) is waiter
    before = moves(game)

    second = waiter.act(game, body, **{"Idempotency-Key": KEY})

    assert second.status_code == 422
    assert second["Idempotent-Replayed"] == "true"
    assert second.json() == first.json()
    assert moves(game) == before


def test_a_version_conflict_is_replayed_too(alice: Player, bob: Player, game: str) -> None:
    mover, _ = roles(game, alice, bob)
    body = {"type": "draw", "expected_version": 0}

    first = mover.act(game, body, **{"Idempotency-Key": KEY})
    second = mover.act(game, body, **{"Idempotency-Key": KEY})

    assert first.status_code == second.status_code == 409
    assert error_code(first) == "version_conflict"
    assert second.json() == first.json()
    assert second["Idempotent-Replayed"] == "true"


@pytest.mark.parametrize("key", ["", "k" * 129])
def test_an_empty_or_overlong_key_is_refused(
    alice: Player, bob: Player, game: str, key: str
) -> None:
    mover, _ = roles(game, alice, bob)
    before = moves(game)

    response = mover.act(game, {"type": "draw"}, **{"Idempotency-Key": key})

    assert response.status_code == 400, response.content
    assert error_code(response) == "invalid_idempotency_key"
    assert moves(game) == before
    assert not IdempotencyRecord.objects.exists()


def test_a_slow_request_that_finishes_after_a_takeover_keeps_its_answer(
    alice: Player, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A claim taken over as stale may belong to a request that was only slow: when that one
    finishes first, the retry returns its answer instead of running (and overwriting) again."""
    from games import idempotency

    record = IdempotencyRecord.objects.create(user=alice.user, key=KEY, request_hash="h")
    IdempotencyRecord.objects.filter(pk=record.pk).update(
        created_at=timezone.now() - timedelta(minutes=2)
    )
    real_claim = idempotency._claim

    def claim_then_the_slow_one_finishes(*args: Any) -> IdempotencyRecord:
        claimed = real_claim(*args)
        IdempotencyRecord.objects.filter(pk=claimed.pk).update(
            status=IdempotencyRecord.DONE, response_status=200, response_body={"first": True}
        )
        return claimed

    monkeypatch.setattr(idempotency, "_claim", claim_then_the_slow_one_finishes)
    monkeypatch.setattr(idempotency, "request_hash", lambda body: "h")
    ran: list[int] = []

    def work() -> tuple[int, dict[str, Any]]:
        ran.append(1)
        return 200, {"second": True}

    status, body, replayed = idempotency.run_once(user=alice.user, key=KEY, body={}, work=work)

    assert (status, body, replayed) == (200, {"first": True}, True)
    assert ran == []
    assert IdempotencyRecord.objects.get(pk=record.pk).response_body == {"first": True}
