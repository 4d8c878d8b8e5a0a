"""Bad input of every kind on the action endpoint gets a 4xx with a stable error code.

``POST /api/v1/games/{id}/actions/`` is where players (and their bots, and anyone with a token)
send the most varied bodies. Whatever arrives - the wrong JSON types, JSON that is not JSON, bodies
too large or nested too deep, unknown cards or cards from someone else's hand, another game's id,
a replayed or reused Idempotency-Key, a seat that is not theirs - the answer is a 4xx in the API's
one error shape with the code the documentation promises, never a 5xx or a traceback, and the
game is left exactly as it was.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.conf import settings
from rest_framework.test import APIClient

from games import idempotency, services
from games.models import Game, IdempotencyRecord, Move
from players.models import ApiToken
from tests.games.conftest import (
    API_TESTS,
    Player,
    game_url,
    make_player,
    new_lobby,
    player_to_move,
    start_game,
)

pytestmark = API_TESTS

JSON = "application/json"


@dataclass
class Table:
    """A running two-player game whose opening is settled: ``mover`` is to move (phase play)."""

    game_id: str
    mover: Player
    waiter: Player
    outsiders: tuple[Player, Player]

    def state(self) -> tuple[int, Any, int]:
        game = Game.objects.get(pk=self.game_id)
        return game.version, game.state, Move.objects.filter(game=game).count()

    def seat_of(self, player: Player) -> int:
        return int(player.table(self.game_id)["your_seat"])


@pytest.fixture
def table(db: None) -> Table:
    alice, bob, carol, dave = (make_player(name) for name in ("alice", "bob", "carol", "dave"))
    game_id = start_game(alice, bob)
    mover = player_to_move([alice, bob], game_id)
    view = mover.table(game_id)
    if view["table"]["phase"] == "choose":  # an opening Targeted Draw 2 / Force Swap
        target = next(
            a["target"] for a in view["table"]["legal_actions"] if a["type"] == "choose_target"
        )
        assert mover.act(game_id, {"type": "choose_target", "target": target}).status_code == 200
    mover = player_to_move([alice, bob], game_id)
    waiter = bob if mover is alice else alice
    assert mover.table(game_id)["table"]["phase"] == "play"
    return Table(game_id, mover, waiter, (carol, dave))


def post_raw(
    player: Player | APIClient,
    game_id: Any,
    data: bytes | str,
    content_type: str = JSON,
    **headers: str,
) -> Any:
    client = player.client if isinstance(player, Player) else player
    return client.generic(
        "POST", game_url(game_id, "actions/"), data, content_type, headers=headers or None
    )


def assert_refused(response: Any, status: int, code: str) -> dict[str, Any]:
    """A 4xx in the one error shape, with the stable code, and nothing of the server's insides."""
    assert 400 <= status < 500
    assert response.status_code == status, (code, response.status_code, response.content[:500])
    assert response["Content-Type"].startswith(JSON), response["Content-Type"]
    text = response.content.decode()
    assert "Traceback" not in text and 'File "' not in text, text[:500]
    body = response.json()
    assert set(body) == {"error"}, body
    error = body["error"]
    assert error["code"] == code, (code, body)
    assert isinstance(error["message"], str) and error["message"]
    assert set(error) <= {"code", "message", "details"}, error
    return dict(error)


# ---------------------------------------------------------------------------------------------
# Wrong JSON types


def _nested(depth: int) -> Any:
    value: Any = 0
    for _ in range(depth):
        value = [value]
    return value


