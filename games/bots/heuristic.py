"""The ``heuristic`` level: the rulebook's strategy section as rules, each one switchable.

The rulebook (seeds/000, "strategy still matters") gives the rules; ``Rules`` names each so the
arena can switch one off and measure what it adds (docs/bots.md, the ablation):

- ``dump_wilds``: play plain Wilds before the other action cards.
- ``attack_early``: ours, and against the rulebook's "save powerful cards": heads-up, play Draw
  4, Draw 2 and Targeted Draw 2 as soon as nothing more urgent is on (while the opponent holds
  fewer than ``ATTACK_LIMIT`` cards: past it, attacks only swell a round that never ends).
  Otherwise (and without the rule) they are held, as the rulebook says, until an opponent is
  close to going out (``CLOSE`` cards). The arena measures that holding loses heads-up
  (docs/bots.md): a held card is lost when the round is lost, or given away by the next Force
  Swap or Shuffle Hands (20 of the 112 cards). Force Swap is always held (for a swap that
  pays or a player to stop).
- ``stop_threat``: when the next player is about to go out (one card), stop them: Draw 4 /
  Draw 2, Force Swap to steal their near-empty hand, Targeted Draw 2, Shuffle Hands, and (to
  win time) Skip or Reverse. A player further on is left to whoever plays before them (the
  arena measured that spending a card on them loses at four seats); close to going out (two
  cards or fewer), anyone gets the draw cards first.
- ``swap_when_behind``: Force Swap with the shortest hand when it is clearly shorter than mine.
- ``shuffle_when_many``: Shuffle Hands is a reset when I hold many cards and receive fewer.
- ``say_uno``: always say UNO (with the play that leaves one card, or at once after a swap).
- ``catch``: catch every missed UNO.
- ``strategic_draw``: draw on purpose when the next player is about to go out and nothing in
  hand stops them (scenario 7), then play the drawn card if it stops them.
- ``chain``: ours, not the rulebook's: with two players Skip, Reverse, Draw 2, Draw 4 (and Skip
  Two) give another turn, so a hand of such cards plus one more goes out in one turn.

Everything is decided from a ``Table`` (what the seat may see), so the same function plays the
bot's real moves and the expert's playouts.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, fields, replace

from games.engine.uno.actions import CATCH, DRAW, PASS, PLAY, PLAY_DRAWN, UNO, Action
from games.engine.uno.allwild.cards import (
    DRAW2,
    DRAW4,
    FORCE_SWAP,
    REVERSE,
    SHUFFLE_HANDS,
    SKIP,
    SKIP_TWO,
    TARGETED_DRAW2,
    WILD,
)
from games.engine.uno.state import CHOOSE, DRAWN
from games.engine.uno.state import PLAY as PLAY_PHASE

from .table import Table, kind_of


@dataclass(frozen=True)
class Rules:
    dump_wilds: bool = True
    attack_early: bool = True
    stop_threat: bool = True
    swap_when_behind: bool = True
    shuffle_when_many: bool = True
    say_uno: bool = True
    catch: bool = True
    strategic_draw: bool = True
    chain: bool = True

    @classmethod
    def names(cls) -> list[str]:
        return [f.name for f in fields(cls)]

    def without(self, name: str) -> Rules:
        if name not in self.names():
            raise ValueError(f"unknown heuristic rule {name!r}; rules: {', '.join(self.names())}")
        return replace(self, **{name: False})


ALL_RULES = Rules()

# Cards that give the player another turn when two players are left.
EXTRA_TURN_2P = frozenset({SKIP, REVERSE, DRAW2, DRAW4, SKIP_TWO})
# The order in which a two-player chain plays them: the ones that hurt first.
CHAIN_ORDER = {DRAW4: 0, DRAW2: 1, SKIP_TWO: 2, SKIP: 3, REVERSE: 4}
# Which card to play when nothing special is going on: lowest first. Wilds have no effect, so
# they go first (dump_wilds), and Force Swap, the strongest card (the rulebook's favourite),
# last of all: it waits for a swap that pays or a player to stop.
PLAIN_RANK = {
    WILD: 0,
    REVERSE: 1,
    SKIP: 2,
    SKIP_TWO: 3,
    SHUFFLE_HANDS: 4,
    DRAW2: 5,
    TARGETED_DRAW2: 6,
    DRAW4: 7,
    FORCE_SWAP: 8,
}
# With attack_early (or once an opponent is close to going out) the draw cards come first:
# those giving another turn with two players first, the biggest hit first.
ATTACK_RANK = {DRAW4: -3, DRAW2: -2, TARGETED_DRAW2: -1}
# "Close to going out", for the rulebook's "hold them for when opponents are close to winning".
CLOSE = 2
# Heads-up, attack_early stops once the opponent holds this many cards: past it, every draw card
# played swells both hands (the victim's draws, then a Force Swap hands them back) and a chain
# of them kept rounds going past 500 turns (docs/bots.md). The cards are then held, as at three
# seats or more, until the opponent is close to going out.
ATTACK_LIMIT = 16
# A swap / shuffle is worth its card when the hand received is this much smaller than the
# hand given away (after the card itself has left it).
SWAP_GAIN = 2
SHUFFLE_MIN_HAND = 5


def choose(t: Table, rules: Rules, rng: random.Random) -> Action | None:
    """The heuristic's action for the seat ``t.me``, or None when it has nothing to do now."""
    me = t.me
    if rules.say_uno and t.sizes[me] == 1 and not t.uno[me]:
        return Action(UNO, me)
    if rules.catch:
        for seat in t.catchable:
            if seat != me:
                return Action(CATCH, me, target=seat)
    if t.current != me:
        return None
    if t.phase == PLAY_PHASE:
        return _play_phase(t, rules, rng)
    if t.phase == DRAWN:
        return _drawn_phase(t, rules)
    if t.phase == CHOOSE and t.pending_effect is not None:
        return Action("choose_target", me, target=_choice_target(t, t.pending_effect))
    return None


