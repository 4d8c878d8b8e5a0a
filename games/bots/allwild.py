"""Uno All Wild's bots: the heuristic as the expert's rollout policy, and what the search needs
to know about All Wild (games/bots/policies.py's ``GameBots``).

- ``rollout``: the heuristic (all rules, or an ablation), read straight off the sampled State
  by ``playout_policy`` (below) for speed, else through ``heuristic.choose``.
- ``candidates``: the distinct turn actions: cards of one type with one target are the same
  move (the UNO word rides on a play that leaves one card). Heads-up, a Reverse does what a
  Skip does (the other player loses a turn; the direction changes nothing with two), so they
  are one move too.
- ``presearch``: free actions (UNO, a catch), a last card, a lone candidate and the house rules
  the rollouts do not model (any but ``force_swap_protection`` and ``speed_mode``, a stack, a
  hidden hand) are the heuristic's, without search; so is, at three seats or more, every move
  before the seat's own end game (``ENDGAME_HAND``).
- ``evaluate``: a playout cut short is scored by hand sizes.
- ``state_from_view``: ``determinise``, for a caller that holds only the seat's view (the
  service): a State with the cards the view hides dealt at random.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Hashable
from dataclasses import replace
from typing import Any

from games.engine.uno.actions import PLAY_DRAWN, Action
from games.engine.uno.allwild.cards import (
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
from games.engine.uno.state import CHOOSE, DRAWN, MATCH_OVER, PLAY, ROUND_OVER, Seat, State

from . import allwild_beliefs, house
from .heuristic import (
    ALL_RULES,
    ATTACK_LIMIT,
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
from .policies import BY_KIND, AnyGame, GameBots
from .table import TURN_TYPES, from_state, kind_of

KIND = "uno_all_wild"
_OVER = (ROUND_OVER, MATCH_OVER)
# House rules the search models (the heuristic plays them in the playouts); with any other on,
# the expert plays as the heuristic does.
SUPPORTED_OPTIONS = frozenset({"force_swap_protection", "speed_mode"})
# A hand this big means a swollen round (draw cards and Force Swaps have put most cards in the
# hands): the expert then plays the heuristic's move, which stops attacking heads-up at that
# size (``heuristic.ATTACK_LIMIT``) and so lets the round shrink and end. Searching there was
# measured to keep rounds going (playouts of 200 actions that rarely finish, long moves), and
# at three seats or more to play worse than the heuristic (docs/bots.md).
SWOLLEN = ATTACK_LIMIT
# Deal the search's samples following what the other seats' plays revealed (allwild_beliefs).
INFER = True
# At three seats or more the expert searches only in its own end game: once its own hand holds
# this many cards or fewer; before that it plays the heuristic's move. Early in a round a switch
# is judged by playouts in which the seat then plays the heuristic, yet it goes on switching, so
# the deviations do not compose, and a long playout weighs one move against a whole round's
# luck. With a short hand of its own there are few decisions left, the playouts are short, and
# the choice is mostly about the seat's own cards (which it knows). Searching whenever *any*
# hand was short (an opponent's too) measured worse: those switches bet on what the short hand
# holds, which the samples guess (docs/bots.md). Heads-up the search plays every move.
ENDGAME_HAND = 3


def supported(view: dict[str, Any]) -> bool:
    """Can the search model this game (its house rules, its phase), from the seat's view?"""
    options = view.get("options") or {}
    if any(on and name not in SUPPORTED_OPTIONS for name, on in options.items()):
        return False
    return view.get("hand") is not None and not view.get("stack")


def _supported_state(s: State) -> bool:
    if any(on and name not in SUPPORTED_OPTIONS for name, on in s.options.items()):
        return False
    return s.phase in (PLAY, DRAWN, CHOOSE)


