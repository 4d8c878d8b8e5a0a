"""Gin Rummy through the service and the HTTP API: created, viewed and played to the end, a drawn
round saved without a winner, timeouts, leaving, a bot taking over, the moderators' replay; and
its bots (the heuristic against random, ``manage.py simulate --game gin_rummy``)."""

from __future__ import annotations

import io
import random
from typing import Any

from django.core.management import call_command

from games import services
from games.bots import arena
from games.bots.decide import decide
from games.engine.gin.game import GIN_RUMMY as GIN
from games.models import Game, Move, RoundResult, Seat
from moderation import replay as moderation_replay
from notifications.models import Notification
from tests.bots.playing import seat_after_its_one_timeout
from tests.games.conftest import API, API_TESTS, Player, start_game, strip_seat

pytestmark = API_TESTS


def _mover(players: list[Player], game_id: str) -> tuple[Player, dict[str, Any]]:
    for player in players:
        view = player.table(game_id)
        if view["table"]["legal_actions"]:
            return player, view
    raise AssertionError("nobody may act")


def _heuristic_body(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    chosen = decide(view["table"], [], level="heuristic", rng=rng)
    assert chosen is not None
    return {**chosen, "expected_version": view["version"]}


def test_the_options_offer_gin_rummy(alice: Player) -> None:
    games = {g["kind"]: g for g in alice.get(f"{API}options/").json()["games"]}
    gin = games["gin_rummy"]
    assert (gin["name"], gin["presets"], gin["default_target"]) == ("Gin Rummy", ["standard"], 100)


def test_a_gin_rummy_round_is_played_to_its_end_through_the_api(alice: Player, bob: Player) -> None:
    game_id = start_game(alice, bob, game="gin_rummy", target_score=0)
    view = alice.table(game_id)
    table = view["table"]
    assert table["game"] == "gin_rummy" and table["phase"] == "offer"
    assert len(table["hand"]) == 10 and table["stock_size"] == 31
    assert set(table["hand"][0]) == {"id", "rank", "suit", "value"}
    # Nothing of the other hand or the stock in the view: only sizes.
    other = bob.table(game_id)["table"]
    assert not {c["id"] for c in other["hand"]} & {c["id"] for c in table["hand"]}
    assert table["seats"][1 - table["you"]]["hand_size"] == 10
    rng = random.Random(3)
    for _ in range(300):
        if Game.objects.get(pk=game_id).status != Game.ACTIVE:
            break
        player, view = _mover([alice, bob], game_id)
        response = player.act(game_id, _heuristic_body(view, rng))
        assert response.status_code == 200, response.content
    assert Game.objects.get(pk=game_id).status == Game.FINISHED
    final = alice.table(game_id)["table"]
    result = final["round_results"][-1]
    assert result["how"] in ("knock", "undercut", "gin", "big_gin")
    assert set(result["layouts"]) == {"0", "1"}
    assert (result["knock_discard"] is None) == (result["how"] == "big_gin")
    saved = RoundResult.objects.filter(game_id=game_id).order_by("round").last()
    assert saved is not None and saved.winner_position == result["winner"]
    assert moderation_replay.state_after(Game.objects.get(pk=game_id)).matches_stored is True


def test_a_refused_action_has_its_stable_code(alice: Player, bob: Player) -> None:
    game_id = start_game(alice, bob, game="gin_rummy")
    player, view = _mover([alice, bob], game_id)
    body = {"type": "draw", "source": "stock", "expected_version": view["version"]}
    response = player.act(game_id, body)
    assert response.status_code == 422 and response.json()["error"]["code"] == "offer_pending"
    response = player.act(game_id, {"type": "draw", "expected_version": view["version"]})
    assert response.status_code == 400 and response.json()["error"]["code"] == "invalid_action"


def test_a_drawn_round_is_saved_without_a_winner(alice: Player, bob: Player) -> None:
    game_id = start_game(alice, bob, game="gin_rummy")
    # Both players pass the upcard and throw back what they draw: the stock runs to the wall.
    for _ in range(200):
        if RoundResult.objects.filter(game_id=game_id).exists():
            break
        player, view = _mover([alice, bob], game_id)
        legal = [strip_seat(a) for a in view["table"]["legal_actions"]]
        table = view["table"]
        if table["phase"] == "discard":
            drawn = next(a for a in legal if a["type"] == "discard" and a["card"] == _last(table))
            body = drawn
        elif table["phase"] == "offer":
            body = {"type": "pass"}
        else:
            body = {"type": "draw", "source": "stock"}
        assert player.act(game_id, {**body, "expected_version": view["version"]}).status_code == 200
    saved = RoundResult.objects.get(game_id=game_id)
    assert saved.winner_position is None and saved.points == 0
    # Nobody is told that "nobody" won the round.
    assert not Notification.objects.filter(kind="round_over").exists()
    game = Game.objects.get(pk=game_id)
    assert game.status == Game.ACTIVE and GIN.state_from_dict(game.state).round == 2


def _last(table: dict[str, Any]) -> str:
    # The card just drawn from the stock is the last of the hand.
    return str(table["hand"][-1]["id"])


def test_a_timeout_passes_the_offer_then_throws_back_the_stock_card(
    alice: Player, bob: Player
) -> None:
    game_id = start_game(alice, bob, game="gin_rummy")
    for _ in range(3):
        game = Game.objects.get(pk=game_id)
        before = GIN.state_from_dict(game.state)
        assert services.timeout_turn(game_id=game.pk, version=game.version, now=game.turn_deadline)
    state = GIN.state_from_dict(Game.objects.get(pk=game_id).state)
    # Pass, pass, then the non-dealer drew from the stock and threw that card back.
    assert state.hands[1 - state.dealer] == before.hands[1 - state.dealer]
    assert state.discard[0] == before.stock[0]


def test_a_player_who_leaves_loses_by_forfeit(alice: Player, bob: Player) -> None:
    game_id = start_game(alice, bob, game="gin_rummy")
    response = bob.post(f"{API}{game_id}/leave/", {})
    assert response.status_code == 200, response.content
    game = Game.objects.get(pk=game_id)
    assert game.status == Game.FINISHED
    state = GIN.state_from_dict(game.state)
    bob_seat = Seat.objects.get(game_id=game_id, user=bob.user)
    assert state.winner == 1 - bob_seat.position and state.scores == [0, 0]


def test_an_absent_gin_player_is_taken_over_by_a_bot(alice: Player, bob: Player) -> None:
    seat = seat_after_its_one_timeout(alice, bob, GIN)
    assert seat.taken_over and seat.bot_level == "heuristic"
    assert Move.objects.filter(game_id=seat.game_id, action__type="timeout").exists()


def test_the_heuristic_beats_random_play() -> None:
    # Matches to 100; the heuristic wins most rounds (drawn rounds are won by nobody).
    result = arena.run(
        ["heuristic", "random"], games=30, players=2, seed=7, kind="gin_rummy", target_score=100
    )
    heuristic = result.stats["heuristic"]
    assert result.games == 30 and result.rounds >= 30
    assert heuristic.wins / heuristic.seat_rounds >= 0.8


def test_simulate_plays_gin_rummy() -> None:
    out = io.StringIO()
    call_command("simulate", game="gin_rummy", games=6, bots="heuristic,random", stdout=out)
    assert "6 games" in out.getvalue() and "\nheuristic " in out.getvalue()
