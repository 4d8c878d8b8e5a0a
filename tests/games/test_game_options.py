"""GET games/options/: what a new game may be created with, true to what the server accepts."""

from __future__ import annotations

from rest_framework.test import APIClient

from tests.games.conftest import API, API_TESTS, Player

pytestmark = API_TESTS

OPTIONS = f"{API}options/"


def test_every_listed_choice_is_accepted_and_every_bound_is_the_real_one(alice: Player) -> None:
    response = alice.get(OPTIONS)
    assert response.status_code == 200, response.content
    options = response.json()

    assert options["default_preset"] in options["presets"]
    assert options["default_bot_level"] in options["bot_levels"]
    assert all(rule["description"] for rule in options["house_rules"])
    every_rule = {rule["name"]: True for rule in options["house_rules"]}
    for preset in options["presets"]:
        created = alice.create(preset=preset, options=every_rule, max_players=2)
        assert created.status_code == 201, created.content
        assert created.json()["options"] == every_rule
    for field in ("max_players", "target_score", "turn_seconds", "speed_seconds"):
        low, high = options[field]["min"], options[field]["max"]
        assert low <= options[field]["default"] <= high
        assert alice.create(**{field: low}).status_code == 201, field
        assert alice.create(**{field: high}).status_code == 201, field
        assert alice.create(**{field: high + 1}).status_code == 400, field
        assert alice.create(**{field: low - 1}).status_code == 400, field
    bots = options["bots"]
    for level in options["bot_levels"]:
        game = alice.post(f"{API}vs-computer/", {"bots": bots["max"], "level": level})
        assert game.status_code == 201, game.content
    assert alice.post(f"{API}vs-computer/", {"bots": bots["max"] + 1}).status_code == 400


def test_options_need_a_signed_in_caller() -> None:
    assert APIClient().get(OPTIONS).status_code == 401