# ---------------------------------------------------------------------------------------------


def _play(t: Table, card: str, target: int | None, rules: Rules) -> Action:
    return Action(PLAY, t.me, card, target, rules.say_uno and leaves_one(t, card, target))


def leaves_one(t: Table, card: str, target: int | None) -> bool:
    """Will I hold exactly one card once this play has resolved (so UNO said with it counts)?"""
    h = len(t.hand)
    kind = kind_of(card)
    if h == 1:
        return False
    if kind == FORCE_SWAP:
        return target is not None and t.sizes[target] == 1 or (target is None and h == 2)
    if kind == SHUFFLE_HANDS:
        return t.sizes[t.previous_seat()] == 1
    return h == 2


def _shortest(t: Table, seats: list[int]) -> int:
    """The seat closest to going out; ties go to the next in turn order."""
    order = {seat: k for k, seat in enumerate(_turn_order(t))}
    return min(seats, key=lambda seat: (t.sizes[seat], order.get(seat, 99)))


def _turn_order(t: Table) -> list[int]:
    out = []
    seat = t.me
    for _ in range(len(t.active)):
        seat = t.next_seat(seat)
        if seat == t.me:
            break
        out.append(seat)
    return out


def _td2_target(t: Table) -> int:
    return _shortest(t, t.opponents())


def _play_phase(t: Table, rules: Rules, rng: random.Random) -> Action:
    hand = t.hand
    h = len(hand)
    by_type: dict[str, str] = {}
    for card in hand:
        by_type.setdefault(kind_of(card), card)
    if h == 1:  # going out: any card wins (a Force Swap fizzles, a Targeted Draw 2 still hits)
        card = hand[0]
        target = _td2_target(t) if kind_of(card) == TARGETED_DRAW2 else None
        return Action(PLAY, t.me, card, target)
    opponents = t.opponents()
    two = len(opponents) == 1
    nxt = t.next_seat()

    if two and rules.chain:
        extra = [k for k in by_type if k in EXTRA_TURN_2P]
        if extra and sum(kind_of(c) in EXTRA_TURN_2P for c in hand) >= h - 1:
            kind = min(extra, key=CHAIN_ORDER.__getitem__)
            return _play(t, by_type[kind], None, rules)

    # Only the next player is mine to stop: one further on can be stopped by whoever plays
    # before them, and a card spent on them here is measured to lose (docs/bots.md). (A
    # Targeted Draw 2 still goes to the shortest hand when it is played: see _ordinary.)
    if rules.stop_threat and t.sizes[nxt] == 1:
        action = _stop_next(t, by_type, nxt, two, rules)
        if action is not None:
            return action
        if rules.strategic_draw and t.can_draw:
            return Action(DRAW, t.me)

    if rules.swap_when_behind and FORCE_SWAP in by_type:
        candidates = [s for s in opponents if t.swappable(s)]
        if candidates:
            target = _shortest(t, candidates)
            if t.sizes[target] <= h - 1 - SWAP_GAIN:
                return _play(t, by_type[FORCE_SWAP], target, rules)

    if (
        rules.shuffle_when_many
        and SHUFFLE_HANDS in by_type
        and h >= SHUFFLE_MIN_HAND
        and t.sizes[t.previous_seat()] <= h - 1 - SWAP_GAIN
    ):
        return _play(t, by_type[SHUFFLE_HANDS], None, rules)

    return _ordinary(t, by_type, rules, rng)