class AllWildBots(GameBots):
    """All Wild's bot knowledge; ``rules`` is the heuristic played (an ablation in the arena)."""

    def __init__(self, rules: Rules = ALL_RULES) -> None:
        self.rules = rules
        self.fast = rules == ALL_RULES

    def rollout(self, game: AnyGame, state: Any, rng: random.Random) -> Any:
        s: State = state
        seat = s.current
        action = playout_policy(s, seat) if self.fast else None
        if action is None:
            action = choose(from_state(s, seat, can_draw(s, seat)), self.rules, rng)
        if action is None:  # pragma: no cover - the current seat always has a move
            action = Action("timeout", seat)
        return action

    def presearch(
        self, game: AnyGame, state: Any, seat: int, rng: random.Random
    ) -> tuple[Any | None, bool]:
        s: State = state
        if not _supported_state(s):
            return house.choose(game.view(s, seat), self.rules, rng), False
        legal = game.legal_actions(s, seat)
        t = from_state(s, seat, any(a.type == "draw" for a in legal))
        t = replace(t, catchable=[i for i, x in enumerate(s.seats) if x.exposed])
        quick = choose(t, self.rules, rng)
        if quick is None or quick.type not in TURN_TYPES:
            return quick, False  # a catch, UNO, or nothing: never worth a search
        if s.phase == PLAY and len(t.hand) == 1:
            return quick, False  # going out
        if max(t.sizes) >= SWOLLEN:
            return quick, False  # a swollen round: the heuristic's move
        if not endgame(s, seat):
            return quick, False  # three seats or more, not yet the seat's end game
        return quick, True

    def sampler(
        self, game: AnyGame, state: Any, seat: int, history: list[dict[str, Any]]
    ) -> Callable[[Any], Any]:
        # At three seats or more the hidden cards are dealt as the other seats' plays suggest
        # (allwild_beliefs), where the history replays to the state's hand sizes; otherwise
        # uniformly. Heads-up the beliefs were measured to play worse (docs/bots.md): there
        # the heuristic attacks and chains, whose plays the replay reads less well.
        beliefs = None
        if INFER and sum(x.active for x in state.seats) > 2:
            beliefs = allwild_beliefs.read(history, seat)
        if beliefs is None or not allwild_beliefs.consistent(beliefs, state, seat):
            return super().sampler(game, state, seat, history)
        return lambda rng: allwild_beliefs.deal(state, seat, beliefs, rng)

    def candidates(self, game: AnyGame, state: Any, seat: int, rng: random.Random) -> list[Any]:
        s: State = state
        t = from_state(s, seat, True)
        seen: dict[Hashable, Action] = {}
        for a in game.legal_actions(s, seat):
            if a.type not in TURN_TYPES:
                continue
            key = self.key(s, a)
            if key in seen:
                continue
            uno = False
            if a.type == "play" and a.card is not None:
                uno = self.rules.say_uno and leaves_one(t, a.card, a.target)
            elif a.type == PLAY_DRAWN and t.drawn is not None:
                uno = self.rules.say_uno and leaves_one(t, t.drawn, a.target)
            seen[key] = a._replace(uno=uno)
        return list(seen.values())

    def key(self, state: Any, action: Any) -> Hashable:
        card_kind = kind_of(action.card) if action.card else None
        if card_kind == REVERSE and sum(x.active for x in state.seats) == 2:
            card_kind = SKIP
        return action.type, card_kind, action.target

    def is_over(self, game: AnyGame, state: Any) -> bool:
        return state.phase in _OVER

    def reward(self, game: AnyGame, start: Any, end: Any, seat: int) -> float:
        return 1.0 if end.round_results[-1]["winner"] == seat else 0.0

    def evaluate(self, game: AnyGame, state: Any, seat: int) -> float:
        # A playout cut short. Heads-up it counts as lost (as the arena's strict reading counts
        # an abandoned round): scored by hand sizes there, the search played to hold fewer cards
        # at its horizon, which keeps swollen rounds going (measured in docs/bots.md: a quarter
        # of heads-up rounds against the heuristic passed 500 turns). With more seats: the
        # share of opponents holding more cards.
        s: State = state
        sizes = [len(x.hand) for x in s.seats if x.active]
        if len(sizes) <= 2:
            return 0.0
        mine = len(s.seats[seat].hand)
        return sum(mine < x for x in sizes) / max(len(sizes) - 1, 1)

    def state_from_view(self, view: dict[str, Any], rng: random.Random) -> Any | None:
        return determinise(view, rng)


def endgame(s: State, seat: int) -> bool:
    """Is the search worth it for ``seat``: heads-up always; with three seats or more only once
    its own hand holds ``ENDGAME_HAND`` cards or fewer."""
    active = sum(x.active for x in s.seats)
    return active <= 2 or len(s.seats[seat].hand) <= ENDGAME_HAND


def bots_for(ablated: str | None = None) -> AllWildBots:
    """All Wild's bots playing the full heuristic, or the heuristic without rule ``ablated``."""
    return ALL_WILD_BOTS if not ablated else AllWildBots(ALL_RULES.without(ablated))


ALL_WILD_BOTS = AllWildBots()
BY_KIND[KIND] = bots_for


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


def can_draw(s: State, seat: int) -> bool:
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
    hand = s.seats[me].hand
    if len(hand) == 1:
        return _last_card(s, me, hand[0])
    counts = Counter(map(TYPE_OF.get, hand))  # counted in C
    if None in counts:
        return None
    turn = _Turn(s, me, counts)  # type: ignore[arg-type]  # no None: checked above
    return (
        turn.chain_out()
        or turn.stop_threat()
        or turn.swap_when_behind()
        or turn.shuffle_when_behind()
        or turn.best_card()
    )


