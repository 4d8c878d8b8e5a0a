"""The scenario parts (``scenario_steps.ScenarioParts``) of any registered game, through the game
interface only.

The Uno family's files (``scenario.py``, docs/scenarios.md) set up exact positions with card
tokens; any other game's are read here and played from a seeded deal:

```json
{"game": "toy", "name": "...", "rule": "...", "players": 2, "seed": 3,
 "preset": "plain", "options": {}, "target_score": 0,
 "actions": [{"seat": 0, "type": "draw"},
             {"seat": "seat1", "type": "fly", "error": "invalid_action"}],
 "expect": {"to_move": "seat0", "round_over": false, "match_over": false, "scores": {"seat0": 0},
            "winner": null, "legal": {"seat0": [{"type": "draw"}]}}}
```

``players`` (or ``names``) names the seats (``seat0``, ``seat1``... by default); an action's or
an expectation's seat is a name or a number. ``legal`` lists a seat's legal actions without
their ``seat``. A round that ends is followed by the next deal, as in the service.

An exact position instead of a deal: ``position`` is a state in the game's own JSON form
(``state_to_dict``; keys left out take the game's defaults), e.g. Gin Rummy's hands, stock and
discard pile. Exact outcomes: ``hands`` (each seat's cards, in order), ``piles`` (the named piles,
top first, as ``Game.piles``) and ``view`` (per seat, keys that the seat's view must hold: objects
are compared key by key, anything else exactly).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from . import scenario_steps
from .errors import EngineError
from .interface import RNG, Event, Game
from .registry import get_game
from .scenario_steps import COMMON_KEYS, Outcome, seeded

TOP_LEVEL_KEYS = COMMON_KEYS | {"players", "names", "position"}
EXPECT_KEYS = {
    "to_move",
    "round_over",
    "match_over",
    "scores",
    "winner",
    "legal",
    "hands",
    "piles",
    "view",
}


class GameScenarioError(ValueError):
    """The file is not a valid scenario."""


@dataclass
class GameScenarioResult:
    game: Game[Any, Any]
    name: str
    state: Any
    names: list[str]
    events: list[Event] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    unexpected_error: EngineError | None = None

    @property
    def ok(self) -> bool:
        return not self.failures and self.unexpected_error is None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "game": self.game.kind, "ok": self.ok}
        if self.unexpected_error is not None:
            out["error"] = {
                "code": self.unexpected_error.code,
                "message": self.unexpected_error.message,
            }
        out["failures"] = self.failures
        out["state"] = self.game.moderator_view(self.state)
        out["events"] = self.events
        return out


def _seat(value: Any, names: list[str]) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(names):
        return value
    if isinstance(value, str) and value in names:
        return names.index(value)
    raise GameScenarioError(f"no seat {value!r}")


def setup(data: dict[str, Any]) -> tuple[Game[Any, Any], Any, list[str], list[Event]]:
    """The scenario's game, its first deal (seeded by ``seed``), its seat names and the deal's
    events."""
    if not isinstance(data, dict):
        raise GameScenarioError("a scenario is a JSON object")
    unknown = set(data) - TOP_LEVEL_KEYS
    if unknown:
        raise GameScenarioError(f"unknown keys in the scenario: {', '.join(sorted(unknown))}")
    try:
        game = get_game(data.get("game"))
    except EngineError as exc:
        raise GameScenarioError(exc.message) from exc
    names = data.get("names") or [f"seat{i}" for i in range(data.get("players", 2))]
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise GameScenarioError("names lists the seats' names")
    try:
        state, events = game.new_game(
            players=len(names),
            rng=random.Random(data.get("seed", 0)),
            preset=data.get("preset"),
            options=game.validate_options(data.get("options", {})),
            target_score=data.get("target_score"),
        )
    except EngineError as exc:
        raise GameScenarioError(exc.message) from exc
    if "position" in data:
        if not isinstance(data["position"], dict):
            raise GameScenarioError("position is the game's state as a JSON object")
        try:
            state = game.state_from_dict({**game.state_to_dict(state), **data["position"]})
        except (TypeError, ValueError, KeyError) as exc:
            raise GameScenarioError(f"position does not fit the game's state: {exc}") from exc
        events = []
    return game, state, list(names), events


class GenericParts:
    """Any game's part of the one runner (``scenario_steps.run``): a seeded deal or a position in
    the game's own state form, steps in its actions' JSON form with seats by name."""

    keys = TOP_LEVEL_KEYS - COMMON_KEYS
    invalid: type[Exception] = GameScenarioError
    deal_next_round = True

    def start(self, data: dict[str, Any]) -> tuple[Game[Any, Any], GameScenarioResult, list[str]]:
        game, state, names, events = setup(data)
        return (
            game,
            GameScenarioResult(game, data.get("name", ""), state, names, list(events)),
            names,
        )

    def rng(self, data: dict[str, Any]) -> RNG:
        return seeded(data, 1)  # the deal used ``seed`` itself

    def to_action(
        self, game: Game[Any, Any], step: dict[str, Any], state: Any, names: list[str]
    ) -> Any:
        raw = {k: v for k, v in step.items() if k != "error"}
        if "seat" in raw:
            raw["seat"] = _seat(raw["seat"], names)
        return game.action_from_dict(raw)

    def check(
        self, expect: Any, game: Game[Any, Any], outcome: Outcome, names: list[str]
    ) -> list[str]:
        return _check(game, outcome.state, names, expect)


GENERIC = GenericParts()


def run(data: dict[str, Any]) -> GameScenarioResult:
    """Apply the scenario's actions and check its ``expect`` block."""
    result = scenario_steps.run(GENERIC, data)
    assert isinstance(result, GameScenarioResult)
    return result


