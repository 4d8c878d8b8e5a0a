"""A fifth game through the whole service: the toy of tests/toygame/ (its rules and its adapter),
registered for these tests only by one line (the ``toy`` fixture), is created, joined, played,
viewed, timed out, finished and replayed over the HTTP API, the timer sweep and the moderators'
replay, as Uno All Wild is; it is in the schema and in the list of games the web client offers.
Nothing outside its folder may name it for this to pass (docs/architecture.md, "Adding a new
game")."""

from __future__ import annotations

import io
import json
import random
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.plumbing import _load_enum_name_overrides
from drf_spectacular.validation import validate_schema

from games import services
from games.engine import registry
from games.engine.replay import replay
from games.models import Game, Move
from moderation import replay as moderation_replay
from players.models import User
from tests.errors import assert_error
from tests.games.conftest import API, API_TESTS, Player, game_url
from tests.games.test_move_log_schema import errors, validator
from tests.toygame import TOY, registered

pytestmark = API_TESTS


@pytest.fixture(autouse=True)
def toy() -> Iterator[None]:
    with registered():
        yield


def new_toy_game(host: Player, guest: Player, **body: Any) -> dict[str, Any]:
    created = host.create(game="toy", visibility="public", max_players=2, **body)
    assert created.status_code == 201, created.content
    joined = guest.join(created.json()["id"])
    assert joined.status_code == 200, joined.content
    game = joined.json()
    assert game["status"] == "active"
    return game


def mover_of(players: list[Player], game_id: str) -> tuple[Player, dict[str, Any]]:
    views = [(p, p.table(game_id)) for p in players]
    movers = [(p, v) for p, v in views if v["table"]["legal_actions"]]
    assert len(movers) == 1, views
    return movers[0]


def test_the_options_list_the_toy_game_beside_all_wild(alice: Player) -> None:
    options = alice.get(f"{API}options/").json()

    kinds = [g["kind"] for g in options["games"]]
    assert kinds == [registry.DEFAULT_KIND, "gin_rummy", "toy", "uno_no_mercy", "uno_splash"]
    toy = options["games"][2]
    assert toy == {
        "kind": "toy",
        "name": "Draw and discard",
        "presets": ["plain"],
        "default_preset": "plain",
        "house_rules": [],
        "house_rules_not_offered": [],
        "min_players": 2,
        "max_players": 2,
        "default_players": 2,
        "default_target": 2,
    }
    # The top-level fields stay All Wild's.
    assert options["default_preset"] == "standard"


def test_a_toy_game_is_set_up_by_its_own_schema(alice: Player) -> None:
    too_many = alice.create(game="toy", max_players=4)
    assert_error(too_many, 400, "invalid_setup")  # the toy has two seats
    assert_error(
        alice.create(game="toy", max_players=2, options={"stacking": True}), 400, "invalid_setup"
    )
    refused = alice.create(game="toy", max_players=2, preset="standard")
    assert "preset" in assert_error(refused, 400, "invalid_request")["details"]["fields"]
    unknown = alice.create(game="chess", max_players=2)
    assert "game" in assert_error(unknown, 400, "invalid_request")["details"]["fields"]
    assert not Game.objects.exists()

    # No seat count: the game's own default (two), as no preset or target is its own.
    game = alice.create(game="toy").json()
    assert (game["game"], game["preset"], game["target_score"]) == ("toy", "plain", 2)
    assert game["max_players"] == 2
    assert Game.objects.get(pk=game["id"]).kind == "toy"


