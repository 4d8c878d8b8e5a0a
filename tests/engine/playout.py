"""Random legal playouts of the engine, shared by the property and purity tests.

One ``random.Random(seed)`` drives both the engine (shuffles, random choices) and the choice among
listed actions, so a seed names one whole game. The driver mostly takes the current seat's turn
actions so rounds progress, and now and then says UNO, catches, or injects the system actions a
service would (``timeout`` for the current seat, ``leave`` for any active seat).

Any game of the Uno family plays here (``game``, All Wild by default): its state is the family's.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from games.engine.errors import ALL_CODES, EngineError
from games.engine.interface import Game
from games.engine.registry import get_game
from games.engine.uno.actions import Action
from games.engine.uno.state import State

Event = dict[str, Any]
# Called after every applied action: (state before, action, state after, events).
Check = Callable[[State, Action, State, list[Event]], None]

IN_ROUND = ("play", "drawn", "choose", "stack", "respond")
TURN_ACTIONS = (
    "choose_colour",
    "accept",
    "challenge",
    "play",
    "draw",
    "play_drawn",
    "pass",
    "choose_target",
    "take_stack",
    "play_pair",
    "play_top",
)
FREE_ACTIONS = ("uno", "catch", "mercy")
# Turn actions that add cards to the hand instead of playing one.
SLOW_ACTIONS = ("draw", "pass", "take_stack")
LISTING_RULES = ("stacking", "blind_play", "double_down", "mercy")


def pick_instance(action: Action, rng: random.Random) -> Action:
    """A random concrete action of a listed template (a concrete action: itself)."""
    pick = action.choose
    if pick is None:
        return action
    cards = tuple(rng.sample(pick.cards, pick.size))
    targets = tuple(rng.choice(pick.target_from) for _ in range(pick.targets)) or None
    return Action(action.type, action.seat, cards=cards, targets=targets)


@dataclass
class Playout:
    setup: dict[str, Any]
    setup_events: list[Event]
    initial: State
    steps: list[tuple[Action, list[Event]]] = field(default_factory=list)
    states: list[State] = field(default_factory=list)  # the state after each step
    final: State | None = None
    rounds_finished: int = 0
    longest_round: int = 0  # actions taken in the longest round
    stalls: int = 0  # rounds ended by a leave after the deck stalled in the hands (see below)


ALL_WILD: Game[Any, Any] = get_game("uno_all_wild")


def pick_action(
    state: State,
    rng: random.Random,
    *,
    free_rate: float = 0.1,
    game: Game[Any, Any] = ALL_WILD,
    prefer_plays: bool = False,
) -> Action:
    """A random legal action: usually the current seat's turn action, sometimes UNO or a catch.
    ``prefer_plays``: a seat that could play usually does (see below)."""
    legal_actions = game.legal_actions
    turn = [a for a in legal_actions(state, state.current) if a.type in TURN_ACTIONS]
    free = [
        a
        for seat in range(len(state.seats))
        for a in legal_actions(state, seat)
        if a.type in FREE_ACTIONS
    ]
    if free and (not turn or rng.random() < free_rate):
        return pick_instance(rng.choice(free), rng)
    assert turn, f"the current seat {state.current} has no turn action in phase {state.phase}"
    action = rng.choice(turn)
    if (
        action.type in SLOW_ACTIONS
        and (prefer_plays or any(state.options.get(rule) for rule in LISTING_RULES))
        and rng.random() < 0.8
    ):
        # Under the house rules a player who could play usually does: with stacking and blind
        # play (play or draw, 50:50) uniformly random players soon hold the whole deck and pass
        # the same few cards round for tens of thousands of actions, which tests nothing more.
        # (Only there: the playouts without them keep their uniform choice, and their seeds.)
        # Classic UNO lets a player draw whenever they like: uniformly random players there draw
        # half the time, and a table of ten soon holds the deck (``prefer_plays``).
        plays = [a for a in turn if a.type not in SLOW_ACTIONS]
        action = rng.choice(plays) if plays else action
    action = pick_instance(action, rng)
    if action.type in ("play", "play_drawn", "play_pair", "play_top") and rng.random() < 0.5:
        # Any play may carry the word; it only counts when one card is left after the effect.
        action = action._replace(uno=True)
    return action


STALL_ACTIONS = 2000


def stalled(state: State) -> bool:
    """The deck is in the hands: nothing to draw and at most two cards under the top discard,
    under a house rule that lets random play go round in circles (stacking, blind play)."""
    return (
        not state.draw_pile
        and len(state.discard_pile) <= 3
        and bool(state.options.get("stacking") or state.options.get("blind_play"))
    )


@dataclass(frozen=True)
class Config:
    """One random match, named by its seed and setup (hypothesis draws these): ``play`` runs it
    through ``run_playout`` on ``game``'s engine."""

    seed: int
    players: int
    preset: str
    options: dict[str, bool]
    target_score: int
    timeout_rate: float
    leave_rate: float
    game: str = "uno_all_wild"
    prefer_plays: bool = False
    max_round_actions: int = 5000

    def play(self, check: Check | None = None, **kwargs: Any) -> Playout:
        kwargs.setdefault("max_round_actions", self.max_round_actions)
        return run_playout(
            self.seed,
            players=self.players,
            preset=self.preset,
            options=self.options,
            target_score=self.target_score,
            check=check,
            timeout_rate=self.timeout_rate,
            leave_rate=self.leave_rate,
            game=get_game(self.game),
            prefer_plays=self.prefer_plays,
            **kwargs,
        )


