"""Double down: a player may play two identical cards at once; both effects apply in order, each as
it would alone and judged as it applies (two Skip Twos: the next four turns of other players,
counted past turns already lost; the second Force Swap swaps the hand left after the first, and
with Force Swap protection its target is checked on the hands after the first swap: a pair whose
second target would then hold one card is refused as a whole). Two Draw 2s are one Draw 4: the
next player draws 4 and loses one turn. Played as the last two cards, draws apply, swaps fizzle.
"""

from __future__ import annotations

from itertools import permutations

from .... import errors as E
from ....errors import EngineError
from ....interface import RNG, Event
from ...actions import PLAY_PAIR, Action, Pick
from ...cards import card_type
from ...pairs import pair_of
from ...play import put_on_table, refuse_after_draw
from ...state import STACK, State
from ...turns import require_house_rule, turn_seat
from ..cards import DRAW_AMOUNT, FORCE_SWAP
from ..effects import EFFECTS, draw_next
from ..targets import check_target, pair_targets
from ..turn import finish_play
from .stacking import not_stackable_message, stackable_types


def do_play_pair(state: State, a: Action, rng: RNG, ev: list[Event]) -> State:
    require_house_rule(state, "double_down")
    seat = turn_seat(state, a)
    refuse_after_draw(state)
    if state.options.get("blind_play"):
        raise EngineError(E.HAND_FACE_DOWN, "your hand is face down: you cannot pick a pair")
    if a.card is not None or a.target is not None:
        raise EngineError(E.INVALID_ACTION, "play_pair takes cards and targets (lists)")
    first, _ = pair_of(
        state, seat, a.cards, _same_type, "double down plays two different cards of one type"
    )
    kind = card_type(first)
    if state.phase == STACK and kind not in stackable_types(state):
        raise EngineError(E.NOT_STACKABLE, not_stackable_message(state))
    going_out = len(state.seats[seat].hand) == 2
    targets = _checked_targets(state, seat, kind, a.targets, going_out)
    assert a.cards is not None
    s = put_on_table(state, seat, a.cards, ev)
    event: Event = {"type": "play_pair", "seat": seat, "cards": list(a.cards), "card_type": kind}
    if targets is not None:
        event["targets"] = list(targets)
    ev.append(event)
    if kind in DRAW_AMOUNT:
        draw_next(s, seat, kind, 2 * DRAW_AMOUNT[kind], going_out, rng, ev)
    else:
        for target in targets or (None, None):
            EFFECTS[kind](s, seat, target, going_out, rng, ev)
    finish_play(s, seat, a.uno, ev)
    return s


def _same_type(first: str, second: str) -> bool:
    return card_type(first) == card_type(second)


def _checked_targets(
    state: State, seat: int, kind: str, targets: tuple[int, ...] | None, going_out: bool
) -> tuple[int, ...] | None:
    """Both targets checked against the position before the pair (a Force Swap is checked again
    as it applies: the second after the first swap)."""
    if pair_targets(state, seat, kind, going_out) is None:
        if targets is not None:
            check_target(state, seat, kind, targets[0] if targets else -1, going_out)
            raise EngineError(E.TARGET_NOT_ALLOWED, f"a pair of {kind} takes no targets here")
        return None
    if targets is None or len(targets) != 2:
        raise EngineError(E.TARGET_REQUIRED, f"a pair of {kind} needs two targets, one each")
    for target in targets:
        check_target(state, seat, kind, target, going_out)
    return targets


def pair_actions(
    s: State, seat: int, hand: list[str], kinds: tuple[str, ...] | None
) -> list[Action]:
    """What double down lists: one template per card type held twice or more (of ``kinds``, if
    given). A template stands for every two of its cards and any targets from its list."""
    by_kind: dict[str, list[str]] = {}
    for card in hand:
        by_kind.setdefault(card_type(card), []).append(card)
    going_out = len(hand) == 2
    out = []
    for kind, cards in by_kind.items():
        if len(cards) < 2 or (kinds is not None and kind not in kinds):
            continue
        targets = pair_targets(s, seat, kind, going_out)
        if targets and kind == FORCE_SWAP and len(hand) == 3 and s.option("force_swap_protection"):
            out += _protected_swap_pairs(seat, cards, targets)
            continue
        pick = Pick(2, tuple(cards), 2 if targets else 0, targets or ())
        out.append(Action(PLAY_PAIR, seat, choose=pick))
    return out


def _protected_swap_pairs(seat: int, cards: list[str], targets: tuple[int, ...]) -> list[Action]:
    """Two Force Swaps from a hand of three under protection: the first swap leaves the first
    target holding one card, so the second must target someone else. Not a template (its
    targets are not independent): every pair, listed."""
    return [
        Action(PLAY_PAIR, seat, cards=pair, targets=(first, second))
        for pair in permutations(cards, 2)
        for first in targets
        for second in targets
        if first != second
    ]
