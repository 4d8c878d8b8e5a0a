"""The ``expert`` level: determinised Monte Carlo search over any game, through its interface.

Nothing here knows a game. The search reaches one only through ``games.engine.interface.Game``
(``legal_actions``, ``apply``, ``to_move``/``actors``, ``is_round_over``, ``scores``) and the
hook for hidden information, ``sample_hidden(state, seat, rng)``: a seat does not know the other
hands or the draw pile's order, so every sample ("determinisation") deals the cards it cannot
see at random, consistently with what it has seen, and the search plays in that world. The
game's ``GameBots`` (games/bots/policies.py) only lends its knowledge: the rollout policy (its
heuristic; random moves for a game without one), which actions are the same move, and how to
score a playout cut short.

The search (perfect-information Monte Carlo over information sets, "PIMC"):

1. The candidates are the seat's distinct legal moves (templates expanded or sampled).
2. Repeat until the budget runs out: sample a world; in it, play every candidate still in the
   running, then the rollout policy for every seat to the end of the round (or a cut-off,
   scored by ``GameBots.evaluate``). Every candidate is played with **the same RNG seed**
   within a sample (common random numbers: the same hidden cards, the same draws), so
   candidates are compared on identical luck and few samples separate them.
3. Every ``ROUND_SIZE`` samples, **successive elimination**: a candidate whose paired
   difference to the leader is more than ``Z`` standard errors below zero stops being played,
   so the work goes to the close calls; a lone survivor ends the search.
4. The candidate with the best mean result is played.

The state the search is given is touched only by ``sample_hidden``: every world the search plays
in is a sample, and ``sample_hidden`` is given a ``CanonicalRNG``, which sorts what it shuffles
or chooses from before it does, so two states that differ only in cards the seat cannot see give
the same samples, hence the same decision, for the same seed (tests/bots/test_expert.py).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import Any

from games.engine.errors import EngineError

from .policies import AnyGame, GameBots, for_kind

# A playout longer than this many actions is cut and scored by ``GameBots.evaluate``.
MAX_PLAYOUT_ACTIONS = 200
ROUND_SIZE = 8  # samples between two eliminations
Z = 2.0
# The search refines the game's policy (its heuristic): it plays another move than the policy's
# only when that move's paired advantage is this many standard errors above zero. Many moves
# are worth about the same (the round's luck outweighs them); picking among them by the noise
# of a few samples plays worse than the heuristic, and makes rounds long.
#
# How far the search may stray depends on the table: heads-up, one seat's move decides much of
# its round and the search's best mean is played (a tie goes to the policy's move); with more
# seats a move weighs little against the others' luck, the samples of the hidden cards mislead
# more (real opponents do not hold random hands), and the search's favourite among many
# near-equal moves is mostly noise (measured in docs/bots.md): there it must win by
# ``SWITCH_Z`` standard errors, after at least ``MIN_SWITCH_SAMPLES`` samples.
HEADS_UP_SWITCH_Z = 0.0
SWITCH_Z = 3.0
MIN_SWITCH_SAMPLES = 8
# A fixed amount of work (``playouts``) also caps the engine actions played in all, so that a
# move in a swollen round (long playouts, many candidates) stays as cheap as an ordinary one.
ACTIONS_PER_SAMPLE = 250


class CanonicalRNG:
    """The ``RNG`` handed to ``sample_hidden``: sorts a list before shuffling it and a sequence
    before choosing from it. The distribution is the same (a uniform shuffle or choice does not
    depend on the order it starts from); the outcome no longer depends on where the hidden
    cards lay in the given state, only on which they are and on the seed."""

    __slots__ = ("_rng",)

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng

    def shuffle(self, x: list[Any]) -> None:
        x.sort(key=_order)
        self._rng.shuffle(x)

    def choice(self, seq: Any) -> Any:
        return self._rng.choice(sorted(seq, key=_order))

    def random(self) -> float:
        """A float in [0, 1): for weighted dealing over cards the caller has put in order."""
        return self._rng.random()


def _order(item: Any) -> tuple[str, str]:
    return type(item).__name__, repr(item)


def search(
    game: AnyGame,
    state: Any,
    seat: int,
    rng: random.Random,
    *,
    budget_ms: float,
    playouts: int | None = None,
    bots: GameBots | None = None,
    history: list[dict[str, Any]] | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> Any | None:
    """The expert's action for ``seat`` in ``state`` (None: nothing to do now).

    ``budget_ms`` bounds the thinking time; ``playouts`` (tests, reproducible arenas) fixes the
    work instead: that many samples, and at most ``playouts * ACTIONS_PER_SAMPLE`` actions.
    ``history`` (the seat's visible events of the round) lets the game's bots deal the samples
    consistently with what the other seats revealed (``GameBots.sampler``).
    """
    bots = for_kind(game.kind) if bots is None else bots
    quick, worth = bots.presearch(game, state, seat, rng)
    if not worth:
        return quick
    candidates = bots.candidates(game, state, seat, rng)
    if len(candidates) <= 1:
        return candidates[0] if candidates else quick
    # The policy's own move: the yardstick of a switch (kept in the running if switching away
    # from it needs more than the best mean).
    default = None if quick is None else _index(bots, state, candidates, quick)
    heads_up = len(game.active_seats(state)) <= 2
    switch_z = HEADS_UP_SWITCH_Z if heads_up else SWITCH_Z
    protect = default if switch_z > 0 else None
    timed = playouts is None
    deadline = clock() + budget_ms / 1000.0
    steps_left = (playouts or 0) * ACTIONS_PER_SAMPLE
    alive = list(range(len(candidates)))
    results: list[list[float]] = [[] for _ in candidates]
    samples = 0
    sampler = CanonicalRNG(rng)
    deal = bots.sampler(game, state, seat, history or [])
    while playouts is None or samples < playouts:
        world = deal(sampler)
        seed = rng.getrandbits(48)
        outcome: list[float] = []
        for k in alive:
            result, used = playout(game, bots, world, candidates[k], seat, seed)
            outcome.append(result)
            # The clock (or the action count) is checked after every playout, not only between
            # samples: a sample of long playouts would overshoot. A sample cut short is
            # dropped, so the candidates keep being compared on the same samples.
            if timed:
                if clock() >= deadline and len(outcome) < len(alive):
                    break
            else:
                steps_left -= used
                if steps_left <= 0 and len(outcome) < len(alive):
                    break
        if len(outcome) < len(alive):
            break
        for k, result in zip(alive, outcome, strict=True):
            results[k].append(result)
        samples += 1
        if samples % ROUND_SIZE == 0 and len(alive) > 1:
            alive = eliminate(alive, results, keep=protect)
        if len(alive) == 1 or (clock() >= deadline if timed else steps_left <= 0):
            break
    if not samples:
        # Not one whole sample in the budget: the game's heuristic move, else the first.
        return quick if quick is not None else candidates[0]
    best = max(alive, key=lambda k: (sum(results[k]) / len(results[k]), -k))
    if default is not None and default != best and default in alive:
        if sum(results[best]) <= sum(results[default]):
            return candidates[default]  # a tie: the policy's move
        if switch_z > 0 and (
            samples < MIN_SWITCH_SAMPLES or not _better(results[best], results[default], switch_z)
        ):
            return candidates[default]
    return candidates[best]


def _index(bots: GameBots, state: Any, candidates: list[Any], action: Any) -> int | None:
    key = bots.key(state, action)
    return next((k for k, c in enumerate(candidates) if bots.key(state, c) == key), None)


def _better(a: list[float], b: list[float], z: float) -> bool:
    """Is ``a`` better than ``b`` by more than ``z`` standard errors of their paired difference?"""
    n = len(a)
    diffs = [x - y for x, y in zip(a, b, strict=True)]
    mean = sum(diffs) / n
    if mean <= 0:
        return False
    var = sum((d - mean) ** 2 for d in diffs) / max(n - 1, 1)
    return mean > z * math.sqrt(var / n)


def eliminate(alive: list[int], results: list[list[float]], keep: int | None = None) -> list[int]:
    """Drop candidates whose paired difference to the leader is clearly negative (never
    ``keep``, the policy's move).

    Every candidate still alive has been played out in every sample so far, so their result
    lists line up sample by sample."""
    n = len(results[alive[0]])
    leader = max(alive, key=lambda k: sum(results[k]))
    kept = []
    lead = results[leader]
    for k in alive:
        if k in (leader, keep):
            kept.append(k)
            continue
        diffs = [a - b for a, b in zip(results[k], lead, strict=True)]
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / max(n - 1, 1)
        if mean + Z * math.sqrt(var / n) >= 0:
            kept.append(k)
    return kept


def playout(
    game: AnyGame,
    bots: GameBots,
    world: Any,
    first: Any,
    seat: int,
    seed: int,
    max_actions: int = MAX_PLAYOUT_ACTIONS,
) -> tuple[float, int]:
    """Play ``first`` in ``world``, then the rollout policy for every seat to the round's end.

    Returns ``seat``'s result (``GameBots.reward``, or ``evaluate`` past ``max_actions``) and
    the number of actions it took."""
    rng = random.Random(seed)
    try:
        state, _ = game.apply(world, first, rng)
    except EngineError:
        return 0.0, 1  # cannot happen for a listed action; never let a playout break a move
    apply = game.apply
    rollout = bots.rollout
    is_over = bots.is_over
    for step in range(1, max_actions + 1):
        if is_over(game, state):
            return bots.reward(game, world, state, seat), step
        state, _ = apply(state, rollout(game, state, rng), rng)
    if is_over(game, state):
        return bots.reward(game, world, state, seat), max_actions
    return bots.evaluate(game, state, seat), max_actions


__all__ = ["CanonicalRNG", "eliminate", "playout", "search"]
