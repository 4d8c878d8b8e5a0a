"""Scenarios as data: a position, actions to apply, and what must be true afterwards.

The format is documented in docs/scenarios.md. This module is pure (no Django) so that
``manage.py scenario run`` and the test suite use exactly the same code. A scenario names its game
(``game``, default ``uno_all_wild``), found in the registry; its actions go through that game's
interface. A ``position`` is written in the Uno family's terms (seats with hands, two piles).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Set
from dataclasses import dataclass, field
from typing import Any

from .errors import EngineError
from .game_scenario import GENERIC
from .interface import RNG, Event, Game
from .registry import DEFAULT_KIND, get_game
from .replay import ReplayError, ReplayRNG
from .scenario_steps import COMMON_KEYS, Outcome, ScenarioParts, run, seeded
from .uno.actions import Action
from .uno.cards import card_type
from .uno.game import UnoFamilyGame
from .uno.state import CLOCKWISE, COUNTERCLOCKWISE, PHASES, PLAY, Seat, State

TOP_LEVEL_KEYS = COMMON_KEYS | {"position", "deal"}
SEAT_KEYS = {"name", "hand", "uno", "exposed", "score", "skips", "active", "mercy_used"}
POSITION_KEYS = {
    "seats",
    "draw_pile",
    "discard_pile",
    "rest",
    "dealer",
    "current",
    "direction",
    "phase",
    "drawn_card",
    "pending",
    "stack",
    "round",
    "round_results",
    "colour",
}
DEAL_KEYS = {"players", "names", "dealer", "deck", "reshuffles"}


class ScenarioError(Exception):
    """The scenario file itself is malformed (not a rules failure)."""


@dataclass
class ScenarioResult:
    name: str
    state: State
    events: list[Event] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    unexpected_error: EngineError | None = None
    names: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.failures and self.unexpected_error is None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "ok": self.ok}
        if self.unexpected_error is not None:
            out["error"] = {
                "code": self.unexpected_error.code,
                "message": self.unexpected_error.message,
            }
        out["failures"] = self.failures
        out["state"] = get_game(self.state.game).moderator_view(self.state)
        out["events"] = self.events
        return out


# ---------------------------------------------------------------------------------------------
# Building the position


class _Cards:
    """Hands out card ids for tokens that are either ids (``draw4-3``, ``red-7-b``) or types
    (``draw4``, ``red-7``) of the game's deck."""

    def __init__(self, deck: tuple[str, ...], preset: str, tokens: list[str]) -> None:
        self.all_ids = deck
        self.known = known = set(deck)
        types = {card_type(c) for c in deck}
        self.used: set[str] = set()
        for token in tokens:
            if token in known:
                if token in self.used:
                    raise ScenarioError(f"card {token!r} is listed twice")
                self.used.add(token)
            elif token not in types:
                raise ScenarioError(f"no card or card type {token!r} in the {preset} deck")

    def resolve(self, token: str) -> str:
        if token in self.known:
            return token
        for card_id in self.all_ids:
            if card_type(card_id) == token and card_id not in self.used:
                self.used.add(card_id)
                return card_id
        raise ScenarioError(f"the deck has no more {token} cards")

    def rest(self) -> list[str]:
        return [c for c in self.all_ids if c not in self.used]


def _direction(value: Any) -> int:
    if value in (None, "clockwise", 1):
        return CLOCKWISE
    if value in ("counterclockwise", -1):
        return COUNTERCLOCKWISE
    raise ScenarioError(f"direction must be clockwise or counterclockwise, not {value!r}")


def _check_keys(data: dict[str, Any], allowed: Set[str], where: str) -> None:
    unknown = set(data) - allowed
    if unknown:
        raise ScenarioError(f"unknown keys in {where}: {', '.join(sorted(unknown))}")


def scenario_game(data: dict[str, Any]) -> Game[Any, Any]:
    """The game a scenario plays (its ``game`` key, default ``uno_all_wild``), from the registry:
    a game of the Uno family, whose positions and expectations this runner writes."""
    kind = data.get("game", DEFAULT_KIND)
    try:
        game = get_game(kind)
    except EngineError as exc:
        raise ScenarioError(exc.message) from exc
    if not isinstance(game, UnoFamilyGame):
        # Another family brings its own position builder (``game_scenario`` plays from a deal).
        raise ScenarioError(f"scenarios of {kind!r} are not supported by this runner")
    return game


