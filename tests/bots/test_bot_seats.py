"""Bots at the table through the service and the API: seat fillers in the lobby, playing against
the computer, bot moves (task and timer sweep), takeover after timeouts and taking it back."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest
from django.test import override_settings
from django.utils import timezone

from games import services, tasks
from games.engine.uno.nomercy.game import NO_MERCY
from games.engine.uno.splash.game import SPLASH
from games.engine.uno.state import State
from games.models import Game, Move, Seat
from tests.bots.playing import (
    a_bot_played_a_card,
    play_against_the_computer,
    seat_after_its_one_timeout,
)
from tests.games.conftest import (
    API,
    API_TESTS,
    Player,
    game_url,
    new_lobby,
    random_action,
    start_game,
)

pytestmark = API_TESTS


def add_bot(player: Player, game_id: Any, level: str = "heuristic") -> Any:
    return player.post(game_url(game_id, "bots/"), {"level": level})


def vs_computer(player: Player, **body: Any) -> dict[str, Any]:
    response = player.post(f"{API}vs-computer/", {"target_score": 0, **body})
    assert response.status_code == 201, response.content
    return response.json()


def bot_seats(game_id: Any) -> list[Seat]:
    return [s for s in Seat.objects.filter(game_id=game_id) if s.is_bot]


def run_bots(game_id: Any) -> int:
    """Let the bots move while a bot is on turn, the way the timer sweep does when their task
    never ran (tests run Celery inline, so no task is queued). Returns how many moved."""
    moved = 0
    while True:
        game = Game.objects.get(pk=game_id)
        if game.status != Game.ACTIVE or game.current_user_id is not None:
            return moved
        assert game.turn_deadline is not None
        assert services.timeout_turn(game_id=game.pk, version=game.version, now=game.turn_deadline)
        moved += 1


def pass_turn_to_bot(player: Player, game_id: Any) -> Game:
    """Let ``player`` give the turn away (choose a target, or draw and pass) until a bot is on
    turn."""
    for _ in range(10):
        game = Game.objects.get(pk=game_id)
        if game.current_user_id != player.user.pk:
            return game
        legal = {a["type"]: a for a in player.table(game_id)["table"]["legal_actions"]}
        for kind in ("choose_target", "pass", "draw"):
            if kind in legal:
                action = {k: v for k, v in legal[kind].items() if k != "seat"}
                assert player.act(game_id, action).status_code == 200
                break
    raise AssertionError("the turn never passed to a bot")


# ---------------------------------------------------------------------------------------------
# Lobby


def test_the_host_adds_a_bot_and_removes_it_again(alice: Player) -> None:
    lobby = new_lobby(alice, max_players=3)

    response = add_bot(alice, lobby["id"], "expert")

    assert response.status_code == 201, response.content
    players = response.json()["players"]
    bot = next(p for p in players if p["bot_level"])
    assert bot == {
        "seat": None,
        "seat_id": bot["seat_id"],
        "user_id": None,
        "name": "Ada (bot)",
        "left": False,
        "you": False,
        "final_score": None,
        "place": None,
        "rating_change": None,
        "bot_level": "expert",
        "taken_over": False,
    }
    assert response.json()["version"] > lobby["version"]
    removed = alice.client.delete(game_url(lobby["id"], f"bots/{bot['seat_id']}/"))
    assert removed.status_code == 200, removed.content
    assert [p["name"] for p in removed.json()["players"]] == ["Alice"]


def test_a_lobby_filled_with_bots_starts_by_itself(alice: Player) -> None:
    lobby = new_lobby(alice, max_players=3)
    add_bot(alice, lobby["id"], "random")
    response = add_bot(alice, lobby["id"], "heuristic")
    assert response.json()["status"] == "active"
    names = sorted(p["name"] for p in response.json()["players"])
    assert names == ["Ada (bot)", "Alan (bot)", "Alice"]
    assert sorted(p["seat"] for p in response.json()["players"]) == [0, 1, 2]


def test_only_the_host_adds_or_removes_bots_in_an_open_lobby(alice: Player, bob: Player) -> None:
    lobby = new_lobby(alice, max_players=3)
    bob.join_by_code(lobby["invite_code"])
    refused = add_bot(bob, lobby["id"])
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "not_host"
    assert add_bot(alice, lobby["id"], "genius").status_code == 400
    seat_id = add_bot(alice, lobby["id"]).json()["players"][-1]["seat_id"]  # full: started
    assert add_bot(alice, lobby["id"]).json()["error"]["code"] == "game_full"
    gone = alice.client.delete(game_url(lobby["id"], f"bots/{seat_id}/"))
    assert gone.status_code == 409 and gone.json()["error"]["code"] == "game_already_started"


def test_a_person_is_not_a_bot_to_remove(alice: Player, bob: Player) -> None:
    lobby = new_lobby(alice, max_players=3)
    joined = bob.join_by_code(lobby["invite_code"]).json()
    bob_seat = next(p["seat_id"] for p in joined["players"] if p["name"] == "Bob")
    response = alice.client.delete(game_url(lobby["id"], f"bots/{bob_seat}/"))
    assert response.status_code == 404 and response.json()["error"]["code"] == "bot_not_found"


def test_when_the_host_leaves_a_lobby_only_people_can_host_it(alice: Player, bob: Player) -> None:
    lobby = new_lobby(alice, max_players=4)
    add_bot(alice, lobby["id"])
    bob.join_by_code(lobby["invite_code"])
    alice.leave(lobby["id"])
    assert Game.objects.get(pk=lobby["id"]).host_id == bob.user.pk
    bob.leave(lobby["id"])
    assert Game.objects.get(pk=lobby["id"]).status == Game.EXPIRED  # bots alone do not wait


# ---------------------------------------------------------------------------------------------
# Playing against the computer


def test_playing_against_the_computer_starts_a_game_with_bots_at_once(alice: Player) -> None:
    game = vs_computer(alice, bots=3, level="random", preset="mattel_2021")
    assert game["status"] == "active" and game["preset"] == "mattel_2021"
    assert game["max_players"] == 4 and game["visibility"] == "private"
    assert [p["bot_level"] for p in game["players"]].count("random") == 3
    assert game["table"]["you"] == game["your_seat"]


@pytest.mark.parametrize("level", ["random", "heuristic", "expert"])
@override_settings(BOT_BUDGET_MS=10)
def test_a_game_against_the_computer_plays_to_the_end_through_the_service(
    alice: Player, seeded_engine: Any, level: str
) -> None:
    seeded_engine(4)
    game_id = vs_computer(alice, bots=2, level=level)["id"]
    rng = random.Random(1)
    bot_moves = 0
    for _ in range(1000):
        bot_moves += run_bots(game_id)
        game = Game.objects.get(pk=game_id)
        if game.status != Game.ACTIVE:
            break
        assert game.current_user_id == alice.user.pk
        response = alice.act(game_id, random_action(alice.table(game_id), rng))
        assert response.status_code == 200, response.content
    game = Game.objects.get(pk=game_id)
    assert game.status == Game.FINISHED
    assert bot_moves > 0
    positions = {s.position for s in bot_seats(game_id)}
    bot_plays = Move.objects.filter(game_id=game_id, seat__in=positions, action__type="play")
    assert bot_plays.exists()
    assert not Move.objects.filter(game_id=game_id, action__type="timeout").exists()
    places = sorted(Seat.objects.filter(game_id=game_id).values_list("place", flat=True))
    assert places == [1, 2, 3]


@pytest.mark.parametrize(
    ("game", "bots", "turns"), [("uno_splash", 1, 400), ("uno_no_mercy", 2, 600)]
)
def test_a_game_of_another_uno_against_the_computer_plays_to_the_end_over_the_api(
    alice: Player, seeded_engine: Any, game: str, bots: int, turns: int
) -> None:
    seeded_engine(3)
    body = {"game": game, "bots": bots, "level": "heuristic", "target_score": 0}
    game_id = play_against_the_computer(alice, body, turns=turns)
    assert a_bot_played_a_card(game_id)


@pytest.mark.parametrize("rules", [SPLASH, NO_MERCY], ids=lambda rules: rules.kind)
def test_an_absent_player_of_another_uno_is_taken_over_by_a_bot(
    alice: Player, bob: Player, rules: Any
) -> None:
    seat = seat_after_its_one_timeout(alice, bob, rules)
    assert seat.taken_over and seat.bot_level == "heuristic"


def test_a_bots_turn_has_a_short_clock_and_nobody_to_notify(alice: Player) -> None:
    game_id = vs_computer(alice, bots=1)["id"]
    game = pass_turn_to_bot(alice, game_id)
    assert game.current_user_id is None
    assert game.turn_deadline is not None
    assert game.turn_deadline - timezone.now() < timedelta(seconds=10)
    assert not alice.table(game_id)["your_turn"]


def test_the_sweep_moves_a_bot_whose_task_was_lost(alice: Player) -> None:
    game_id = vs_computer(alice, bots=1)["id"]
    game = pass_turn_to_bot(alice, game_id)
    bot = bot_seats(game_id)[0]
    assert game.current_user_id is None and game.turn_deadline is not None

    # Nothing happens before the deadline: the task has its chance first.
    assert services.sweep_expired_turns(now=game.turn_deadline - timedelta(seconds=1)) == 0
    assert services.sweep_expired_turns(now=game.turn_deadline) == 1

    move = Move.objects.filter(game_id=game_id).latest("number")
    assert move.seat == bot.position
    assert move.action["type"] != "timeout"
    bot.refresh_from_db()
    assert bot.timeouts_in_row == 0


def test_a_move_that_leaves_a_bot_on_turn_queues_its_task_on_commit(
    alice: Player, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    queued: list[tuple[Any, dict[str, Any]]] = []
    monkeypatch.setattr(services.turns, "_tasks_run_inline", lambda: False)  # as with a broker
    monkeypatch.setattr(tasks.bot_move, "apply_async", lambda args, **kw: queued.append((args, kw)))
    with django_capture_on_commit_callbacks(execute=True):
        game_id = vs_computer(alice, bots=1)["id"]
    game = Game.objects.get(pk=game_id)
    if game.current_user_id is not None:
        queued.clear()
        with django_capture_on_commit_callbacks(execute=True):
            game = pass_turn_to_bot(alice, game_id)
    assert len(queued) == 1
    (args, options) = queued[0]
    assert args == (str(game.pk), game.version)
    assert 0 < options["countdown"] <= 5  # a short, natural pause, never a long ETA
    # The bot's deadline leaves the task its time before the sweep steps in.
    assert game.turn_deadline is not None
    assert game.turn_deadline - timezone.now() > timedelta(seconds=options["countdown"])


def test_the_bot_task_moves_once_and_a_stale_task_does_nothing(alice: Player) -> None:
    game_id = vs_computer(alice, bots=1)["id"]
    version = pass_turn_to_bot(alice, game_id).version

    assert tasks.bot_move(str(game_id), version) is True
    assert Game.objects.get(pk=game_id).version == version + 1
    assert tasks.bot_move(str(game_id), version) is False  # late or repeated: nothing
    assert Game.objects.get(pk=game_id).version == version + 1


def test_in_speed_mode_bots_move_without_a_pause(alice: Player) -> None:
    game_id = vs_computer(alice, bots=1, options={"speed_mode": True})["id"]
    game = pass_turn_to_bot(alice, game_id)
    assert game.turn_deadline is not None
    assert game.turn_deadline - timezone.now() < timedelta(seconds=1)


def test_when_the_last_person_leaves_the_bots_leave_too(alice: Player) -> None:
    game_id = vs_computer(alice, bots=2, level="random")["id"]
    assert alice.leave(game_id).status_code == 200
    game = Game.objects.get(pk=game_id)
    assert game.status == Game.FINISHED
    winner = State.from_dict(game.state).winner
    assert winner in {s.position for s in bot_seats(game_id)}


# ---------------------------------------------------------------------------------------------
# Takeover


def _time_out(game: Game, position: int) -> None:
    """Time out seats until ``position``'s turn has timed out once more."""
    for _ in range(20):
        game.refresh_from_db()
        current = State.from_dict(game.state).current
        assert game.turn_deadline is not None
        services.timeout_turn(game_id=game.pk, version=game.version, now=game.turn_deadline)
        if current == position:
            return
        Seat.objects.filter(game=game).exclude(position=position).update(timeouts_in_row=0)
    raise AssertionError("the turn never came back")