def run_playout(
    seed: int,
    *,
    players: int,
    preset: str,
    options: dict[str, bool],
    target_score: int,
    check: Check | None = None,
    timeout_rate: float = 0.0,
    leave_rate: float = 0.0,
    max_leaves: int | None = None,
    max_round_actions: int = 5000,
    keep_states: bool = False,
    game: Game[Any, Any] = ALL_WILD,
    prefer_plays: bool = False,
) -> Playout:
    """Play one match to its end with random legal actions, calling ``check`` after every step.

    ``max_leaves`` defaults to ``players - 2`` (two players always remain); pass ``players - 1``
    to let the match end by everyone else leaving.
    """
    rng = random.Random(seed)
    setup = {
        "players": players,
        "preset": preset,
        "options": dict(options),
        "target_score": target_score,
    }
    state, setup_events = game.new_game(rng=rng, **setup)
    out = Playout(setup, setup_events, state)
    leaves_left = players - 2 if max_leaves is None else max_leaves
    round_actions = 0
    while state.phase != "match_over":
        if state.phase == "round_over":
            action = Action("next_round")
        elif round_actions >= STALL_ACTIONS and stalled(state):
            # Under the house rules random players can end up holding (nearly) the whole deck,
            # passing the few loose cards round forever, as players at a real table would: a
            # Draw card or Targeted Draw 2 hands the card just played to the next hand. That is
            # the rules, not the engine; a player leaving ends it (two left: the match ends).
            action = Action("leave", seat=rng.choice(state.active_seats()))
            out.stalls += 1
        elif leaves_left > 0 and rng.random() < leave_rate:
            action = Action("leave", seat=rng.choice(state.active_seats()))
            leaves_left -= 1
        elif rng.random() < timeout_rate:
            action = Action("timeout", seat=state.current)
        else:
            action = pick_action(state, rng, game=game, prefer_plays=prefer_plays)
        new, events = game.apply(state, action, rng)
        if check is not None:
            check(state, action, new, events)
        out.steps.append((action, events))
        if keep_states:
            out.states.append(new)
        round_actions += 1
        if new.phase in ("round_over", "match_over") and state.phase in IN_ROUND:
            out.rounds_finished += 1
            out.longest_round = max(out.longest_round, round_actions)
            round_actions = 0
        assert round_actions <= max_round_actions, (
            f"seed {seed}: a round is still running after {max_round_actions} actions"
        )
        state = new
    out.final = state
    return out


# ---------------------------------------------------------------------------------------------
# What the property tests of every Uno game check the same way