def _deck(game: Game[Any, Any], preset: str) -> tuple[str, ...]:
    """Every card id of the game's ``preset`` (a game of the Uno family: ``scenario_game``)."""
    if not isinstance(game, UnoFamilyGame):
        raise ScenarioError(f"scenarios of {game.kind!r} are not supported by this runner")
    return game.deck(preset)


def build_position(data: dict[str, Any]) -> tuple[State, list[str], list[Event]]:
    """The scenario's starting state, its seat names, and any events of a deal."""
    game = scenario_game(data)
    preset = data.get("preset", game.default_preset)
    if preset not in game.presets:
        raise ScenarioError(f"unknown preset {preset!r}")
    try:
        options = game.validate_options(data.get("options", {}))
    except EngineError as exc:
        raise ScenarioError(exc.message) from exc
    target = data.get("target_score", game.default_target)
    if ("position" in data) == ("deal" in data):
        raise ScenarioError("a scenario has exactly one of 'position' and 'deal'")
    if "deal" in data:
        return _from_deal(game, data["deal"], preset, options, target)
    return _from_position(game, data["position"], preset, options, target)


def _from_deal(
    game: Game[Any, Any], deal: dict[str, Any], preset: str, options: dict[str, bool], target: int
) -> tuple[State, list[str], list[Event]]:
    """A real deal (new_game) with the dealer and the deck order fixed by the file."""
    _check_keys(deal, DEAL_KEYS, "deal")
    players = deal.get("players")
    names = deal.get("names") or [f"seat{i}" for i in range(players or 0)]
    if players is None:
        players = len(names)
    if len(names) != players:
        raise ScenarioError("deal.names must name every player")
    tokens = list(deal.get("deck", []))
    cards = _Cards(_deck(game, preset), preset, tokens)
    order = [cards.resolve(t) for t in tokens]
    order += cards.rest()
    scripted: list[Event] = [
        {"type": "chance", "kind": "choice", "value": _seat(deal.get("dealer", 0), names)},
        {"type": "chance", "kind": "shuffle", "order": order},
    ]
    try:
        state, events = game.new_game(
            players=players,
            rng=_DealRNG(scripted, deal.get("reshuffles", [])),
            preset=preset,
            options=options,
            target_score=target,
        )
    except EngineError as exc:
        raise ScenarioError(exc.message) from exc
    except ReplayError as exc:
        raise ScenarioError(f"deal: {exc}") from exc
    return state, list(names), events


class _DealRNG(ReplayRNG):
    """The deal's dealer and deck order, then, for each later shuffle of the deal (an opening
    card put back), the cards a ``reshuffles`` entry puts on top (ids, or types: the first such
    card of the pile), the rest of the pile below them in its order."""

    def __init__(self, scripted: list[Event], reshuffles: Any) -> None:
        super().__init__(scripted)
        if not isinstance(reshuffles, list) or not all(isinstance(r, list) for r in reshuffles):
            raise ScenarioError("deal.reshuffles lists the top cards of each later shuffle")
        self._tops = list(reshuffles)

    def shuffle(self, x: list[Any]) -> None:
        if self.remaining or not self._tops:
            super().shuffle(x)
            return
        top: list[str] = []
        for token in self._tops.pop(0):
            found = next(
                (c for c in x if c not in top and (c == token or card_type(c) == token)), None
            )
            if found is None:
                raise ScenarioError(f"deal.reshuffles: no {token!r} in the pile shuffled")
            top.append(found)
        x[:] = top + [c for c in x if c not in top]