def _absent_player(players: list[Player], game_id: Any) -> tuple[Player, Seat]:
    game = Game.objects.get(pk=game_id)
    position = State.from_dict(game.state).current
    seat = Seat.objects.get(game=game, position=position)
    return next(p for p in players if p.user.pk == seat.user_id), seat


def test_after_three_timeouts_in_a_row_a_bot_takes_the_seat_over(
    alice: Player, bob: Player, carol: Player
) -> None:
    game_id = start_game(alice, bob, carol)
    absent, seat = _absent_player([alice, bob, carol], game_id)
    game = Game.objects.get(pk=game_id)
    assert game.timeout_policy == Game.POLICY_BOT
    for _ in range(3):
        _time_out(game, seat.position)

    seat.refresh_from_db()
    assert seat.taken_over and seat.bot_level == "heuristic" and seat.left_at is None
    # The log says so, with the timeout that did it.
    move = Move.objects.filter(game_id=game_id, action__type="timeout").latest("number")
    assert move.events[0] == {
        "type": "bot_took_over",
        "seat": seat.position,
        "level": "heuristic",
        "reason": "timeouts",
    }
    seen = absent.events(game_id, after=move.number - 1).json()["moves"][0]["events"]
    assert seen[0]["type"] == "bot_took_over"
    # The view shows it to everyone.
    players = alice.table(game_id)["players"]
    shown = next(p for p in players if p["seat"] == seat.position)
    assert shown["taken_over"] and shown["bot_level"] == "heuristic"
    assert shown["name"] == absent.user.public_name
    # From now on the bot plays that seat instead of timing out.
    for _ in range(10):
        game.refresh_from_db()
        if State.from_dict(game.state).current == seat.position:
            break
        _time_out(game, State.from_dict(game.state).current)
    game.refresh_from_db()
    assert game.current_user_id is None  # nobody waits for the absent player any more
    services.timeout_turn(game_id=game.pk, version=game.version, now=game.turn_deadline)
    last = Move.objects.filter(game_id=game_id).latest("number")
    assert last.seat == seat.position and last.action["type"] != "timeout"