WRONG_TYPES: list[tuple[str, Any, int, str]] = [
    # The body itself
    ("body is a list", [], 400, "invalid_request"),
    ("body is a list of actions", [{"type": "draw"}], 400, "invalid_request"),
    ("body is null", None, 400, "invalid_request"),
    ("body is a string", "draw", 400, "invalid_request"),
    ("body is a number", 7, 400, "invalid_request"),
    ("body is true", True, 400, "invalid_request"),
    ("body is empty", {}, 400, "invalid_action"),
    # type
    ("type missing", {"card": "wild-1"}, 400, "invalid_action"),
    ("type is a number", {"type": 1}, 400, "invalid_action"),
    ("type is null", {"type": None}, 400, "invalid_action"),
    ("type is a list", {"type": ["draw"]}, 400, "invalid_action"),
    ("type is an object", {"type": {"draw": True}}, 400, "invalid_action"),
    ("type is true", {"type": True}, 400, "invalid_action"),
    ("type is unknown", {"type": "cheat"}, 400, "invalid_action"),
    ("type in capitals", {"type": "DRAW"}, 400, "invalid_action"),
    ("type is empty", {"type": ""}, 400, "invalid_action"),
    ("type is a system action", {"type": "timeout"}, 400, "invalid_action"),
    ("type is leave", {"type": "leave"}, 400, "invalid_action"),
    ("type is next_round", {"type": "next_round"}, 400, "invalid_action"),
    # card
    ("card missing", {"type": "play"}, 400, "invalid_request"),
    ("card is null", {"type": "play", "card": None}, 400, "invalid_request"),
    ("card is empty", {"type": "play", "card": ""}, 400, "invalid_request"),
    ("card is a list", {"type": "play", "card": ["wild-1"]}, 400, "invalid_request"),
    ("card is an object", {"type": "play", "card": {"id": "wild-1"}}, 400, "invalid_request"),
    ("card is true", {"type": "play", "card": True}, 400, "invalid_request"),
    ("card is huge", {"type": "play", "card": "wild-" + "1" * 100_000}, 400, "invalid_request"),
    ("card has a NUL", {"type": "play", "card": "wild\x00-1"}, 400, "invalid_request"),
    # target
    ("target is a word", {"type": "catch", "target": "one"}, 400, "invalid_request"),
    ("target is a fraction", {"type": "catch", "target": 1.5}, 400, "invalid_request"),
    ("target is negative", {"type": "catch", "target": -1}, 400, "invalid_request"),
    ("target is true", {"type": "catch", "target": True}, 400, "invalid_request"),
    ("target is a list", {"type": "catch", "target": [1]}, 400, "invalid_request"),
    ("target is null", {"type": "catch", "target": None}, 400, "invalid_request"),
    ("target missing", {"type": "catch"}, 400, "invalid_request"),
    ("choose_target without target", {"type": "choose_target"}, 400, "invalid_request"),
    ("target is huge", {"type": "catch", "target": 10**30}, 422, "invalid_target"),
    ("target is no seat", {"type": "catch", "target": 7}, 422, "invalid_target"),
    # expected_version
    (
        "expected_version is a word",
        {"type": "draw", "expected_version": "v3"},
        400,
        "invalid_request",
    ),
    (
        "expected_version is negative",
        {"type": "draw", "expected_version": -1},
        400,
        "invalid_request",
    ),
    (
        "expected_version is a fraction",
        {"type": "draw", "expected_version": 2.5},
        400,
        "invalid_request",
    ),
    (
        "expected_version is null",
        {"type": "draw", "expected_version": None},
        400,
        "invalid_request",
    ),
    (
        "expected_version is a list",
        {"type": "draw", "expected_version": [2]},
        400,
        "invalid_request",
    ),
    (
        "expected_version is huge",
        {"type": "draw", "expected_version": 2**64},
        409,
        "version_conflict",
    ),
    ("expected_version is old", {"type": "draw", "expected_version": 0}, 409, "version_conflict"),
    # uno
    ("uno is a word", {"type": "play", "card": "wild-1", "uno": "maybe"}, 400, "invalid_request"),
    ("uno is a list", {"type": "play", "card": "wild-1", "uno": [True]}, 400, "invalid_request"),
    ("uno is an object", {"type": "play", "card": "wild-1", "uno": {}}, 400, "invalid_request"),
    # Rules: well-formed, refused by the engine
    ("pass without drawing", {"type": "pass"}, 422, "pass_not_allowed"),
    ("play_drawn without drawing", {"type": "play_drawn"}, 422, "nothing_drawn"),
    ("no choice is pending", {"type": "choose_target", "target": 0}, 422, "no_choice_pending"),
    ("uno with a full hand", {"type": "uno"}, 422, "uno_not_allowed"),
    # House-rule actions (this game plays without house rules)
    ("play_pair without cards", {"type": "play_pair"}, 400, "invalid_request"),
    ("play_pair cards a string", {"type": "play_pair", "cards": "wild-1"}, 400, "invalid_request"),
    ("play_pair one card", {"type": "play_pair", "cards": ["wild-1"]}, 400, "invalid_request"),
    (
        "play_pair three cards",
        {"type": "play_pair", "cards": ["wild-1", "wild-2", "wild-3"]},
        400,
        "invalid_request",
    ),
    (
        "play_pair cards objects",
        {"type": "play_pair", "cards": [{"id": "wild-1"}, {"id": "wild-2"}]},
        400,
        "invalid_request",
    ),
    (
        "play_pair negative target",
        {"type": "play_pair", "cards": ["wild-1", "wild-2"], "targets": [-1, 1]},
        400,
        "invalid_request",
    ),
    (
        "play_pair one target",
        {"type": "play_pair", "cards": ["wild-1", "wild-2"], "targets": [1]},
        400,
        "invalid_request",
    ),
    (
        "play_pair without double down",
        {"type": "play_pair", "cards": ["wild-1", "wild-2"]},
        422,
        "house_rule_off",
    ),
    ("play_top without blind play", {"type": "play_top"}, 422, "house_rule_off"),
    ("play_top uno a word", {"type": "play_top", "uno": "maybe"}, 400, "invalid_request"),
    ("mercy six cards", {"type": "mercy", "cards": ["wild-1"] * 6}, 400, "invalid_request"),
    ("mercy cards null", {"type": "mercy", "cards": None}, 400, "invalid_request"),
    ("mercy without the house rule", {"type": "mercy", "cards": []}, 422, "house_rule_off"),
    ("take_stack with no stack", {"type": "take_stack"}, 422, "no_stack"),
]


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [pytest.param(body, status, code, id=name) for name, body, status, code in WRONG_TYPES],
)
def test_wrong_types_are_refused_with_a_stable_code(
    table: Table, body: Any, status: int, code: str
) -> None:
    before = table.state()
    if isinstance(body, dict) and body.get("expected_version") == 0:
        # "old": a version the game had, not the current one.
        assert before[0] > 0
    response = post_raw(table.mover, table.game_id, json.dumps(body))
    assert_refused(response, status, code)
    assert table.state() == before