def _check(game: Game[Any, Any], state: Any, names: list[str], expect: Any) -> list[str]:
    if not isinstance(expect, dict) or set(expect) - EXPECT_KEYS:
        raise GameScenarioError(f"expect is an object of {', '.join(sorted(EXPECT_KEYS))}")
    failures: list[str] = []

    def differ(what: str, wanted: Any, got: Any) -> None:
        if wanted != got:
            failures.append(f"{what}: expected {wanted!r}, got {got!r}")

    if "to_move" in expect:
        wanted = expect["to_move"]
        differ("to_move", None if wanted is None else _seat(wanted, names), game.to_move(state))
    if "round_over" in expect:
        differ("round_over", expect["round_over"], game.is_round_over(state))
    if "match_over" in expect:
        differ("match_over", expect["match_over"], game.is_match_over(state))
    if "winner" in expect:
        wanted = expect["winner"]
        differ("winner", None if wanted is None else _seat(wanted, names), game.match_winner(state))
    scores = game.scores(state)
    for seat, score in expect.get("scores", {}).items():
        differ(f"scores.{seat}", score, scores[_seat(seat, names)])
    hands = game.hands(state)
    for seat, cards in expect.get("hands", {}).items():
        differ(f"hands.{seat}", cards, hands[_seat(seat, names)])
    piles = game.piles(state)
    for name, cards in expect.get("piles", {}).items():
        differ(f"piles.{name}", cards, piles.get(name))
    for seat, wanted_view in expect.get("view", {}).items():
        seen = game.view(state, _seat(seat, names))
        failures.extend(f"view.{seat}.{f}" for f in _subset(wanted_view, seen))
    for seat, listed in expect.get("legal", {}).items():
        got = [game.action_to_dict(a) for a in game.legal_actions(state, _seat(seat, names))]
        differ(f"legal.{seat}", listed, [{k: v for k, v in a.items() if k != "seat"} for a in got])
    return failures


def _subset(wanted: Any, got: Any, path: str = "") -> list[str]:
    """Where ``got`` differs from ``wanted``: objects key by key (keys ``wanted`` leaves out are
    not compared), lists item by item and of the same length, anything else exactly."""
    if isinstance(wanted, dict) and isinstance(got, dict):
        out = []
        for key, value in wanted.items():
            where = f"{path}.{key}" if path else str(key)
            if key not in got:
                out.append(f"{where}: expected {value!r}, missing")
            else:
                out.extend(_subset(value, got[key], where))
        return out
    if isinstance(wanted, list) and isinstance(got, list) and len(wanted) == len(got):
        pairs = enumerate(zip(wanted, got, strict=True))
        return [f for i, (w, g) in pairs for f in _subset(w, g, f"{path}[{i}]")]
    return [] if wanted == got else [f"{path}: expected {wanted!r}, got {got!r}"]