def assert_replayed(game_id: str, django_user_model: type[User]) -> None:
    """The moderators' replay and the engine's replay of a finished toy game."""
    # The moderators' replay reaches the stored state, and shows any move before it.
    stored = Game.objects.get(pk=game_id)
    last = moderation_replay.state_after(stored)
    assert last.matches_stored is True
    moves = list(Move.objects.filter(game_id=game_id).order_by("number"))
    middle = moves[len(moves) // 2]
    at_middle = moderation_replay.state_after(stored, middle.number)
    assert at_middle.move.number == middle.number
    assert TOY.state_to_dict(at_middle.state) != stored.state

    # And the engine's replay rebuilds it from the log with the game's own actions.
    steps = [(TOY.action_from_dict(m.action), m.events) for m in moves[1:]]
    rebuilt = replay({"players": 2, "target_score": 0}, steps, moves[0].events, kind=TOY.kind)
    assert TOY.state_to_dict(rebuilt) == stored.state

    moderator = django_user_model.objects.create_superuser("mod", "mod@example.com", "pw-12345")
    client = Client()
    client.force_login(moderator)
    page = client.get(reverse("admin:games_game_replay", args=[game_id]), {"move": middle.number})
    assert page.status_code == 200
    shown = [[card["id"] for card in h["cards"]] for h in page.context["hands"]]
    assert shown == TOY.hands(at_middle.state)
    assert [c["id"] for c in page.context["draw_pile"]] == TOY.piles(at_middle.state)["draw"]
    # Named by the game itself (``card_name``), as the replay draws them.
    assert [c["name"] for c in page.context["draw_pile"]] == [
        TOY.card_name(c) for c in TOY.piles(at_middle.state)["draw"]
    ]


def test_a_toy_game_is_played_to_its_end_through_the_api_and_replayed(
    alice: Player, bob: Player, django_user_model: type[User]
) -> None:
    game = new_toy_game(alice, bob, target_score=0)
    game_id = game["id"]
    assert game["game"] == "toy"
    players = [alice, bob]
    rng = random.Random(7)

    # Its own action shapes, checked by its adapter: a discard names a card, and All Wild's
    # actions mean nothing here.
    mover, view = mover_of(players, game_id)
    table = view["table"]
    assert table["game"] == "toy" and len(table["hand"]) == 3
    no_card = assert_error(mover.act(game_id, {"type": "discard"}), 400, "invalid_request")
    assert "card" in no_card["details"]["fields"]
    too_long = assert_error(
        mover.act(game_id, {"type": "discard", "card": "c10"}), 400, "invalid_request"
    )
    assert "card" in too_long["details"]["fields"]
    assert_error(mover.act(game_id, {"type": "play", "card": "c1"}), 400, "invalid_action")
    assert_error(mover.act(game_id, {"type": "fly"}), 400, "invalid_action")
    waiter = bob if mover is alice else alice
    assert_error(waiter.act(game_id, {"type": "draw"}), 422, "illegal_action")

    # One draw, sent back as it was listed.
    draw = next(a for a in table["legal_actions"] if a["type"] == "draw")
    acted = mover.act(game_id, {**draw, "expected_version": view["version"]})
    assert acted.status_code == 200, acted.content
    assert len(acted.json()["table"]["hand"]) == 4
    # The other seat sees that a card was drawn, not which.
    events = waiter.events(game_id, after=view["version"]).json()["moves"][0]["events"]
    assert events == [{"type": "draw", "seat": draw["seat"]}]

    # A turn runs out: the sweep applies the game's timeout action (a draw) to the seat on turn.
    late, _ = mover_of(players, game_id)
    Game.objects.filter(pk=game_id).update(turn_deadline=timezone.now() - timedelta(seconds=1))
    assert services.sweep_expired_turns() == 1
    timed_out = Move.objects.filter(game_id=game_id).order_by("-number").first()
    assert timed_out is not None and timed_out.action["type"] == "timeout"
    assert [e["type"] for e in timed_out.events] == ["timeout", "draw"]
    after_timeout, _ = mover_of(players, game_id)
    assert after_timeout is not late

    # To the end: discards mostly, so the round ends.
    for _ in range(100):
        state = Game.objects.get(pk=game_id)
        if state.status != Game.ACTIVE:
            break
        mover, view = mover_of(players, game_id)
        legal = view["table"]["legal_actions"]
        discards = [a for a in legal if a["type"] == "discard"]
        chosen = rng.choice(discards if discards and rng.random() < 0.8 else legal)
        response = mover.act(game_id, {**chosen, "expected_version": view["version"]})
        assert response.status_code == 200, response.content

    final = alice.table(game_id)
    assert final["status"] == "finished" and final["finished_at"] is not None
    winner = final["table"]["winner"]
    assert final["table"]["legal_actions"] == []
    places = {p["seat"]: p["place"] for p in final["players"]}
    assert places[winner] == 1 and sorted(places.values()) == [1, 2]
    scores = {p["seat"]: p["final_score"] for p in final["players"]}
    assert scores == dict(enumerate(final["table"]["scores"]))

    assert_replayed(game_id, django_user_model)


def test_a_player_who_leaves_a_toy_game_loses_it(alice: Player, bob: Player) -> None:
    game_id = new_toy_game(alice, bob)["id"]

    assert bob.post(game_url(game_id, "leave/")).status_code == 200

    final = alice.table(game_id)
    assert final["status"] == "finished"
    assert {p["name"]: p["place"] for p in final["players"]} == {"Alice": 1, "Bob": 2}


def test_no_bots_play_the_toy_game(alice: Player) -> None:
    refused = alice.post(f"{API}vs-computer/", {"game": "toy", "bots": 1})
    assert_error(refused, 400, "invalid_setup")


TOY_SCENARIO = {
    "game": "toy",
    "name": "A draw passes the turn",
    "rule": "tests/toygame/engine.py: you discard a card or draw one; then the other player moves.",
    "players": 2,
    "seed": 3,
    "target_score": 0,
    "actions": [
        {"seat": "seat0", "type": "draw"},
        {"seat": "seat1", "type": "fly", "error": "invalid_action"},
    ],
    "expect": {
        "to_move": "seat1",
        "match_over": False,
        "scores": {"seat0": 0, "seat1": 0},
        "legal": {"seat0": []},
    },
}


def scenario(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    try:
        call_command("scenario", *args, stdout=out, stderr=io.StringIO())
    except SystemExit as exc:
        return int(exc.code or 0), out.getvalue()
    return 0, out.getvalue()


def test_the_scenario_command_runs_and_loads_a_toy_game_file(tmp_path: Path) -> None:
    path = tmp_path / "toy.json"
    path.write_text(json.dumps(TOY_SCENARIO))
    assert scenario("run", str(path), "--quiet") == (0, f"{path}: ok\n")

    wrong = {**TOY_SCENARIO, "expect": {"to_move": "seat0"}}
    path.write_text(json.dumps(wrong))
    assert scenario("run", str(path), "--quiet")[0] == 1

    path.write_text(json.dumps(TOY_SCENARIO))
    code, out = scenario("load", str(path), "--apply-actions")
    assert code == 0
    loaded = Game.objects.get(pk=json.loads(out)["game_id"])
    assert (loaded.kind, loaded.status, loaded.preset) == ("toy", Game.ACTIVE, "plain")
    assert TOY.to_move(TOY.state_from_dict(loaded.state)) == 1


def test_simulate_refuses_a_game_no_bot_plays() -> None:
    with pytest.raises(CommandError, match="no bots play Draw and discard"):
        call_command("simulate", game="toy", games=1, stdout=io.StringIO())
    with pytest.raises(CommandError, match="unknown game 'chess'"):
        call_command("simulate", game="chess", games=1, stdout=io.StringIO())


@pytest.fixture
def schema() -> dict[str, Any]:
    """The schema as `manage.py spectacular` makes it, now that the toy is registered.
    drf-spectacular reads the enum names once per process (a game registered later, as only
    tests do, needs them read again)."""
    _load_enum_name_overrides.cache_clear()
    try:
        result: dict[str, Any] = SchemaGenerator().get_schema(request=None, public=True)
    finally:
        _load_enum_name_overrides.cache_clear()
    validate_schema(result)
    return result


def test_the_ratings_kind_parameter_lists_the_toy_game(schema: dict[str, Any]) -> None:
    # Its views were imported before the toy was registered (the fixture above): the enum is
    # read from the registry when the schema is built.
    for path in ("leaderboards/{kind}/", "seasons/{kind}/{month}/"):
        parameters = schema["paths"][f"/api/v1/ratings/{path}"]["get"]["parameters"]
        kind = next(p for p in parameters if p["name"] == "kind")
        assert "toy" in kind["schema"]["enum"], kind


def test_the_toy_game_is_in_the_schema_by_its_adapter(schema: dict[str, Any]) -> None:
    components = schema["components"]["schemas"]
    tables = components["Table"]["discriminator"]["mapping"]
    assert tables["toy"] == "#/components/schemas/ToyTable"
    table = components["ToyTable"]
    assert table["properties"]["game"] == {"$ref": "#/components/schemas/ToyKindEnum"}
    assert components["ToyKindEnum"]["enum"] == ["toy"]
    assert components["ToyCardEnum"]["enum"] == [f"c{i}" for i in range(10)]
    listed = table["properties"]["legal_actions"]["items"]["$ref"].rsplit("/", 1)[-1]
    assert components[listed]["discriminator"]["mapping"] == {
        "discard": "#/components/schemas/ToyDiscardAction",
        "draw": "#/components/schemas/ToyDrawAction",
    }
    assert components["ToyDiscardAction"]["properties"]["card"]["maxLength"] == 2
    # Its example is among the action endpoint's, and a game is created with its kind.
    action = schema["paths"]["/api/v1/games/{game_id}/actions/"]["post"]
    examples = action["requestBody"]["content"]["application/json"]["examples"].values()
    assert {"type": "discard", "card": "c3"} in [e["value"] for e in examples]
    assert "toy" in components["GameEnum"]["enum"]


def test_the_toy_games_move_log_is_typed_by_its_adapter(
    schema: dict[str, Any], alice: Player, bob: Player
) -> None:
    components = schema["components"]["schemas"]
    events = components["ToyMoveEvent"]["discriminator"]["mapping"]
    assert events["discard"] == "#/components/schemas/ToyDiscardEvent"
    assert events["round_over"] == "#/components/schemas/ToyRoundOverEvent"
    # The hands revealed at the round's end: by seat, the toy's own cards.
    hands = components["ToyRoundOverEvent"]["properties"]["hands"]["$ref"].rsplit("/", 1)[-1]
    revealed = components[hands]["additionalProperties"]["items"]
    assert revealed["enum"] == [f"c{i}" for i in range(10)]
    actions = components["ToyMoveAction"]["discriminator"]["mapping"]
    assert actions["discard"] == "#/components/schemas/ToyDiscardAction"
    assert actions["timeout"] == "#/components/schemas/TimeoutMoveAction"
    assert "#/components/schemas/ToyMoveEvent" in [
        branch["$ref"] for branch in components["MoveEvent"]["anyOf"]
    ]

    # A real toy game's move log, as a player reads it, is what the schema says (its own union).
    game_id = new_toy_game(alice, bob, target_score=0)["id"]
    for _ in range(40):
        if alice.table(game_id)["status"] != Game.ACTIVE:
            break
        mover, view = mover_of([alice, bob], game_id)
        chosen = view["table"]["legal_actions"][0]
        assert (
            mover.act(game_id, {**chosen, "expected_version": view["version"]}).status_code == 200
        )
    assert alice.table(game_id)["status"] == Game.FINISHED
    page = bob.events(game_id, after=0).json()
    page_schema = validator(schema, "EventPage")
    assert not errors(page_schema, page), errors(page_schema, page)
    toy_events = validator(schema, "ToyMoveEvent")
    logged = [event for move in page["moves"] for event in move["events"]]
    assert "round_over" in [event["type"] for event in logged]
    assert all(not errors(toy_events, event) for event in logged)
    # All Wild's union does not take the toy's discard.
    discard = next(event for event in logged if event["type"] == "discard")
    assert errors(validator(schema, "UnoAllWildMoveEvent"), discard)
