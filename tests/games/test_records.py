"""Game records (docs/records.md): a game of every kind is played to its end through the API
(alice against bots, her seat once taken over by a bot after a timeout and taken back by
acting), its record read through the API replays through the engine to its recorded end with
``manage.py replay``, and a tampered record fails at the first move that differs. Who may read
a record, and when."""

from __future__ import annotations

import copy
import io
import json
import random
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from games import records, services
from games.api.records import GameRecordSerializer
from games.engine import registry
from games.models import Game, Move
from tests.games.conftest import API_TESTS, Player, game_url, start_game

pytestmark = API_TESTS

KINDS = ["uno_all_wild", "uno_splash", "uno_no_mercy", "gin_rummy"]
FREE = {"uno", "catch"}


def _alice_acts(alice: Player, game_id: str, rng: random.Random) -> None:
    view = alice.table(game_id)
    legal = [a for a in view["table"]["legal_actions"] if a["type"] not in FREE]
    plays = [a for a in legal if a["type"] in ("play", "play_drawn", "knock", "big_gin")]
    action = {k: v for k, v in rng.choice(plays or legal).items() if k not in ("seat", "choose")}
    response = alice.act(game_id, {**action, "expected_version": view["version"]})
    assert response.status_code == 200, (action, response.content)


def play_against_bots(alice: Player, kind: str, *, seed: int) -> str:
    """Alice against heuristic bots, one round: she plays her turns (mostly a card), the bots
    move when the sweep times their turns out, and her first turn times out instead, so a bot
    takes her seat (Game.max_timeouts 1) until she next acts on her turn. Returns the game id."""
    bots = 1 if kind == "gin_rummy" else 2
    body = {"game": kind, "bots": bots, "level": "heuristic", "target_score": 0}
    response = alice.post("/api/v1/games/vs-computer/", body)
    assert response.status_code == 201, response.content
    game_id = response.json()["id"]
    Game.objects.filter(pk=game_id).update(max_timeouts=1)
    rules = registry.get_game(kind)
    mine = next(p["seat"] for p in response.json()["players"] if p["you"])
    rng = random.Random(seed)
    phase = "first turn"
    for _ in range(3000):
        game = Game.objects.get(pk=game_id)
        if game.status != Game.ACTIVE:
            break
        on_turn = rules.to_move(rules.state_from_dict(game.state)) == mine
        if on_turn and phase == "first turn":
            phase = "taken over"  # this timeout hands her seat to a bot
        elif on_turn:
            phase = "back"  # her action takes the seat back (when a bot had it)
            _alice_acts(alice, game_id, rng)
            continue
        assert services.timeout_turn(game_id=game.pk, version=game.version, now=game.turn_deadline)
    assert Game.objects.get(pk=game_id).status == Game.FINISHED
    return str(game_id)


def _record(player: Player, game_id: str) -> dict[str, Any]:
    response = player.get(game_url(game_id, "record/"))
    assert response.status_code == 200, response.content
    return response.json()


def replay(record: Any, tmp_path: Path) -> tuple[int, str, str]:
    """``manage.py replay FILE``: its exit code, stdout and stderr."""
    path = tmp_path / f"record-{random.getrandbits(32):08x}.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("replay", str(path), stdout=out, stderr=err)
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("kind", KINDS)
def test_a_finished_game_of_every_kind_replays_from_its_record(
    alice: Player, kind: str, seeded_engine: Any, tmp_path: Path
) -> None:
    seeded_engine(KINDS.index(kind) + 11)
    game_id = play_against_bots(alice, kind, seed=5)
    record = _record(alice, game_id)
    assert (record["format"], record["version"]) == (records.FORMAT, records.VERSION)
    assert GameRecordSerializer(data=record).is_valid(), GameRecordSerializer(data=record).errors
    moves = Move.objects.filter(game_id=game_id).order_by("number")
    assert [m["number"] for m in record["moves"]] == [m.number for m in moves]
    assert record["moves"][0]["action"] == {"type": "start"}
    # Every chance outcome is in it, and every hand: the bots' cards too, now the game is over.
    assert any(e["type"] == "chance" for e in record["moves"][0]["events"])
    hands = record["moves"][0]["position"]["hands"]
    assert len(hands) == record["setup"]["players"] and all(hands)
    # Alice's first turn timed out: a bot took her seat, and she took it back by acting.
    types = [e["type"] for m in record["moves"] for e in m["events"]]
    assert "bot_took_over" in types and "seat_reclaimed" in types
    places = sorted(p["place"] for p in record["players"])
    assert places == list(range(1, record["setup"]["players"] + 1))
    first = next(p["seat"] for p in record["players"] if p["place"] == 1)
    assert record["result"]["winner"] == first
    assert record["rating_changes"] == []

    code, out, err = replay(record, tmp_path)
    assert (code, err) == (0, "")
    assert out.startswith(f"ok: {kind} game {game_id} replayed to its end: {len(moves)} moves")
    assert out.count("\n") == 1

    # A shuffle's outcome changed: the deal (the first move) is no longer the one recorded.
    dealt = copy.deepcopy(record)
    shuffle = next(e for e in dealt["moves"][0]["events"] if e.get("kind") == "shuffle")
    shuffle["order"][0], shuffle["order"][-1] = shuffle["order"][-1], shuffle["order"][0]
    code, _, err = replay(dealt, tmp_path)
    assert code == 1 and f"move {record['moves'][0]['number']}:" in err, err

    # A move left out: the one after it is the first that differs.
    skipped = copy.deepcopy(record)
    middle = len(skipped["moves"]) // 2
    del skipped["moves"][middle]
    code, _, err = replay(skipped, tmp_path)
    assert code == 1 and f"move {record['moves'][middle + 1]['number']}:" in err, err