def test_the_old_policy_still_takes_the_player_out(
    alice: Player, bob: Player, carol: Player
) -> None:
    game_id = start_game(alice, bob, carol)
    Game.objects.filter(pk=game_id).update(timeout_policy=Game.POLICY_LEAVE, max_timeouts=1)
    _, seat = _absent_player([alice, bob, carol], game_id)
    _time_out(Game.objects.get(pk=game_id), seat.position)
    seat.refresh_from_db()
    assert seat.left_at is not None and not seat.bot_level


def _taken_over_game(alice: Player, bob: Player) -> tuple[str, Player, Seat]:
    game_id = start_game(alice, bob)
    Game.objects.filter(pk=game_id).update(max_timeouts=1)
    absent, seat = _absent_player([alice, bob], game_id)
    _time_out(Game.objects.get(pk=game_id), seat.position)
    seat.refresh_from_db()
    assert seat.taken_over
    return game_id, absent, seat


def test_the_player_takes_the_seat_back(alice: Player, bob: Player) -> None:
    game_id, absent, seat = _taken_over_game(alice, bob)
    before = Game.objects.get(pk=game_id).version

    response = absent.post(game_url(game_id, "reclaim/"))

    assert response.status_code == 200, response.content
    mine = next(p for p in response.json()["players"] if p["you"])
    assert mine["taken_over"] is False and mine["bot_level"] is None
    assert response.json()["version"] > before
    game = Game.objects.get(pk=game_id)
    if State.from_dict(game.state).current == seat.position:
        assert game.current_user_id == absent.user.pk  # their turn, their full clock again
        assert game.turn_deadline - timezone.now() > timedelta(minutes=30)
    again = absent.post(game_url(game_id, "reclaim/"))
    assert again.status_code == 409 and again.json()["error"]["code"] == "not_taken_over"


