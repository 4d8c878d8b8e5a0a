"""Idempotency-Key on the action endpoint: a retry gets the first answer, never a second move."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.models import Game, IdempotencyRecord, Move
from tests.errors import error_code
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
    # Byte for byte: the rendered body is stored (PostgreSQL's jsonb would reorder its keys).
    assert second.content == first.content
    assert second["Content-Type"] == first["Content-Type"] == "application/json"
    assert moves(game) == before + 1
    record = IdempotencyRecord.objects.get(user=mover.user, key=KEY)
    assert record.response_status == 200


def test_a_replayed_error_is_the_first_error_byte_for_byte(
    alice: Player, bob: Player, game: str
) -> None:
    _, waiter = roles(game, alice, bob)
    first = waiter.act(game, {"type": "draw"}, **{"Idempotency-Key": KEY})
    second = waiter.act(game, {"type": "draw"}, **{"Idempotency-Key": KEY})

    assert first.status_code == second.status_code == 422
    assert second["Idempotent-Replayed"] == "true"
    assert second.content == first.content
    assert json.loads(second.content)["error"]["code"] == "not_your_turn"


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


def test_a_reused_key_whose_other_body_is_a_legal_move_leaves_no_trace_of_it(
    alice: Player, bob: Player, game: str
) -> None:
    """The key is checked after the work, not before: the other body's move (a legal pass that
    would hand the turn on, with a "your turn" notification) is made and rolled back whole."""
    from notifications.models import Notification

    mover, _ = roles(game, alice, bob)
    first = mover.act(game, {"type": "draw"}, **{"Idempotency-Key": KEY})
    assert first.status_code == 200
    before = (moves(game), Game.objects.get(pk=game).version, Notification.objects.count())

    response = mover.act(game, {"type": "pass"}, **{"Idempotency-Key": KEY})

    assert response.status_code == 422, response.content
    assert error_code(response) == "idempotency_key_reused"
    assert "Idempotent-Replayed" not in response
    after = (moves(game), Game.objects.get(pk=game).version, Notification.objects.count())
    assert after == before
    assert player_to_move([alice, bob], game) is mover
    record = IdempotencyRecord.objects.get(user=mover.user, key=KEY)
    assert bytes(record.response_content) == first.content
    # The pass is still there to make, without the key.
    assert mover.act(game, {"type": "pass"}).status_code == 200


def test_the_same_key_for_another_game_is_refused(
    alice: Player, bob: Player, carol: Player, game: str
) -> None:
    other = start_game(alice, carol)
    assert alice.act(game, {"type": "uno"}, **{"Idempotency-Key": KEY}).status_code == 422

    response = alice.act(other, {"type": "uno"}, **{"Idempotency-Key": KEY})

    assert response.status_code == 422
    assert error_code(response) == "idempotency_key_other_url"


def test_a_body_field_named_game_does_not_stand_in_for_the_game(
    alice: Player, bob: Player, carol: Player, game: str
) -> None:
    other = start_game(alice, carol)
    assert alice.act(game, {"type": "uno"}, **{"Idempotency-Key": KEY}).status_code == 422

    # Same key, same action, sent to the other game with the first game's id in the body: a
    # field no action takes.
    response = alice.act(other, {"type": "uno", "game": game}, **{"Idempotency-Key": KEY})

    assert response.status_code == 400
    assert error_code(response) == "unknown_field"
    assert "Idempotent-Replayed" not in response


def test_keys_belong_to_one_user(alice: Player, bob: Player, game: str) -> None:
    mover, waiter = roles(game, alice, bob)
    assert mover.act(game, {"type": "draw"}, **{"Idempotency-Key": KEY}).status_code == 200

    response = waiter.act(game, {"type": "draw"}, **{"Idempotency-Key": KEY})

    assert "Idempotent-Replayed" not in response
    assert error_code(response) == "not_your_turn"


# Copies of one request sent at once under one key: tests/games/test_concurrency.py, as real
# concurrent requests against a live server.


def test_an_integrity_error_of_the_work_itself_is_not_swallowed(
    alice: Player, bob: Player, game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from django.db import IntegrityError

    from games import idempotency

    def broken() -> tuple[int, dict[str, Any]]:
        raise IntegrityError("not a duplicate key")

    with pytest.raises(IntegrityError):
        idempotency.run_once(user=alice.user, key=KEY, target="POST /", body={}, work=broken)
    assert not IdempotencyRecord.objects.exists()


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