def _from_position(
    game: Game[Any, Any], pos: dict[str, Any], preset: str, options: dict[str, bool], target: int
) -> tuple[State, list[str], list[Event]]:
    _check_keys(pos, POSITION_KEYS, "position")
    seats_data = pos.get("seats")
    if not isinstance(seats_data, list) or not 2 <= len(seats_data) <= 10:
        raise ScenarioError("position.seats lists 2 to 10 seats")
    for i, seat in enumerate(seats_data):
        _check_keys(seat, SEAT_KEYS, f"position.seats[{i}]")
    names = [seat.get("name", f"seat{i}") for i, seat in enumerate(seats_data)]
    tokens = [t for seat in seats_data for t in seat.get("hand", [])]
    tokens += pos.get("draw_pile", []) + pos.get("discard_pile", [])
    cards = _Cards(_deck(game, preset), preset, tokens)
    hands = [[cards.resolve(t) for t in seat.get("hand", [])] for seat in seats_data]
    draw = [cards.resolve(t) for t in pos.get("draw_pile", [])]
    discard = [cards.resolve(t) for t in pos.get("discard_pile", [])]
    rest = cards.rest()
    where = pos.get("rest", "draw_pile")
    if where == "draw_pile":
        draw += rest
    elif where == "discard_pile":
        discard += rest
    elif isinstance(where, int | str) and _seat_index(where, names) is not None:
        hands[_seat_index(where, names)] += rest  # type: ignore[index]
    else:
        raise ScenarioError("position.rest is draw_pile, discard_pile or a seat")
    if not discard:
        raise ScenarioError("the discard pile needs a top card")
    seats = [
        Seat(
            hand=hands[i],
            active=seat.get("active", True),
            uno=seat.get("uno", False),
            exposed=seat.get("exposed", False),
            skips=seat.get("skips", 0),
            score=seat.get("score", 0),
            mercy_used=seat.get("mercy_used", False),
        )
        for i, seat in enumerate(seats_data)
    ]
    phase = pos.get("phase", PLAY)
    if phase not in PHASES:
        raise ScenarioError(f"unknown phase {phase!r}")
    pending = pos.get("pending")
    if pending is not None:
        pending = dict(pending)
        pending["seat"] = _seat(pending.get("seat"), names)
        pending.setdefault("card", discard[0])
        pending.setdefault("effect", card_type(pending["card"]))
        pending.setdefault("reason", "opening")
        pending.setdefault("uno", False)
    drawn = pos.get("drawn_card")
    state = State(
        preset=preset,
        seats=seats,
        draw_pile=draw,
        discard_pile=discard,
        options=options,
        target_score=target,
        direction=_direction(pos.get("direction")),
        current=_seat(pos.get("current", 0), names),
        dealer=_seat(pos.get("dealer", 0), names),
        phase=phase,
        drawn_card=hands[_seat(pos.get("current", 0), names)][0] if drawn is True else drawn,
        pending=pending,
        stack=pos.get("stack", 0),
        round=pos.get("round", 1),
        round_results=list(pos.get("round_results", [])),
        game=game.kind,
        colour=pos.get("colour"),
    )
    return state, names, []


def _seat_index(value: Any, names: list[str]) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if 0 <= value < len(names) else None
    if isinstance(value, str) and value in names:
        return names.index(value)
    return None


def _seat(value: Any, names: list[str]) -> int:
    index = _seat_index(value, names)
    if index is None:
        raise ScenarioError(f"{value!r} is not a seat of this scenario ({', '.join(names)})")
    return index


# ---------------------------------------------------------------------------------------------
# Running


def _action(step: dict[str, Any], state: State, names: list[str]) -> Action:
    game = scenario_game({"game": state.game})
    deck = set(_deck(game, state.preset))
    raw = {k: v for k, v in step.items() if k not in ("error", "comment")}
    if "seat" in raw:
        raw["seat"] = _seat(raw["seat"], names)
    # Targets may name seats; an unknown name stays a bad seat number for the engine to refuse.
    if isinstance(raw.get("target"), str):
        index = _seat_index(raw["target"], names)
        raw["target"] = index if index is not None else -1
    if isinstance(raw.get("targets"), list):
        raw["targets"] = [
            (_seat_index(t, names) if _seat_index(t, names) is not None else -1)
            if isinstance(t, str)
            else t
            for t in raw["targets"]
        ]
    hand = state.seats[raw["seat"]].hand if isinstance(raw.get("seat"), int) else []
    card = raw.get("card")
    if isinstance(card, str) and card not in deck and "seat" in raw:
        # A type names the first card of that type in the actor's hand.
        raw["card"] = next((c for c in hand if card_type(c) == card), f"{card}-0")
    if isinstance(raw.get("cards"), list) and "seat" in raw:
        # Types in a list name different cards: the first, then the next one of that type...
        taken: list[str] = []
        for token in raw["cards"]:
            if isinstance(token, str) and token not in deck:
                free = (c for c in hand if card_type(c) == token and c not in taken)
                token = next(free, f"{token}-0")
            taken.append(token)
        raw["cards"] = taken
    action = game.action_from_dict(raw)
    assert isinstance(action, Action)
    return action