# ---------------------------------------------------------------------------------------------
# Bodies that are not JSON, too large or nested too deep


def _deep_action(depth: int) -> str:
    return json.dumps({"type": "draw", "note": _nested(depth)})


NOT_JSON: list[tuple[str, bytes | str, str, int, str]] = [
    ("truncated", '{"type": "draw"', JSON, 400, "malformed_request"),
    ("trailing garbage", '{"type": "draw"} x', JSON, 400, "malformed_request"),
    ("single quotes", "{'type': 'draw'}", JSON, 400, "malformed_request"),
    ("not utf-8", b'{"type": "play", "card": "\xff\xfe"}', JSON, 400, "malformed_request"),
    ("NaN", '{"type": "catch", "target": NaN}', JSON, 400, "malformed_request"),
    ("Infinity", '{"type": "draw", "expected_version": Infinity}', JSON, 400, "malformed_request"),
    (
        "5000-digit number",
        '{"type": "catch", "target": ' + "9" * 5000 + "}",
        JSON,
        400,
        "malformed_request",
    ),
    ("nested 100 000 deep", "[" * 100_000 + "]" * 100_000, JSON, 400, "malformed_request"),
    ("an action nested 900 deep", _deep_action(900), JSON, 400, "malformed_request"),
    ("an action nested 40 deep", _deep_action(40), JSON, 400, "malformed_request"),
    ("plain text", "type=draw", "text/plain", 415, "unsupported_media_type"),
    ("XML", "<action type='draw'/>", "application/xml", 415, "unsupported_media_type"),
    ("no content type", '{"type": "draw"}', "", 415, "unsupported_media_type"),
    ("empty body", "", JSON, 400, "invalid_action"),
]


