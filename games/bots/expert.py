"""The ``expert`` level: determinised Monte Carlo search over the engine within a time budget.

A seat does not know the other hands or the draw pile's order, only their sizes. So the search
*samples* them: every card id of the preset that is neither in the bot's hand nor face up on the
discard pile is unknown, and a sample deals those ids at random into the other hands (at their
known sizes) and the draw pile. Each sample is a complete engine State ("determinisation") in
which every candidate action is tried and the round played out to its end by the heuristic for
every seat. The action that wins the most playouts is played.

Two details matter for strength within 200 ms:

- Common random numbers: within one sample every candidate is played out with the same RNG seed
  (same hidden cards, same draw order, same reshuffles), so candidates are compared on the same
  luck and far fewer playouts separate them than independent runs would need.
- Successive elimination: every ``ROUND_SIZE`` samples, candidates clearly behind the best
  (paired difference more than ``Z`` standard errors) stop being played out, so the budget goes
  to the close calls.

The search never sees a State it was not given by its own sampling: ``decide`` passes it the
seat's view only.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import Any

from games.engine import apply as engine_apply
from games.engine.actions import Action
from games.engine.cards import PRESETS, WILD
from games.engine.errors import EngineError
from games.engine.state import CHOOSE, DRAWN, MATCH_OVER, PLAY, ROUND_OVER, Seat, State

from .heuristic import ALL_RULES, Rules, choose, leaves_one
from .table import PLAY_DRAWN, TURN_TYPES, Table, from_state, from_view, kind_of

MAX_PLAYOUT_ACTIONS = 300
ROUND_SIZE = 8  # samples between two eliminations
Z = 2.0
_OVER = (ROUND_OVER, MATCH_OVER)


def search(
    view: dict[str, Any],
    rng: random.Random,
    *,
    budget_ms: float,
    playouts: int | None = None,
    rules: Rules = ALL_RULES,
    clock: Callable[[], float] = time.perf_counter,
) -> Action | None:
    """The expert's action for the view's seat (None: nothing to do now).

    ``playouts`` (tests, reproducible arenas) fixes the number of samples instead of the clock.
    """
    t = from_view(view)
    quick = choose(t, rules, rng)
    if quick is None or quick.type not in TURN_TYPES:
        return quick  # a catch, UNO, or nothing: never worth a search
    candidates = _candidates(view, t, rules)
    if len(candidates) <= 1:
        return candidates[0] if candidates else quick
    if t.phase == PLAY and len(t.hand) == 1:
        return quick  # going out
    deadline = clock() + budget_ms / 1000.0
    me = t.me
    alive = list(range(len(candidates)))
    results: list[list[float]] = [[] for _ in candidates]
    samples = 0
    timed = playouts is None
    while playouts is None or samples < playouts:
        world = determinise(view, rng)
        seed = rng.getrandbits(48)
        outcome: list[float] = []
        for k in alive:
            outcome.append(_playout(world, candidates[k], me, seed, rules))
            # The clock is read after every playout, not only between samples: a sample of
            # long playouts (big hands, many candidates) would overshoot the budget. A sample
            # cut short is dropped, so the candidates keep being compared on the same samples.
            if timed and samples and len(outcome) < len(alive) and clock() >= deadline:
                break
        if len(outcome) < len(alive):
            break
        for k, result in zip(alive, outcome, strict=True):
            results[k].append(result)
        samples += 1
        if samples % ROUND_SIZE == 0 and len(alive) > 1:
            alive = _eliminate(alive, results)
        if timed and clock() >= deadline:
            break
    best = max(alive, key=lambda k: (sum(results[k]) / len(results[k]), -k))
    return candidates[best]


def _eliminate(alive: list[int], results: list[list[float]]) -> list[int]:
    """Drop candidates whose paired difference to the leader is clearly negative.

    Every candidate still alive has been played out in every sample so far, so their result
    lists line up sample by sample."""
    n = len(results[alive[0]])
    leader = max(alive, key=lambda k: sum(results[k]))
    keep = []
    lead = results[leader]
    for k in alive:
        if k == leader:
            keep.append(k)
            continue
        diffs = [a - b for a, b in zip(results[k], lead, strict=True)]
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / max(n - 1, 1)
        if mean + Z * math.sqrt(var / n) >= 0:
            keep.append(k)
    return keep


def _candidates(view: dict[str, Any], t: Table, rules: Rules) -> list[Action]:
    """The distinct turn actions: cards of one type with one target are the same move."""
    # The UNO word rides on every play that leaves one card, as the heuristic says it.
    seen: dict[tuple[str, str | None, int | None], Action] = {}
    for a in view["legal_actions"]:
        kind = a["type"]
        if kind not in TURN_TYPES:
            continue
        card = a.get("card")
        target = a.get("target")
        key = (kind, kind_of(card) if card else None, target)
        if key in seen:
            continue
        uno = False
        if kind == "play":
            uno = rules.say_uno and leaves_one(t, card, target)
        elif kind == PLAY_DRAWN and t.drawn is not None:
            uno = rules.say_uno and leaves_one(t, t.drawn, target)
        seen[key] = Action(kind, t.me, card, target, uno)
    return list(seen.values())


def determinise(view: dict[str, Any], rng: random.Random) -> State:
    """A full engine State consistent with everything the view shows, hidden cards sampled."""
    me = view["you"]
    hand = [c["id"] for c in view["hand"]]
    discard = [c["id"] for c in view["discard_pile"]]
    known = set(hand)
    known.update(discard)
    unknown = [c for c in PRESETS[view["preset"]].card_ids if c not in known]
    rng.shuffle(unknown)
    seats_view = view["seats"]
    needed = sum(s["hand_size"] for s in seats_view if s["active"] and s["seat"] != me)
    needed += view["draw_size"]
    if len(unknown) < needed:  # a hand-made position with other card ids: pad with Wilds
        unknown += [f"{WILD}-{1000 + k}" for k in range(needed - len(unknown))]
    seats = []
    k = 0
    for s in seats_view:
        if s["seat"] == me:
            cards = list(hand)
        elif s["active"]:
            cards = unknown[k : k + s["hand_size"]]
            k += s["hand_size"]
        else:
            cards = []
        seats.append(
            Seat(
                hand=cards,
                active=s["active"],
                uno=s["uno"],
                exposed=s["catchable"],
                skips=s["skips_owed"],
                score=s["score"],
            )
        )
    draw_pile = unknown[k : k + view["draw_size"]]
    pending = None
    if view["pending_choice"]:
        p = view["pending_choice"]
        pending = {
            "seat": p["seat"],
            "card": p["card"]["id"],
            "effect": p["effect"],
            "reason": p["reason"],
            "uno": False,
        }
    drawn = view["drawn_card"]["id"] if view.get("drawn_card") else None
    return State(
        preset=view["preset"],
        seats=seats,
        draw_pile=draw_pile,
        discard_pile=discard,
        options=dict(view["options"]),
        target_score=0,  # the playout ends with the round
        direction=1 if view["direction"] == "clockwise" else -1,
        current=view["current_seat"],
        dealer=view["dealer"],
        phase=view["phase"] if view["phase"] in (PLAY, DRAWN, CHOOSE) else PLAY,
        drawn_card=drawn,
        pending=pending,
        round=view["round"],
    )


def _playout(world: State, first: Action, me: int, seed: int, rules: Rules) -> float:
    """Play ``first`` in ``world``, then the heuristic for everyone until the round ends.

    1 for a win of ``me``, 0 for a loss; a round that runs too long counts by hand sizes."""
    rng = random.Random(seed)
    try:
        state, _ = engine_apply(world, first, rng)
    except EngineError:
        return 0.0  # cannot happen for a listed action; never let a playout break a move
    apply = engine_apply
    for _ in range(MAX_PLAYOUT_ACTIONS):
        if state.phase in _OVER:
            return 1.0 if state.round_results[-1]["winner"] == me else 0.0
        seat = state.current
        action = choose(from_state(state, seat, _can_draw(state, seat)), rules, rng)
        if action is None:  # pragma: no cover - the current seat always has a move
            action = Action("timeout", seat)
        state, _ = apply(state, action, rng)
    sizes = [len(s.hand) for s in state.seats if s.active]
    mine = len(state.seats[me].hand)
    return sum(mine < x for x in sizes) / max(len(sizes) - 1, 1)


def _can_draw(s: State, seat: int) -> bool:
    if s.phase != PLAY:
        return False
    if not s.draw_pile and len(s.discard_pile) <= 1:
        return False
    if PRESETS[s.preset].draw_restricted:
        n = len(s.seats)
        nxt = (seat + s.direction) % n
        while not s.seats[nxt].active and nxt != seat:
            nxt = (nxt + s.direction) % n
        return len(s.seats[nxt].hand) == 1 and all(kind_of(c) == WILD for c in s.seats[seat].hand)
    return True


__all__ = ["determinise", "search"]