def _listed(step: dict[str, Any], state: State, names: list[str]) -> dict[str, Any]:
    """An expected legal action as legal_actions' to_dict gives it. A template's ``choose``
    (double down, mercy) is compared as written, its ``target_from`` seats by name or number."""
    choose = step.get("choose")
    if choose is None:
        return _action(step, state, names).to_dict()
    out = _action({k: v for k, v in step.items() if k != "choose"}, state, names).to_dict()
    choose = dict(choose)
    if "target_from" in choose:
        choose["target_from"] = [_seat(t, names) for t in choose["target_from"]]
    out["choose"] = choose
    return out


class UnoParts:
    """The Uno family's part of the one runner (``scenario_steps.run``): positions card by card
    (``position``) or a scripted deal (``deal``), steps naming cards and seats, and the
    expectations of ``check_expect``."""

    keys = frozenset({"position", "deal"})
    invalid: type[Exception] = ScenarioError
    deal_next_round = False

    def start(self, data: dict[str, Any]) -> tuple[Game[Any, Any], ScenarioResult, list[str]]:
        game = scenario_game(data)
        state, names, events = build_position(data)
        total = Counter(c for s in state.seats for c in s.hand) + Counter(
            state.draw_pile + state.discard_pile
        )
        deck = _deck(game, state.preset)
        if sorted(total) != sorted(deck) or max(total.values()) != 1:
            raise ScenarioError(
                f"the position does not hold each of the {len(deck)} cards exactly once"
            )
        return game, ScenarioResult(data.get("name", ""), state, events, names=names), names

    def rng(self, data: dict[str, Any]) -> RNG:
        return seeded(data)

    def to_action(
        self, game: Game[Any, Any], step: dict[str, Any], state: Any, names: list[str]
    ) -> Action:
        return _action(step, state, names)

    def check(
        self, expect: Any, game: Game[Any, Any], outcome: Outcome, names: list[str]
    ) -> list[str]:
        return check_expect(expect, outcome.state, outcome.events, names, game)


UNO = UnoParts()


def run_scenario(data: dict[str, Any]) -> ScenarioResult:
    """Apply the scenario's actions and check its ``expect`` block."""
    result = run(UNO, data)
    assert isinstance(result, ScenarioResult)
    return result


def parts_of(data: Any) -> ScenarioParts:
    """The parts that read a scenario file: the Uno family's, card by card, for its games; any
    other game's through its interface (``game_scenario``)."""
    kind = data.get("game", DEFAULT_KIND) if isinstance(data, dict) else DEFAULT_KIND
    try:
        uno = isinstance(get_game(kind), UnoFamilyGame)
    except EngineError:
        uno = False  # the generic parts say the game is unknown
    return UNO if uno else GENERIC


def run_file(data: Any) -> Outcome:
    """A scenario file of any registered game, played with its family's parts."""
    return run(parts_of(data), data)


def _by_seat(value: Any, names: list[str]) -> dict[int, Any]:
    if isinstance(value, list):
        return dict(enumerate(value))
    if isinstance(value, dict):
        return {_seat(k if not str(k).isdigit() else int(k), names): v for k, v in value.items()}
    raise ScenarioError("per-seat expectations are a list or an object keyed by seat")


def _same_cards(expected: list[str], actual: list[str]) -> bool:
    """Entries that are card ids compare as ids, the others as types; order does not matter."""
    ids = {e for e in expected if e in actual}
    return sorted(expected) == sorted(c if c in ids else card_type(c) for c in actual)


def _event_pattern(pattern: dict[str, Any], names: list[str]) -> dict[str, Any]:
    """An expected event with seat names turned into seat numbers."""
    out = dict(pattern)
    for key in ("seat", "target", "winner"):
        if isinstance(out.get(key), str):
            out[key] = _seat(out[key], names)
    return out


def _matches(expected: Any, actual: Any) -> bool:
    """A partial match: every key in ``expected`` is in ``actual`` with a matching value."""
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(
            k in actual and _matches(v, actual[k]) for k, v in expected.items()
        )
    return bool(expected == actual)