@pytest.mark.parametrize(
    ("data", "content_type", "status", "code"),
    [pytest.param(d, ct, st, c, id=name) for name, d, ct, st, c in NOT_JSON],
)
def test_bodies_that_are_not_usable_json_are_refused(
    table: Table, data: bytes | str, content_type: str, status: int, code: str
) -> None:
    before = table.state()
    key = str(uuid.uuid4())
    response = post_raw(table.mover, table.game_id, data, content_type, **{"Idempotency-Key": key})
    assert_refused(response, status, code)
    assert table.state() == before
    if status != 400 or code != "invalid_action":
        # Refused before anything was claimed: the key is still fresh.
        assert not IdempotencyRecord.objects.filter(key=key).exists()


def test_a_body_over_the_upload_limit_is_413_request_too_large(table: Table) -> None:
    before = table.state()
    padding = "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1)
    body = json.dumps({"type": "draw", "padding": padding})
    assert_refused(post_raw(table.mover, table.game_id, body), 413, "request_too_large")
    assert table.state() == before


def test_a_form_with_too_many_fields_is_413_request_too_large(table: Table) -> None:
    before = table.state()
    fields = "&".join(f"f{i}=1" for i in range(settings.DATA_UPLOAD_MAX_NUMBER_FIELDS + 1))
    response = post_raw(
        table.mover, table.game_id, "type=draw&" + fields, "application/x-www-form-urlencoded"
    )
    assert_refused(response, 413, "request_too_large")
    assert table.state() == before


# ---------------------------------------------------------------------------------------------
# Cards that are not the player's


def _cards(table: Table) -> dict[str, str]:
    state = Game.objects.get(pk=table.game_id).state
    mine = table.seat_of(table.mover)
    return {
        "opponent's card": state["seats"][1 - mine]["hand"][0],
        "draw pile card": state["draw_pile"][0],
        "card on the table": state["discard_pile"][-1],
    }


@pytest.mark.parametrize(
    "card",
    [
        "wild-999",
        "nonsense",
        "wild",
        "-1",
        "-",
        "WILD-1",
        "wild--1",
        "wild-1.0",
        "ø-1",
        "x" * 64,
        "opponent's card",
        "draw pile card",
        "card on the table",
    ],
)
def test_a_card_not_in_the_hand_is_422_card_not_in_hand(table: Table, card: str) -> None:
    card = _cards(table).get(card, card)
    before = table.state()
    mine = before[1]["seats"][table.seat_of(table.mover)]["hand"]
    assert card not in mine
    response = table.mover.act(table.game_id, {"type": "play", "card": card})
    assert_refused(response, 422, "card_not_in_hand")
    assert table.state() == before


def test_a_card_from_the_hand_is_refused_when_it_is_not_my_turn(table: Table) -> None:
    before = table.state()
    own = before[1]["seats"][table.seat_of(table.waiter)]["hand"][0]
    response = table.waiter.act(table.game_id, {"type": "play", "card": own})
    assert_refused(response, 422, "not_your_turn")
    assert table.state() == before


def test_naming_another_seat_in_the_body_does_not_act_for_it(table: Table) -> None:
    """The server takes the seat from the token: the waiter cannot draw for the mover."""
    before = table.state()
    mover_seat = table.seat_of(table.mover)
    response = table.waiter.act(table.game_id, {"type": "draw", "seat": mover_seat})
    assert_refused(response, 422, "not_your_turn")
    assert table.state() == before


# ---------------------------------------------------------------------------------------------
# Other games' ids