def test_replay_reads_a_record_from_stdin_and_checks_its_end(
    alice: Player, seeded_engine: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seeded_engine(4)
    game_id = play_against_bots(alice, "uno_splash", seed=2)
    record = _record(alice, game_id)
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(record)))
    out = io.StringIO()
    call_command("replay", "-", stdout=out)
    assert out.getvalue().startswith("ok: uno_splash game")
    # The moves all replay, but the recorded winner is another seat: the end differs.
    record["result"]["winner"] = (record["result"]["winner"] + 1) % record["setup"]["players"]
    code, _, err = replay(record, tmp_path)
    assert code == 1 and f"move {record['moves'][-1]['number']}:" in err and "winner" in err
    # An event the engine did not make, in the second move.
    told = copy.deepcopy(record)
    told["moves"][1]["events"][-1]["card"] = "not-a-card"
    code, _, err = replay(told, tmp_path)
    number = record["moves"][1]["number"]
    assert code == 1 and f"move {number}: the engine's event" in err, err
    code, _, err = replay({"format": "something else"}, tmp_path)
    assert code == 1 and "not a game record" in err
    (tmp_path / "broken.json").write_text("{", encoding="utf-8")
    with pytest.raises(SystemExit) as exited:
        call_command("replay", str(tmp_path / "broken.json"), stderr=io.StringIO())
    assert exited.value.code == 2


def test_a_record_is_for_the_players_and_for_anyone_once_public(
    alice: Player, bob: Player, carol: Player, seeded_engine: Any
) -> None:
    seeded_engine(8)
    game_id = play_against_bots(alice, "gin_rummy", seed=1)
    assert carol.get(game_url(game_id, "record/")).status_code == 404
    Game.objects.filter(pk=game_id).update(visibility=Game.PUBLIC)
    assert _record(carol, game_id)["game"]["id"] == game_id
    missing = carol.get(game_url("00000000-0000-0000-0000-000000000000", "record/"))
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"


def test_a_running_game_has_no_record_yet(alice: Player, bob: Player) -> None:
    game_id = start_game(alice, bob, game="uno_splash", visibility="public")
    for player in (alice, bob):
        response = player.get(game_url(game_id, "record/"))
        assert response.status_code == 409, response.content
        assert response.json()["error"]["code"] == "game_not_finished"


def test_a_game_whose_log_starts_from_a_position_has_no_record(
    alice: Player, seeded_engine: Any
) -> None:
    seeded_engine(6)
    game_id = play_against_bots(alice, "uno_all_wild", seed=3)
    first = Move.objects.filter(game_id=game_id).order_by("number").first()
    assert first is not None
    Move.objects.filter(pk=first.pk).update(action={"type": "load"})
    response = alice.get(game_url(game_id, "record/"))
    assert response.status_code == 409 and response.json()["error"]["code"] == "record_unavailable"


def test_apps_above_games_add_rating_changes_and_nothing_else(
    alice: Player, seeded_engine: Any, django_assert_num_queries: Any
) -> None:
    seeded_engine(9)
    game_id = play_against_bots(alice, "gin_rummy", seed=4)
    change = {"seat": 0, "user_id": alice.user.pk, "rating_before": 1500}
    change |= {"rating_after": 1514, "change": 14}

    def ratings(sender: Any, game: Game, seats: list[Any], **kwargs: Any) -> dict[str, Any]:
        assert str(game.pk) == game_id and len(seats) == 2
        return {"rating_changes": [change], "moves": []}

    # Four queries whatever the game's length: its seats, its moves, its rounds, and the chat
    # app's part (the players' chat).
    game = Game.objects.get(pk=game_id)
    with django_assert_num_queries(4):
        assert records.build_record(game)["rating_changes"] == []
    records.record_building.connect(ratings, weak=False)
    try:
        record = _record(alice, game_id)
    finally:
        records.record_building.disconnect(ratings)
    assert record["rating_changes"] == [change]
    assert record["moves"]
    assert GameRecordSerializer(data=record).is_valid()