def check_expect(
    expect: dict[str, Any],
    state: State,
    events: list[Event],
    names: list[str],
    game: Game[Any, Any] | None = None,
) -> list[str]:
    """Every difference between ``expect`` and the outcome, in words."""
    if not isinstance(expect, dict) or not expect:
        raise ScenarioError("expect must be a non-empty object")
    game = game or get_game(state.game)
    failures: list[str] = []

    def differ(what: str, want: Any, got: Any) -> None:
        failures.append(f"{what}: expected {want!r}, got {got!r}")

    simple = _whole_state(state, names)
    per_seat = _each_seat(state)
    for key, want in expect.items():
        if key in simple:
            got = simple[key]()
            if key in ("current", "dealer", "winner", "round_winner") and isinstance(want, int):
                want = names[want] if 0 <= want < len(names) else want
            if got != want:
                differ(key, want, got)
        elif key in per_seat:
            for i, value in _by_seat(want, names).items():
                got = per_seat[key](i)
                if got != value:
                    differ(f"{key}[{names[i]}]", value, got)
        elif key == "hands":
            for i, value in _by_seat(want, names).items():
                hand = state.seats[i].hand
                if not _same_cards(value, hand):
                    differ(f"hands[{names[i]}]", value, hand)
        elif key in ("discard_top", "draw_top"):
            pile = state.discard_pile if key == "discard_top" else state.draw_pile
            got = pile[0] if pile else None
            if got is None or (got != want and card_type(got) != want):
                differ(key, want, got)
        elif key == "pending":
            got = state.pending
            if want is None:
                if got is not None:
                    differ(key, None, got)
            elif got is None or not _matches(
                {**want, **({"seat": _seat(want["seat"], names)} if "seat" in want else {})}, got
            ):
                differ(key, want, got)
        elif key == "events":
            failures += _missing_events(want, events, names)
        elif key == "no_events":
            for unwanted in want:
                if any(_matches(_event_pattern(unwanted, names), e) for e in events):
                    failures.append(f"no_events: {unwanted!r} happened")
        elif key == "legal_actions":
            for i, wanted_list in _by_seat(want, names).items():
                got_list, want_list = _listings(game, state, i, wanted_list, names)
                if got_list != want_list:
                    differ(f"legal_actions[{names[i]}]", want_list, got_list)
        else:
            raise ScenarioError(f"unknown expectation {key!r}")
    return failures


def _whole_state(state: State, names: list[str]) -> dict[str, Callable[[], Any]]:
    """What ``expect`` may name of the whole position, by key (seats by their names)."""

    def name(seat: int | None) -> str | None:
        return None if seat is None else names[seat]

    return {
        "current": lambda: name(state.current),
        "dealer": lambda: name(state.dealer),
        "winner": lambda: name(state.winner),
        "round_winner": lambda: (
            name(state.round_results[-1]["winner"]) if state.round_results else None
        ),
        "direction": lambda: "clockwise" if state.direction == CLOCKWISE else "counterclockwise",
        "phase": lambda: state.phase,
        "round": lambda: state.round,
        "draw_size": lambda: len(state.draw_pile),
        "discard_size": lambda: len(state.discard_pile),
        "stack": lambda: state.stack,
        "colour": lambda: state.colour,
        "round_points": lambda: state.round_results[-1]["points"] if state.round_results else None,
    }


def _each_seat(state: State) -> dict[str, Callable[[int], Any]]:
    """What ``expect`` may name of each seat, by key."""
    return {
        "hand_sizes": lambda i: len(state.seats[i].hand),
        "scores": lambda i: state.seats[i].score,
        "uno": lambda i: state.seats[i].uno,
        "catchable": lambda i: (
            state.seats[i].exposed and not state.seats[i].uno and len(state.seats[i].hand) == 1
        ),
        "skips": lambda i: state.seats[i].skips,
        "active": lambda i: state.seats[i].active,
        "mercy_used": lambda i: state.seats[i].mercy_used,
    }


def _missing_events(want: list[Any], events: list[Event], names: list[str]) -> list[str]:
    """Each listed event must occur, in this order, as a partial match."""
    position = 0
    for wanted in want:
        wanted = _event_pattern(wanted, names)
        while position < len(events) and not _matches(wanted, events[position]):
            position += 1
        if position == len(events):
            return [f"events: no {wanted!r} (in order) among the events"]
        position += 1
    return []


def _listings(
    game: Game[Any, Any], state: State, seat: int, wanted: list[Any], names: list[str]
) -> tuple[list[str], list[str]]:
    """The seat's legal actions and the expected ones, in one comparable form."""
    got = sorted(repr(sorted(a.to_dict().items())) for a in game.legal_actions(state, seat))
    want = sorted(repr(sorted(_listed({**w, "seat": seat}, state, names).items())) for w in wanted)
    return got, want


__all__ = [
    "ScenarioError",
    "ScenarioResult",
    "build_position",
    "check_expect",
    "run_scenario",
    "scenario_game",
]