def _last_card(s: State, me: int, card: str) -> Action | None:
    if not s.seats[me].uno:
        return None  # UNO first
    if TYPE_OF.get(card) is TARGETED_DRAW2:
        return Action("play", me, card, _shortest(s, me, _opponents(s, me)))
    return Action("play", me, card, None)


class _Turn:
    """A seat's turn with two or more cards, all of known types: one method per decision of the
    heuristic, in its order; each returns its play, or None to leave it to the next."""

    __slots__ = ("s", "me", "hand", "h", "counts", "opponents", "two", "protection")

    def __init__(self, s: State, me: int, counts: Counter[str]) -> None:
        self.s, self.me, self.counts = s, me, counts
        self.hand = s.seats[me].hand
        self.h = len(self.hand)
        self.opponents = _opponents(s, me)
        self.two = len(self.opponents) == 1
        self.protection = bool(s.options.get("force_swap_protection"))

    def sizes(self, i: int) -> int:
        seat = self.s.seats[i]
        return len(seat.hand) if seat.active else 0

    def swappable(self, i: int) -> bool:
        return (
            i != self.me and self.s.seats[i].active and not (self.protection and self.sizes(i) == 1)
        )

    def previous(self) -> int:
        return _next(self.s, self.me, -self.s.direction)

    def play(self, kind: str, target: int | None) -> Action:
        card = next(c for c in self.hand if TYPE_OF.get(c) is kind)
        if kind is FORCE_SWAP:
            one = target is not None and self.sizes(target) == 1 or (target is None and self.h == 2)
        elif kind is SHUFFLE_HANDS:
            one = self.sizes(self.previous()) == 1
        else:
            one = self.h == 2
        return Action("play", self.me, card, target, one)

    def chain_out(self) -> Action | None:
        """Heads-up, a hand of extra-turn cards but one plays them out."""
        if not self.two:
            return None
        extra = [k for k in self.counts if k in EXTRA_TURN_2P]
        if extra and sum(self.counts[k] for k in extra) >= self.h - 1:
            return self.play(min(extra, key=CHAIN_ORDER.__getitem__), None)
        return None

    def stop_threat(self) -> Action | None:
        """The next seat holds one card: stop it (or draw, strategic_draw)."""
        s, me, counts, h = self.s, self.me, self.counts, self.h
        nxt = _next(s, me, s.direction)
        if self.sizes(nxt) != 1:
            return None
        if DRAW4 in counts:
            return self.play(DRAW4, None)
        if DRAW2 in counts:
            return self.play(DRAW2, None)
        if FORCE_SWAP in counts and h - 1 >= 2 and self.swappable(nxt):
            return self.play(FORCE_SWAP, nxt)
        if TARGETED_DRAW2 in counts:
            return self.play(TARGETED_DRAW2, nxt)
        if SHUFFLE_HANDS in counts and h - 1 >= 2:
            return self.play(SHUFFLE_HANDS, None)
        for kind in (SKIP_TWO, SKIP):
            if kind in counts:
                return self.play(kind, None)
        if REVERSE in counts and (self.two or self.sizes(self.previous()) > 1):
            return self.play(REVERSE, None)
        if can_draw(s, me):
            return Action("draw", me)
        return None

    def swap_targets(self) -> list[int]:
        return [i for i in self.opponents if self.swappable(i)]

    def swap_when_behind(self) -> Action | None:
        if FORCE_SWAP not in self.counts:
            return None
        candidates = self.swap_targets()
        if candidates:
            target = _shortest(self.s, self.me, candidates)
            if self.sizes(target) <= self.h - 1 - SWAP_GAIN:
                return self.play(FORCE_SWAP, target)
        return None

    def shuffle_when_behind(self) -> Action | None:
        if (
            SHUFFLE_HANDS in self.counts
            and self.h >= SHUFFLE_MIN_HAND
            and self.sizes(self.previous()) <= self.h - 1 - SWAP_GAIN
        ):
            return self.play(SHUFFLE_HANDS, None)
        return None

    def best_card(self) -> Action:
        """The best-ranked card (attack ranks once someone is close to going out)."""
        opponents = self.opponents
        attack = (self.two and self.sizes(opponents[0]) < ATTACK_LIMIT) or min(
            self.sizes(i) for i in opponents
        ) <= CLOSE

        def rank(kind: str) -> float:
            if attack and kind in ATTACK_RANK:
                return ATTACK_RANK[kind]
            return PLAIN_RANK.get(kind, 4)

        best = min(self.counts, key=rank)
        aim: int | None = None
        if best is TARGETED_DRAW2:
            aim = _shortest(self.s, self.me, opponents)
        elif best is FORCE_SWAP:
            candidates = self.swap_targets()
            aim = _shortest(self.s, self.me, candidates) if candidates else None
        return self.play(best, aim)


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
