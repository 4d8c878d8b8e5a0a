"""What a bot needs to know about a game beyond its rules: one ``GameBots`` per game kind.

The expert (games/bots/expert.py) searches any game through the engine's interface
(``games.engine.interface.Game``) alone. A game's ``GameBots`` only makes it play better or
faster: a rollout policy (its heuristic, instead of random moves), which listed actions are
the same move, an evaluation of a playout cut short, and the heuristic's move where searching
is not worth it. A kind without an entry here gets ``GameBots()``: random rollouts, every
distinct action a candidate, so every game added to the registry has an expert at once.

``BY_KIND`` maps a game kind to its bots; ``for_kind`` finds them (All Wild's are registered
by games/bots/allwild.py).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Hashable
from itertools import islice
from typing import Any

from games.engine.interface import Game
from games.engine.uno.actions import Action, instances

AnyGame = Game[Any, Any]
# How many concrete actions one listed template (choose 5 cards of 15: 3,003) may become at the
# root of a search; past it, that many are sampled.
MAX_INSTANCES = 24


class GameBots:
    """A game's bot knowledge; these defaults know nothing about the game (random rollouts)."""

    def turn_seat(self, game: AnyGame, state: Any) -> int | None:
        """The seat that acts next in a rollout: the seat on turn, else any seat that may act."""
        seat = game.to_move(state)
        if seat is not None and game.legal_actions(state, seat):
            return seat
        actors = game.actors(state)
        return min(actors) if actors else None

    def rollout(self, game: AnyGame, state: Any, rng: random.Random) -> Any:
        """The next action of a playout (any seat's): uniformly random by default."""
        seat = self.turn_seat(game, state)
        if seat is None:
            raise RuntimeError("no seat may act in a round that is not over")
        return random_instance(rng.choice(game.legal_actions(state, seat)), rng)

    def presearch(
        self, game: AnyGame, state: Any, seat: int, rng: random.Random
    ) -> tuple[Any | None, bool]:
        """(the policy's move, whether to search). The search plays the policy's move unless a
        candidate is clearly better (``expert.SWITCH_Z``); without one (None) it plays the best.
        By default the seat on turn searches, and a seat off turn lets the moment pass."""
        if game.to_move(state) == seat:
            return None, True
        return None, False

    def sampler(
        self, game: AnyGame, state: Any, seat: int, history: list[dict[str, Any]]
    ) -> Callable[[Any], Any]:
        """How the search deals a world (a state ``seat`` cannot tell from ``state``), given the
        seat's visible ``history`` of the round: called once per move, its result once per
        sample with the search's ``CanonicalRNG``. By default the game's ``sample_hidden``:
        every card the seat cannot see dealt uniformly at random. A game's bots may deal the
        cards consistently with what the other seats revealed by their plays instead."""
        return lambda rng: game.sample_hidden(state, seat, rng)

    def candidates(self, game: AnyGame, state: Any, seat: int, rng: random.Random) -> list[Any]:
        """The distinct moves to compare: listed actions, templates expanded (or sampled)."""
        out: list[Any] = []
        seen: set[Hashable] = set()
        for listed in game.legal_actions(state, seat):
            for action in expand(listed, rng):
                key = self.key(state, action)
                if key not in seen:
                    seen.add(key)
                    out.append(action)
        return out

    def key(self, state: Any, action: Any) -> Hashable:
        """Actions with the same key are one move in ``state`` (e.g. two cards of one type)."""
        return action if isinstance(action, Hashable) else repr(action)

    def is_over(self, game: AnyGame, state: Any) -> bool:
        """Where a playout ends: the end of the round (or of the match)."""
        return game.is_round_over(state) or game.is_match_over(state)

    def reward(self, game: AnyGame, start: Any, end: Any, seat: int) -> float:
        """``seat``'s result of a finished playout, 0 to 1: 1 for winning the round alone.

        By default the round's winner is whoever gained the most points (``scores``) from
        ``start`` to ``end``; a tie shares the win."""
        before, after = game.scores(start), game.scores(end)
        gains = [a - b for a, b in zip(after, before, strict=True)]
        best = max(gains)
        leaders = [i for i, g in enumerate(gains) if g == best]
        return 1.0 / len(leaders) if seat in leaders else 0.0

    def evaluate(self, game: AnyGame, state: Any, seat: int) -> float:
        """``seat``'s chance in a playout cut short; by default an even share."""
        return 1.0 / max(len(game.active_seats(state)), 1)

    def state_from_view(self, view: dict[str, Any], rng: random.Random) -> Any | None:
        """A state consistent with ``view`` (hidden cards at random), for callers that hold only
        a view; None when the game cannot rebuild one (pass the state itself)."""
        return None


def expand(action: Any, rng: random.Random) -> list[Any]:
    """The concrete actions a listed action stands for (Uno's ``Action.choose`` templates);
    at most ``MAX_INSTANCES``, sampled when there are more."""
    if not isinstance(action, Action) or action.choose is None:
        return [action]
    pick = action.choose
    total = math.comb(len(pick.cards), pick.size) * len(pick.target_from) ** pick.targets
    if total <= MAX_INSTANCES:
        return list(islice(instances(action), MAX_INSTANCES))
    seen: dict[Action, None] = {}
    for _ in range(4 * MAX_INSTANCES):
        seen.setdefault(random_instance(action, rng))
        if len(seen) >= MAX_INSTANCES:
            break
    return list(seen)


def random_instance(action: Any, rng: random.Random) -> Any:
    """One concrete action of a listed template, at random (any other action: itself)."""
    if not isinstance(action, Action) or action.choose is None:
        return action
    pick = action.choose
    cards = tuple(sorted(rng.sample(pick.cards, pick.size)))
    if not pick.targets:
        return Action(action.type, action.seat, cards=cards)
    targets = tuple(rng.choice(pick.target_from) for _ in range(pick.targets))
    return Action(action.type, action.seat, cards=cards, targets=targets)


DEFAULT = GameBots()
# kind -> a factory of its bots, given the heuristic ablation to play (None: the full
# heuristic); filled by the game modules of this package.
BY_KIND: dict[str, Callable[[str | None], GameBots]] = {}


def for_kind(kind: str | None, ablated: str | None = None) -> GameBots:
    """The bots of game ``kind`` (``DEFAULT``, random rollouts, for a kind with none)."""
    factory = BY_KIND.get(kind or "")
    return DEFAULT if factory is None else factory(ablated)