def test_acting_takes_the_seat_back(alice: Player, bob: Player) -> None:
    game_id, absent, seat = _taken_over_game(alice, bob)
    game = Game.objects.get(pk=game_id)
    if State.from_dict(game.state).current != seat.position:
        pass_turn_to_bot(bob if absent is alice else alice, game_id)
    game.refresh_from_db()
    assert State.from_dict(game.state).current == seat.position
    legal = absent.table(game_id)["table"]["legal_actions"]
    draw = [a for a in legal if a["type"] == "draw"]  # a draw keeps the turn: a clock to see
    action = {k: v for k, v in (draw or legal)[0].items() if k != "seat"}

    response = absent.act(game_id, action)

    assert response.status_code == 200, response.content
    seat.refresh_from_db()
    assert not seat.taken_over
    move = Move.objects.filter(game_id=game_id).latest("number")
    assert move.events[0] == {"type": "seat_reclaimed", "seat": seat.position}
    game.refresh_from_db()
    if State.from_dict(game.state).current == seat.position:
        assert game.current_user_id == absent.user.pk


def test_a_moderator_can_hand_a_seat_to_a_bot(alice: Player, bob: Player, carol: Player) -> None:
    game_id = start_game(alice, bob, carol)
    game = Game.objects.get(pk=game_id)
    on_turn, seat = _absent_player([alice, bob, carol], game_id)

    services.hand_seat_to_bot(game_id, on_turn.user, level="expert")

    seat.refresh_from_db()
    assert seat.taken_over and seat.bot_level == "expert"
    after = Game.objects.get(pk=game_id)
    assert after.version == game.version + 1
    assert after.current_user_id is None  # it was their turn: the bot's short clock now
    assert after.turn_deadline is not None
    assert after.turn_deadline - timezone.now() < timedelta(seconds=10)
