"""Uno Splash through its game object: what the scenarios do not show (options, JSON forms, who
sees what, the server's random choices at a timeout or a leave)."""

from __future__ import annotations

import random

import pytest

from games.engine import EngineError
from games.engine.registry import get_game
from games.engine.scenario import build_position
from games.engine.uno.actions import Action
from games.engine.uno.splash.game import SPLASH
from games.engine.uno.state import State


def position(options: dict[str, bool] | None = None, **pos: object) -> State:
    data = {"game": "uno_splash", "options": options or {}, "position": pos}
    state, _, _ = build_position(data)
    return state


def three_seats(**extra: object) -> State:
    """Alice to play, holding an illegal Wild Draw Four (she holds red on red)."""
    return position(
        seats=[
            {"name": "alice", "hand": ["wd4-1", "red-5-a", "blue-3-a"]},
            {"name": "bob", "hand": ["blue-2-a", "yellow-9-a"]},
            {"name": "carol", "hand": ["green-7-a", "green-8-a"]},
        ],
        discard_pile=["red-9-a"],
        **extra,
    )


def test_uno_splash_is_registered_with_one_preset() -> None:
    game = get_game("uno_splash")
    assert game is SPLASH
    assert (game.name, list(game.presets), game.default_target) == ("Uno Splash", ["classic"], 500)
    assert (game.min_players, game.max_players) == (2, 10)


@pytest.mark.parametrize("rule", ["blind_play", "force_swap_protection"])
def test_refused_house_rules_are_refused_at_creation_and_named_in_the_schema(rule: str) -> None:
    with pytest.raises(EngineError) as error:
        SPLASH.validate_options({rule: True})
    assert error.value.code == "invalid_setup" and "not offered" in error.value.message
    schema = SPLASH.options_schema()
    assert rule not in schema["properties"] and rule in schema["description"]
    assert rule in schema["x-not-offered"]


def test_stacking_is_offered_and_no_longer_listed_as_not_offered() -> None:
    state, _ = SPLASH.new_game(players=2, rng=random.Random(0), options={"stacking": True})
    assert state.options["stacking"] is True
    assert "stacking" not in SPLASH.options_schema()["x-not-offered"]


def test_stacking_speed_mode_double_down_and_mercy_are_offered() -> None:
    assert set(SPLASH.options_schema()["properties"]) == {
        "stacking",
        "speed_mode",
        "double_down",
        "mercy",
    }
    opts = SPLASH.validate_options({"mercy": True})
    assert opts["mercy"] is True and opts["speed_mode"] is False


def test_a_colour_is_part_of_a_splash_action_and_unknown_to_all_wild() -> None:
    action = SPLASH.action_from_dict({"type": "play", "seat": 0, "card": "wild-1", "colour": "red"})
    assert action.colour == "red"
    assert SPLASH.action_to_dict(action)["colour"] == "red"
    with pytest.raises(EngineError) as error:
        SPLASH.action_from_dict({"type": "play", "seat": 0, "card": "wild-1", "colour": "pink"})
    assert error.value.code == "invalid_action"
    with pytest.raises(EngineError) as error:
        get_game("uno_all_wild").action_from_dict({"type": "play", "seat": 0, "colour": "red"})
    assert error.value.code == "invalid_action"
    with pytest.raises(EngineError) as error:
        SPLASH.action_from_dict({"type": "choose_target", "seat": 0})
    assert error.value.code == "invalid_action"


def test_the_challenged_hand_is_shown_to_the_challenger_alone() -> None:
    state = three_seats()
    state, _ = SPLASH.apply(state, Action("play", 0, "wd4-1", colour="blue"), random.Random(0))
    for seat in range(3):
        shown = SPLASH.view(state, seat)
        assert "red-5-a" not in str(shown["pending_choice"])
        assert "legal" not in shown["pending_choice"]
    _, events = SPLASH.apply(state, Action("challenge", 1), random.Random(0))
    (challenge,) = [e for e in events if e["type"] == "challenge"]
    seen = {seat: SPLASH.visible_event(challenge, seat) for seat in (0, 1, 2)}
    assert seen[1] is not None and seen[1]["hand"] == ["red-5-a", "blue-3-a"]
    for seat in (0, 2):
        assert seen[seat] is not None and "hand" not in seen[seat]
        assert seen[seat]["succeeded"] is True


def test_a_timeout_names_an_open_opening_colour_at_random_then_draws() -> None:
    state = three_seats(phase="choose", pending={"seat": "alice", "effect": "colour"})
    state.discard_pile = ["wild-1", *state.discard_pile]
    state.draw_pile.remove("wild-1")
    after, events = SPLASH.apply(state, Action("timeout", 0), random.Random(3))
    assert after.colour in ("red", "yellow", "green", "blue")
    assert [e["type"] for e in events if e["type"] in ("chance", "colour_chosen", "draw")] == [
        "chance",
        "colour_chosen",
        "draw",
    ]
    assert after.current == 1 and len(after.seats[0].hand) == 4


def test_the_first_player_leaving_before_naming_the_colour_leaves_one_named() -> None:
    state = three_seats(phase="choose", pending={"seat": "alice", "effect": "colour"})
    state.discard_pile = ["wild-1", *state.discard_pile]
    state.draw_pile.remove("wild-1")
    after, _ = SPLASH.apply(state, Action("leave", 0), random.Random(3))
    assert after.colour is not None and after.phase == "play" and after.current == 1


def test_mercy_keeps_the_colour_in_force_and_waits_for_an_owed_answer() -> None:
    big = [f"red-{n}-{copy}" for n in range(1, 9) for copy in "ab"][:15]
    state = position(
        options={"mercy": True},
        seats=[{"name": "alice", "hand": ["wd4-1", "blue-1-a"]}, {"name": "bob", "hand": big}],
        discard_pile=["green-9-a"],
    )
    state, _ = SPLASH.apply(state, Action("play", 0, "wd4-1", colour="yellow"), random.Random(0))
    five = tuple(big[:5])
    with pytest.raises(EngineError) as error:
        SPLASH.apply(state, Action("mercy", 1, cards=five), random.Random(0))
    assert error.value.code == "choice_pending"
    state, _ = SPLASH.apply(state, Action("accept", 1), random.Random(0))
    state, _ = SPLASH.apply(state, Action("mercy", 1, cards=five), random.Random(0))
    assert state.discard_pile[0] == "wd4-1" and state.colour == "yellow"
    assert len(state.seats[1].hand) == 15 + 4 - 5


def test_sampling_after_the_wild_draw_fours_player_left_keeps_no_trace_of_the_hand() -> None:
    state = three_seats()
    state, _ = SPLASH.apply(state, Action("play", 0, "wd4-1", colour="blue"), random.Random(0))
    state, _ = SPLASH.apply(state, Action("leave", 0), random.Random(0))
    assert state.pending is not None and state.phase == "respond"
    rng = random.Random(9)
    records = set()
    for _ in range(20):
        sample = SPLASH.sample_hidden(state, 1, rng)
        assert SPLASH.view(sample, 1) == SPLASH.view(state, 1)
        assert sample.pending is not None and len(sample.pending["hand"]) == 2
        records.add(tuple(sample.pending["hand"]))
    assert len(records) > 1, "the recorded hand was not dealt again"
