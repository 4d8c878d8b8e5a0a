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
from collections import Counter
from collections.abc import Callable
from typing import Any

from games.engine import apply as engine_apply
from games.engine.actions import Action
from games.engine.cards import (
    DRAW2,
    DRAW4,
    FORCE_SWAP,
    PRESETS,
    REVERSE,
    SHUFFLE_HANDS,
    SKIP,
    SKIP_TWO,
    TARGETED_DRAW2,
    TYPE_OF,
    WILD,
)
from games.engine.errors import EngineError
from games.engine.state import CHOOSE, DRAWN, MATCH_OVER, PLAY, ROUND_OVER, Seat, State

from .heuristic import (
    ALL_RULES,
    ATTACK_RANK,
    CHAIN_ORDER,
    CLOSE,
    EXTRA_TURN_2P,
    PLAIN_RANK,
    SHUFFLE_MIN_HAND,
    SWAP_GAIN,
    Rules,
    choose,
    leaves_one,
)
from .table import PLAY_DRAWN, TURN_TYPES, Table, from_state, from_view, kind_of

# A playout longer than this is scored by hand sizes. Heads-up, a round from the deal lasts about
# 60 turn actions between two heuristics; past 150 the hands have swollen (every card in the
# hands, Force Swaps passing them back and forth) and playing on mostly measures noise.
MAX_PLAYOUT_ACTIONS = 150
ROUND_SIZE = 8  # samples between two eliminations
Z = 2.0
# A fixed amount of work (``playouts``) also caps the engine actions played in all, so that a
# move in a swollen round (long playouts, many candidates) stays as cheap as an ordinary one.
ACTIONS_PER_SAMPLE = 250
_OVER = (ROUND_OVER, MATCH_OVER)
# House rules the search models (the heuristic plays them in the playouts); with any other on,
# the expert plays as the heuristic does.
SUPPORTED_OPTIONS = frozenset({"force_swap_protection", "speed_mode"})


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

    ``playouts`` (tests, reproducible arenas) fixes the work instead of the clock: that many
    samples, and at most ``playouts * ACTIONS_PER_SAMPLE`` engine actions in all.
    """
    t = from_view(view)
    quick = choose(t, rules, rng)
    if quick is None or quick.type not in TURN_TYPES:
        return quick  # a catch, UNO, or nothing: never worth a search
    if not supported(view):
        return quick
    candidates = _candidates(view, t, rules)
    if len(candidates) <= 1:
        return candidates[0] if candidates else quick
    if t.phase == PLAY and len(t.hand) == 1:
        return quick  # going out
    timed = playouts is None
    deadline = clock() + budget_ms / 1000.0
    steps_left = (playouts or 0) * ACTIONS_PER_SAMPLE
    me = t.me
    alive = list(range(len(candidates)))
    results: list[list[float]] = [[] for _ in candidates]
    samples = 0
    while playouts is None or samples < playouts:
        world = determinise(view, rng)
        seed = rng.getrandbits(48)
        outcome: list[float] = []
        for k in alive:
            result, used = _playout(world, candidates[k], me, seed, rules)
            outcome.append(result)
            # The clock (or the action count) is checked after every playout, not only
            # between samples: a sample of long playouts (big hands, many candidates) would
            # overshoot. A sample cut short is dropped, so the candidates keep being compared
            # on the same samples.
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
            alive = _eliminate(alive, results)
        if len(alive) == 1 or (clock() >= deadline if timed else steps_left <= 0):
            break
    if not samples:
        return quick  # not one whole sample in the budget: the heuristic's move
    best = max(alive, key=lambda k: (sum(results[k]) / len(results[k]), -k))
    return candidates[best]


def supported(view: dict[str, Any]) -> bool:
    """Can the search model this game (its house rules, its phase)?"""
    options = view.get("options") or {}
    if any(on and name not in SUPPORTED_OPTIONS for name, on in options.items()):
        return False
    return view.get("hand") is not None and not view.get("stack")


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
    """The distinct turn actions: cards of one type with one target are the same move.

    Heads-up, a Reverse does what a Skip does (the other player loses a turn; the direction
    changes nothing with two), so they are one move too: the search has one candidate less to
    play out in most positions."""
    # The UNO word rides on every play that leaves one card, as the heuristic says it.
    heads_up = sum(t.active) == 2
    seen: dict[tuple[str, str | None, int | None], Action] = {}
    for a in view["legal_actions"]:
        kind = a["type"]
        if kind not in TURN_TYPES:
            continue
        card = a.get("card")
        target = a.get("target")
        card_kind = kind_of(card) if card else None
        if heads_up and card_kind == REVERSE:
            card_kind = SKIP
        key = (kind, card_kind, target)
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


def _playout(world: State, first: Action, me: int, seed: int, rules: Rules) -> tuple[float, int]:
    """Play ``first`` in ``world``, then the heuristic for everyone until the round ends.

    Returns the result (1 for a win of ``me``, 0 for a loss; a round that runs too long counts
    by hand sizes) and the number of engine actions it took."""
    rng = random.Random(seed)
    try:
        state, _ = engine_apply(world, first, rng)
    except EngineError:
        return 0.0, 1  # cannot happen for a listed action; never let a playout break a move
    apply = engine_apply
    fast = rules == ALL_RULES
    for step in range(1, MAX_PLAYOUT_ACTIONS + 1):
        if state.phase in _OVER:
            return (1.0 if state.round_results[-1]["winner"] == me else 0.0), step
        seat = state.current
        action = playout_policy(state, seat) if fast else None
        if action is None:
            action = choose(from_state(state, seat, _can_draw(state, seat)), rules, rng)
        if action is None:  # pragma: no cover - the current seat always has a move
            action = Action("timeout", seat)
        state, _ = apply(state, action, rng)
    sizes = [len(s.hand) for s in state.seats if s.active]
    mine = len(state.seats[me].hand)
    return sum(mine < x for x in sizes) / max(len(sizes) - 1, 1), MAX_PLAYOUT_ACTIONS


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


# -- the playout policy ------------------------------------------------------------------------
#
# The heuristic (all rules) for the seat on turn in the play phase, read straight off the State:
# the same decisions as ``heuristic.choose(from_state(...))`` (tests/bots/test_expert.py checks
# it move for move), without building a Table and without Python loops over the hand, which in
# a swollen round holds 30 to 60 cards. The profile of a search was two thirds heuristic; this
# makes a playout about twice as fast. Other phases (and any unusual card id) go to the
# heuristic itself.


def playout_policy(s: State, me: int) -> Action | None:
    """The heuristic's action for ``me`` on turn in ``s``; None: ask ``heuristic.choose``."""
    if s.phase != PLAY or s.current != me:
        return None
    seats = s.seats
    hand = seats[me].hand
    h = len(hand)
    if h == 1:
        if not seats[me].uno:
            return None  # UNO first
        card = hand[0]
        if TYPE_OF.get(card) is TARGETED_DRAW2:
            return Action("play", me, card, _shortest(s, me, _opponents(s, me)))
        return Action("play", me, card, None)
    get = TYPE_OF.get
    counts = Counter(map(get, hand))  # counted in C
    if None in counts:
        return None
    opponents = _opponents(s, me)
    two = len(opponents) == 1
    nxt = _next(s, me, s.direction)

    def sizes(i: int) -> int:
        return len(seats[i].hand) if seats[i].active else 0

    protection = bool(s.options.get("force_swap_protection"))

    def swappable(i: int) -> bool:
        return i != me and seats[i].active and not (protection and sizes(i) == 1)

    def play(kind: str, target: int | None) -> Action:
        card = next(c for c in hand if get(c) is kind)
        if kind is FORCE_SWAP:
            one = target is not None and sizes(target) == 1 or (target is None and h == 2)
        elif kind is SHUFFLE_HANDS:
            one = sizes(_next(s, me, -s.direction)) == 1
        else:
            one = h == 2
        return Action("play", me, card, target, one)

    if two:
        extra = [k for k in counts if k in EXTRA_TURN_2P]
        if extra and sum(counts[k] for k in extra) >= h - 1:
            return play(min(extra, key=CHAIN_ORDER.__getitem__), None)

    if sizes(nxt) == 1:  # stop_threat
        if DRAW4 in counts:
            return play(DRAW4, None)
        if DRAW2 in counts:
            return play(DRAW2, None)
        if FORCE_SWAP in counts and h - 1 >= 2 and swappable(nxt):
            return play(FORCE_SWAP, nxt)
        if TARGETED_DRAW2 in counts:
            return play(TARGETED_DRAW2, nxt)
        if SHUFFLE_HANDS in counts and h - 1 >= 2:
            return play(SHUFFLE_HANDS, None)
        for kind in (SKIP_TWO, SKIP):
            if kind in counts:
                return play(kind, None)
        if REVERSE in counts and (two or sizes(_next(s, me, -s.direction)) > 1):
            return play(REVERSE, None)
        if _can_draw(s, me):  # strategic_draw
            return Action("draw", me)

    if FORCE_SWAP in counts:  # swap_when_behind
        candidates = [i for i in opponents if swappable(i)]
        if candidates:
            target = _shortest(s, me, candidates)
            if sizes(target) <= h - 1 - SWAP_GAIN:
                return play(FORCE_SWAP, target)

    if (
        SHUFFLE_HANDS in counts
        and h >= SHUFFLE_MIN_HAND
        and sizes(_next(s, me, -s.direction)) <= h - 1 - SWAP_GAIN
    ):
        return play(SHUFFLE_HANDS, None)

    attack = two or min(sizes(i) for i in opponents) <= CLOSE

    def rank(kind: str) -> float:
        if attack and kind in ATTACK_RANK:
            return ATTACK_RANK[kind]
        return PLAIN_RANK.get(kind, 4)

    best: str = min(counts, key=rank)  # type: ignore[arg-type,assignment]  # no None: checked above
    aim: int | None = None
    if best is TARGETED_DRAW2:
        aim = _shortest(s, me, opponents)
    elif best is FORCE_SWAP:
        candidates = [i for i in opponents if swappable(i)]
        aim = _shortest(s, me, candidates) if candidates else None
    return play(best, aim)


def _opponents(s: State, me: int) -> list[int]:
    return [i for i, seat in enumerate(s.seats) if seat.active and i != me]


def _next(s: State, seat: int, step: int) -> int:
    n = len(s.seats)
    i = seat
    for _ in range(n):
        i = (i + step) % n
        if s.seats[i].active:
            return i
    return seat


def _shortest(s: State, me: int, seats: list[int]) -> int:
    """The seat closest to going out; ties go to the next in turn order (as the heuristic)."""
    order = {}
    seat = me
    for k in range(len(s.seats)):
        seat = _next(s, seat, s.direction)
        if seat == me:
            break
        order[seat] = k
    return min(seats, key=lambda i: (len(s.seats[i].hand), order.get(i, 99)))


__all__ = ["determinise", "playout_policy", "search"]