def hidden_samples(config: Config, playout: Playout, *, samples: int) -> Iterator[State]:
    """About ``samples`` of ``playout``'s states, each dealt again for every seat by its game's
    ``sample_hidden`` (seeded by the config), which must leave that seat's view as it was."""
    game = get_game(config.game)
    rng = random.Random(config.seed)
    for state in playout.states[:: max(1, len(playout.states) // samples)]:
        for seat in range(config.players):
            sample = game.sample_hidden(state, seat, rng)
            assert game.view(sample, seat) == game.view(state, seat)
            yield sample


def all_cards(state: State) -> list[str]:
    """Every card of the state: the hands, the two piles and (No Mercy) the set-aside hands."""
    hands = [c for seat in state.seats for c in seat.hand]
    return hands + state.draw_pile + state.discard_pile + state.set_aside


def hidden_from(state: State, seat: int) -> set[str]:
    """Card ids ``seat`` must not learn: other seats' hands, the whole draw pile and (No Mercy)
    the set-aside hands; under blind play (All Wild) its own hand as well."""
    hidden = set(state.draw_pile) | set(state.set_aside)
    blind = state.option("blind_play")
    for i, other in enumerate(state.seats):
        if i != seat or blind:
            hidden.update(other.hand)
    return hidden


QUOTED = re.compile(r'"((?:[^"\\]|\\.)*)"')


def quoted_strings(data: Any) -> set[str]:
    """Every quoted string in the JSON text of ``data`` (a card id appears as ``"draw4-3"``)."""
    return set(QUOTED.findall(json.dumps(data)))


def round_end_hands(state: State) -> dict[str, list[str]]:
    return {str(i): list(seat.hand) for i, seat in enumerate(state.seats) if seat.active}


def round_just_ended(before: State, after: State) -> bool:
    return len(after.round_results) > len(before.round_results)


def check_listing_is_exact(
    game: Game[Any, Any],
    state: State,
    space_of: Callable[[State, int], list[Action]],
    rng: random.Random,
    instances: int = 1,
) -> None:
    """For every seat of ``state``: no action is listed twice, none outside the seat's action
    space (``space_of``, and ``instances`` random instances of each listed template), and the
    engine accepts an action of that space if and only if it is listed (as it is, or as an
    instance of a listed template), refusing with a known code. Nothing changes the state."""
    snapshot = state.to_dict()
    for seat in range(len(state.seats)):
        legal = game.legal_actions(state, seat)
        assert len(set(legal)) == len(legal), f"seat {seat}: duplicates in {legal}"
        templates = [a for a in legal if a.choose is not None]
        concrete = {a for a in legal if a.choose is None}
        space = space_of(state, seat)
        space += [pick_instance(t, rng) for t in templates for _ in range(instances)]
        assert concrete <= set(space), (
            f"seat {seat}: listed outside the space {concrete - set(space)}"
        )
        for action in space:
            listed = action in concrete or any(game.covers(t, action) for t in templates)
            try:
                game.apply(state, action, random.Random(0))
            except EngineError as error:
                assert error.code in ALL_CODES, f"{action}: unknown code {error.code!r}"
                assert not listed, f"phase {state.phase}: listed {action} refused: {error.code}"
            else:
                assert listed, f"phase {state.phase}: unlisted {action} was accepted"
    assert state.to_dict() == snapshot, "listing or refusing actions changed the state"


def check_cards_conserved(before: State, action: Action, after: State, events: list[Event]) -> None:
    """Every card of the game's deck is somewhere, once: the hands and the two piles."""
    expected = Counter(get_game(after.game).deck(after.preset))
    found = Counter(all_cards(after))
    assert found == expected, (
        f"after {action}: missing {sorted((expected - found).elements())},"
        f" extra {sorted((found - expected).elements())}"
    )


def check_json_round_trip(before: State, action: Action, after: State, events: list[Event]) -> None:
    data = json.loads(json.dumps(after.to_dict()))
    assert State.from_dict(data) == after
    # Events are stored as JSON too: they must serialise as they are.
    assert json.loads(json.dumps(events)) == events