def _other_games(table: Table) -> dict[str, Callable[[], Any]]:
    carol, dave = table.outsiders

    def strangers_game() -> Any:
        return start_game(carol, dave)

    def lobby() -> Any:
        return new_lobby(table.mover, max_players=3)["id"]

    def finished() -> Any:
        game_id = start_game(table.mover, carol)
        Game.objects.filter(pk=game_id).update(status=Game.FINISHED)
        return game_id

    def left() -> Any:
        # Three players, so the game goes on after the mover leaves it.
        game_id = start_game(table.mover, carol, dave)
        services.leave_game(user=table.mover.user, game_id=game_id)
        return game_id

    def public_lobby_of_others() -> Any:
        return new_lobby(carol, max_players=3, visibility="public")["id"]

    return {
        "a game of two other players": strangers_game,
        "a game that does not exist": lambda: uuid.uuid4(),
        "a lobby I sit in": lobby,
        "a finished game of mine": finished,
        "a game I left": left,
        "a public lobby of others": public_lobby_of_others,
    }


@pytest.mark.parametrize(
    ("which", "status", "code"),
    [
        ("a game of two other players", 404, "not_found"),
        ("a game that does not exist", 404, "not_found"),
        ("a public lobby of others", 404, "not_found"),
        ("a lobby I sit in", 409, "game_not_started"),
        ("a finished game of mine", 409, "game_over"),
        ("a game I left", 409, "not_in_game"),
    ],
)
def test_another_games_id_is_refused(table: Table, which: str, status: int, code: str) -> None:
    game_id = _other_games(table)[which]()
    before = (
        Game.objects.filter(pk=game_id).values_list("version", "state").first(),
        Move.objects.filter(game_id=game_id).count(),
    )
    response = table.mover.act(game_id, {"type": "draw"}, **{"Idempotency-Key": which})
    assert_refused(response, status, code)
    after = (
        Game.objects.filter(pk=game_id).values_list("version", "state").first(),
        Move.objects.filter(game_id=game_id).count(),
    )
    assert after == before


@pytest.mark.parametrize(
    "path",
    ["not-a-uuid", "1", "00000000-0000-0000-0000-00000000000g", "%00", "..%2f..%2fadmin"],
)
def test_a_game_id_that_is_no_uuid_is_404(table: Table, path: str) -> None:
    response = table.mover.client.post(
        f"/api/v1/games/{path}/actions/", {"type": "draw"}, format="json"
    )
    assert_refused(response, 404, "not_found")


# ---------------------------------------------------------------------------------------------
# Idempotency keys: replayed, reused, malformed


def test_a_replayed_key_gets_the_first_answer_and_moves_once(table: Table) -> None:
    key = {"Idempotency-Key": "draw-once"}
    first = table.mover.act(table.game_id, {"type": "draw"}, **key)
    assert first.status_code == 200, first.content
    after_first = table.state()
    for _ in range(3):
        again = table.mover.act(table.game_id, {"type": "draw"}, **key)
        assert again.status_code == 200
        assert again["Idempotent-Replayed"] == "true"
        assert again.json() == first.json()
    assert table.state() == after_first


def test_a_replayed_refusal_is_the_same_refusal(table: Table) -> None:
    key = {"Idempotency-Key": "bad-card"}
    first = table.mover.act(table.game_id, {"type": "play", "card": "wild-999"}, **key)
    assert_refused(first, 422, "card_not_in_hand")
    again = table.mover.act(table.game_id, {"type": "play", "card": "wild-999"}, **key)
    assert_refused(again, 422, "card_not_in_hand")
    assert again["Idempotent-Replayed"] == "true"


@pytest.mark.parametrize(
    "second",
    [
        {"type": "uno"},
        {"type": "draw", "expected_version": 999},
    ],
    ids=["another type", "another version"],
)
def test_a_key_reused_with_another_body_is_422(table: Table, second: dict[str, Any]) -> None:
    key = {"Idempotency-Key": "one-intent"}
    assert table.mover.act(table.game_id, {"type": "draw"}, **key).status_code == 200
    before = table.state()
    assert_refused(table.mover.act(table.game_id, second, **key), 422, "idempotency_key_reused")
    assert table.state() == before


