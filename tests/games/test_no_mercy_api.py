"""Uno Show 'Em No Mercy through the HTTP API: offered without house rules, created, viewed and
played to the end of a round; the stack and its answerer and the knocked-out seats in every
view; the moderators' replay of a knockout."""

from __future__ import annotations

import random
from typing import Any

from games.engine.registry import get_game
from games.models import Game
from moderation import replay as moderation_replay
from tests.games.conftest import (
    API,
    API_TESTS,
    Player,
    iter_pages,
    mover,
    start_game,
    strip_seat,
)

pytestmark = API_TESTS


def action(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A random turn action, a stack taken rather than answered now and then (knockouts)."""
    legal = [a for a in view["table"]["legal_actions"] if a["type"] not in ("uno", "catch")]
    take = [a for a in legal if a["type"] == "take_stack"]
    chosen = take[0] if take and rng.random() < 0.7 else rng.choice(legal)
    return {**strip_seat(chosen), "expected_version": view["version"]}


def test_the_options_offer_no_mercy_without_house_rules(alice: Player) -> None:
    games = {g["kind"]: g for g in alice.get(f"{API}options/").json()["games"]}
    no_mercy = games["uno_no_mercy"]
    assert (no_mercy["name"], no_mercy["presets"], no_mercy["default_target"]) == (
        "Uno Show 'Em No Mercy",
        ["standard"],
        1000,
    )
    assert no_mercy["house_rules"] == []
    assert (no_mercy["min_players"], no_mercy["max_players"]) == (2, 6)


def test_a_house_rule_is_refused_at_creation(alice: Player) -> None:
    response = alice.create(game="uno_no_mercy", max_players=2, options={"stacking": True})
    assert response.status_code == 400, response.content


def test_a_round_is_played_to_its_end_and_every_view_shows_stacks_and_knockouts(
    alice: Player, bob: Player, carol: Player
) -> None:
    players = [alice, bob, carol]
    game_id = start_game(alice, bob, carol, game="uno_no_mercy", target_score=0)
    view = alice.table(game_id)
    table = view["table"]
    assert (table["game"], table["preset"], table["knocked_out"]) == (
        "uno_no_mercy",
        "standard",
        [],
    )
    rng = random.Random(3)
    stacks = 0
    for _ in range(3000):
        if Game.objects.get(pk=game_id).status != Game.ACTIVE:
            break
        player, view = mover(players, game_id)
        stack = view["table"]["stack"]
        if stack is not None:
            stacks += 1
            assert stack["seat"] == view["table"]["you"] == view["table"]["current_seat"]
            assert stack["total"] >= stack["last"] >= 2
        response = player.act(game_id, action(view, rng))
        assert response.status_code == 200, response.content
    assert Game.objects.get(pk=game_id).status == Game.FINISHED
    final = alice.view(game_id).json()["table"]
    assert final["phase"] == "match_over" and final["winner"] in (0, 1, 2)
    assert stacks > 0


def test_the_moderators_replay_shows_a_knockout(alice: Player, bob: Player, carol: Player) -> None:
    players = [alice, bob, carol]
    rules = get_game("uno_no_mercy")
    for seed in range(20):
        game_id = start_game(alice, bob, carol, game="uno_no_mercy", target_score=0)
        rng = random.Random(seed)
        while Game.objects.get(pk=game_id).status == Game.ACTIVE:
            player, view = mover(players, game_id)
            assert player.act(game_id, action(view, rng)).status_code == 200
        game = Game.objects.get(pk=game_id)
        knockouts = [
            m.number
            for m in game.moves.order_by("number")
            if any(e["type"] == "knocked_out" for e in m.events)
        ]
        if knockouts:
            break
    else:  # pragma: no cover - a failure
        raise AssertionError("no knockout in 20 games")
    replayed = moderation_replay.state_after(game, knockouts[0])
    seen = rules.moderator_view(replayed.state)
    assert seen["knocked_out"] or seen["phase"] in ("round_over", "match_over")
    assert moderation_replay.state_after(game).matches_stored is True
    moves = [m for page in iter_pages(alice, str(game.pk)) for m in page["moves"]]
    (knocked,) = [e for m in moves for e in m["events"] if e["type"] == "knocked_out"][:1]
    assert "cards" not in knocked  # a set-aside hand is face down for everyone