def _stop_next(
    t: Table, by_type: dict[str, str], nxt: int, two: bool, rules: Rules
) -> Action | None:
    """A play that keeps the next player (one card left) from going out on their turn."""
    h = len(t.hand)
    if DRAW4 in by_type:
        return _play(t, by_type[DRAW4], None, rules)
    if DRAW2 in by_type:
        return _play(t, by_type[DRAW2], None, rules)
    if FORCE_SWAP in by_type and h - 1 >= 2 and t.swappable(nxt):
        return _play(t, by_type[FORCE_SWAP], nxt, rules)
    if TARGETED_DRAW2 in by_type:
        return _play(t, by_type[TARGETED_DRAW2], nxt, rules)
    if SHUFFLE_HANDS in by_type and h - 1 >= 2:
        return _play(t, by_type[SHUFFLE_HANDS], None, rules)
    for kind in (SKIP_TWO, SKIP):  # one more turn (2 players) / the next player sits out
        if kind in by_type:
            return _play(t, by_type[kind], None, rules)
    if REVERSE in by_type and (two or t.sizes[t.previous_seat()] > 1):
        return _play(t, by_type[REVERSE], None, rules)
    return None


def _attack_now(t: Table, rules: Rules) -> bool:
    """Play draw cards now rather than hold them?

    Heads-up only, and only while the opponent holds fewer than ``ATTACK_LIMIT`` cards: at
    three seats or more (or against a swollen hand), bots that attack early keep every card in
    the hands and pass them round for hundreds of turns (docs/bots.md), so there the
    rulebook's holding applies."""
    opponents = t.opponents()
    if min(t.sizes[s] for s in opponents) <= CLOSE:
        return True
    return rules.attack_early and len(opponents) == 1 and t.sizes[opponents[0]] < ATTACK_LIMIT


def _ordinary(t: Table, by_type: dict[str, str], rules: Rules, rng: random.Random) -> Action:
    """No one to stop, no swap worth making: get rid of the card worth least to keep."""
    attack = _attack_now(t, rules)

    def rank(kind: str) -> float:
        if kind in ATTACK_RANK and attack:
            return ATTACK_RANK[kind]
        if kind == WILD and not rules.dump_wilds:
            return rng.random() * 4
        return PLAIN_RANK.get(kind, 4)

    kind = min(by_type, key=rank)
    target = None
    if kind == TARGETED_DRAW2:
        target = _td2_target(t)
    elif kind == FORCE_SWAP:
        candidates = [s for s in t.opponents() if t.swappable(s)]
        target = _shortest(t, candidates) if candidates else None
    return _play(t, by_type[kind], target, rules)


def _drawn_phase(t: Table, rules: Rules) -> Action:
    """After a draw: play the drawn card if it helps now, otherwise keep it."""
    assert t.drawn is not None
    kind = kind_of(t.drawn)
    nxt = t.next_seat()
    two = len(t.opponents()) == 1
    threat = t.sizes[nxt] == 1
    h = len(t.hand)
    target: int | None = None
    if kind == TARGETED_DRAW2:
        target = nxt if threat else _td2_target(t)
    elif kind == FORCE_SWAP and h > 1:
        candidates = [s for s in t.opponents() if t.swappable(s)]
        if not candidates:
            target = None
        else:
            target = nxt if threat and nxt in candidates else _shortest(t, candidates)
            if not threat and t.sizes[target] > h - 1 - SWAP_GAIN:
                return Action(PASS, t.me)
    if threat:
        stops = kind in (DRAW2, DRAW4, TARGETED_DRAW2, SKIP, SKIP_TWO) or (
            kind in (FORCE_SWAP, SHUFFLE_HANDS) and h - 1 >= 2
        )
        if stops or kind == WILD or (two and kind in EXTRA_TURN_2P):
            return Action(PLAY_DRAWN, t.me, target=target, uno=_uno_drawn(t, target, rules))
        return Action(PASS, t.me)
    if (
        kind == WILD
        or (two and kind in EXTRA_TURN_2P)
        or (kind in ATTACK_RANK and _attack_now(t, rules))
    ):
        return Action(PLAY_DRAWN, t.me, target=target, uno=_uno_drawn(t, target, rules))
    return Action(PASS, t.me)


def _uno_drawn(t: Table, target: int | None, rules: Rules) -> bool:
    assert t.drawn is not None
    return rules.say_uno and leaves_one(t, t.drawn, target)


def _choice_target(t: Table, effect: str) -> int | None:
    """The target of an opening Targeted Draw 2 / Force Swap: the shortest hand."""
    if effect == FORCE_SWAP:
        candidates = [s for s in t.opponents() if t.swappable(s)]
        return _shortest(t, candidates) if candidates else None
    return _td2_target(t)