@pytest.mark.parametrize("second", [{"type": "draw", "uno": True}, {"type": "draw", "extra": 1}])
def test_a_key_reused_with_a_field_the_action_does_not_take_is_refused_for_the_field(
    table: Table, second: dict[str, Any]
) -> None:
    key = {"Idempotency-Key": "one-intent"}
    assert table.mover.act(table.game_id, {"type": "draw"}, **key).status_code == 200
    before = table.state()
    error = assert_refused(table.mover.act(table.game_id, second, **key), 400, "unknown_field")
    assert list(error["details"]["fields"]) == [k for k in second if k != "type"]
    assert table.state() == before


def test_a_key_reused_for_another_game_is_422(table: Table) -> None:
    key = {"Idempotency-Key": "game-bound"}
    assert table.mover.act(table.game_id, {"type": "draw"}, **key).status_code == 200
    carol, _ = table.outsiders
    other = start_game(table.mover, carol)
    before = Game.objects.values_list("version", flat=True).get(pk=other)
    assert_refused(
        table.mover.act(other, {"type": "draw"}, **key), 422, "idempotency_key_other_url"
    )
    assert Game.objects.values_list("version", flat=True).get(pk=other) == before


def test_a_key_recorded_for_another_body_is_422(table: Table) -> None:
    IdempotencyRecord.objects.create(
        user=table.mover.user,
        key="used",
        # This URL's half of the fingerprint, and another body's (games/idempotency.py).
        request_hash=idempotency.request_hash(f"POST /api/v1/games/{table.game_id}/actions/")[:32]
        + "0" * 32,
        response_status=200,
        response_content=b"{}",
        response_content_type="application/json",
    )
    before = table.state()
    response = table.mover.act(table.game_id, {"type": "draw"}, **{"Idempotency-Key": "used"})
    assert_refused(response, 422, "idempotency_key_reused")
    assert table.state() == before


@pytest.mark.parametrize("key", ["", "k" * 129, "k" * 10_000], ids=["empty", "129", "10000"])
def test_a_malformed_key_is_400_invalid_idempotency_key(table: Table, key: str) -> None:
    before = table.state()
    response = table.mover.act(table.game_id, {"type": "draw"}, **{"Idempotency-Key": key})
    assert_refused(response, 400, "invalid_idempotency_key")
    assert table.state() == before


def test_the_same_key_of_another_player_is_theirs(table: Table) -> None:
    key = {"Idempotency-Key": "shared-name"}
    assert table.mover.act(table.game_id, {"type": "draw"}, **key).status_code == 200
    response = table.waiter.act(table.game_id, {"type": "draw"}, **key)
    # The waiter's own request: refused by the rules, not taken for the mover's.
    assert_refused(response, 422, "not_your_turn")


# ---------------------------------------------------------------------------------------------
# Credentials and methods


def test_credentials_and_methods(table: Table) -> None:
    before = table.state()
    body = json.dumps({"type": "draw"})
    anonymous = APIClient()
    assert_refused(post_raw(anonymous, table.game_id, body), 401, "not_authenticated")
    forged = APIClient()
    forged.credentials(HTTP_AUTHORIZATION="Bearer uaw_not-a-real-token")
    assert_refused(post_raw(forged, table.game_id, body), 401, "authentication_failed")
    garbled = APIClient()
    garbled.credentials(HTTP_AUTHORIZATION="Bearer")
    assert_refused(post_raw(garbled, table.game_id, body), 401, "authentication_failed")
    _, raw = ApiToken.issue(table.mover.user, name="dashboard", scope=ApiToken.SCOPE_READ)
    reader = APIClient()
    reader.credentials(HTTP_AUTHORIZATION=f"Bearer {raw}")
    assert_refused(post_raw(reader, table.game_id, body), 403, "permission_denied")
    url = game_url(table.game_id, "actions/")
    for method in ("get", "put", "patch", "delete"):
        response = getattr(table.mover.client, method)(url, {"type": "draw"}, format="json")
        assert_refused(response, 405, "method_not_allowed")
    assert table.state() == before
