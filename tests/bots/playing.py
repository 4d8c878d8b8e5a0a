"""What the bot tests of every game check the same way: the heuristic picks only listed actions
over random playouts; a game against the computer plays to its end through the API; an absent
player's seat is taken over by a bot."""

from __future__ import annotations

import random
from typing import Any

from games import services
from games.bots.decide import decide
from games.engine.interface import Game as Rules
from games.models import Game, Move, Seat
from tests.engine.playout import run_playout
from tests.games.conftest import API, Player, start_game


def _bare(action: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in action.items() if k not in ("seat", "uno")}


def heuristic_choices_are_listed(
    game: Rules[Any, Any],
    *,
    players: int,
    preset: str,
    options: dict[str, bool],
    seeds: int,
    states: int,
) -> int:
    """Asks the heuristic for every seat's move in the first ``states`` states of ``seeds``
    random playouts and checks that each move is one of the seat's listed actions (a seat that
    gets no move must have none listed, or not be on turn). Returns how many moves it chose."""
    rng = random.Random(players)
    asked = 0
    for seed in range(seeds):
        playout = run_playout(
            seed,
            players=players,
            preset=preset,
            options=options,
            target_score=0,
            game=game,
            prefer_plays=True,
            keep_states=True,
        )
        for state in playout.states[:states]:
            for seat in range(players):
                view = game.view(state, seat)
                chosen = decide(view, [], level="heuristic", rng=rng)
                if chosen is None:
                    assert seat != state.current or not view["legal_actions"]
                    continue
                asked += 1
                assert _bare(chosen) in [_bare(a) for a in view["legal_actions"]], chosen
    return asked


def play_against_the_computer(player: Player, body: dict[str, Any], turns: int) -> str:
    """Starts ``body``'s game against the computer and plays it: ``player`` mostly plays a card
    when one is listed (a random listed action otherwise), the bots move when the turn sweep
    times their turn out. Fails unless the game is finished within ``turns``. Returns its id."""
    response = player.post(f"{API}vs-computer/", body)
    assert response.status_code == 201, response.content
    game_id = response.json()["id"]
    rng = random.Random(1)
    for _ in range(turns):
        game = Game.objects.get(pk=game_id)
        if game.status != Game.ACTIVE:
            break
        if game.current_user_id is None:  # a bot's turn: the sweep moves it
            assert services.timeout_turn(
                game_id=game.pk, version=game.version, now=game.turn_deadline
            )
            continue
        view = player.table(game_id)
        legal = [a for a in view["table"]["legal_actions"] if a["type"] not in ("uno", "catch")]
        plays = [a for a in legal if a["type"] in ("play", "play_drawn")]
        action = rng.choice(plays or legal)
        sent = {k: v for k, v in action.items() if k != "seat"}
        assert player.act(game_id, {**sent, "expected_version": view["version"]}).status_code == 200
    assert Game.objects.get(pk=game_id).status == Game.FINISHED
    return str(game_id)


def seat_after_its_one_timeout(host: Player, other: Player, rules: Rules[Any, Any]) -> Seat:
    """A game of ``rules`` between ``host`` and ``other`` that allows one timeout in a row:
    the seat on turn after its turn has timed out once."""
    game_id = start_game(host, other, game=rules.kind)
    Game.objects.filter(pk=game_id).update(max_timeouts=1)
    game = Game.objects.get(pk=game_id)
    position = rules.state_from_dict(game.state).current
    assert game.turn_deadline is not None
    assert services.timeout_turn(game_id=game.pk, version=game.version, now=game.turn_deadline)
    return Seat.objects.get(game_id=game_id, position=position)


def a_bot_played_a_card(game_id: str) -> bool:
    """Whether one of the game's bot seats played a card (not only drew or passed)."""
    bots = [s.position for s in Seat.objects.filter(game_id=game_id) if s.is_bot]
    return Move.objects.filter(game_id=game_id, seat__in=bots, action__type="play").exists()
