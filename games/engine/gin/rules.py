"""Gin Rummy's rules: dealing, listing and applying actions (``shared/rules/gin_rummy.md``)."""

from __future__ import annotations

from typing import Any, Final

from .. import errors as E
from ..errors import EngineError
from ..interface import RNG, Event
from . import scoring
from .actions import (
    BIG_GIN,
    DISCARD,
    DISCARD_PILE,
    DRAW,
    KNOCK,
    LEAVE,
    NEXT_ROUND,
    PASS,
    STOCK,
    TAKE_UPCARD,
    TIMEOUT,
    Action,
)
from .cards import (
    DECK,
    DEFAULT_TARGET,
    HAND_SIZE,
    INDEX,
    KNOCK_LIMIT,
    MAX_DISCARD_TAKES,
    RANK,
    SUIT,
    VALUE,
    WALL,
    mask_of,
)
from .melds import deadwood_after_discards, knock_bound, min_deadwood
from .state import DISCARD as DISCARD_STEP
from .state import DRAW as DRAW_STEP
from .state import MATCH_OVER, OFFER, PRESET, ROUND_OVER, State

PLAYERS: Final = 2


def validate_options(options: Any) -> dict[str, Any]:
    if options is None:
        return {}
    if not isinstance(options, dict) or options:
        raise EngineError(E.INVALID_SETUP, "Gin Rummy has no house rules")
    return {}


def new_game(
    *,
    players: int,
    rng: RNG,
    preset: str | None = None,
    # Wider than the interface's: validate_options refuses anything but none with invalid_setup.
    options: object = None,
    target_score: int | None = None,
) -> tuple[State, list[Event]]:
    if players != PLAYERS:
        raise EngineError(E.INVALID_SETUP, "Gin Rummy is for 2 players")
    if preset not in (None, PRESET):
        raise EngineError(E.INVALID_SETUP, f"unknown preset {preset!r}")
    validate_options(options)
    target = DEFAULT_TARGET if target_score is None else target_score
    if not isinstance(target, int) or target < 0:
        raise EngineError(E.INVALID_SETUP, "the target score is a whole number, 0 or more")
    ev: list[Event] = []
    # Round 1: the dealer is a random seat.
    dealer = rng.choice([0, 1])
    ev.append({"type": "chance", "kind": "choice", "options": [0, 1], "value": dealer})
    s = State(hands=[[], []], stock=[], discard=[], dealer=dealer, target_score=target)
    _deal(s, rng, ev)
    return s, ev


def _deal(s: State, rng: RNG, ev: list[Event]) -> None:
    deck = list(DECK)
    rng.shuffle(deck)
    ev.append({"type": "chance", "kind": "shuffle", "order": list(deck)})
    dealer, first = s.dealer, 1 - s.dealer
    # One at a time, the non-dealer first: positions 1, 3, ... 19 and 2, 4, ... 20.
    s.hands = [[], []]
    s.hands[first] = deck[0 : 2 * HAND_SIZE : 2]
    s.hands[dealer] = deck[1 : 2 * HAND_SIZE : 2]
    s.discard = [deck[2 * HAND_SIZE]]
    s.stock = deck[2 * HAND_SIZE + 1 :]
    s.current = first
    s.phase = OFFER
    s.passes = 0
    s.taken = None
    s.drawn_from = None
    s.takes = []
    ev.append({"type": "deal", "round": s.round, "dealer": dealer, "upcard": s.discard[0]})
    for i in (0, 1):
        ev.append({"type": "hand", "seat": i, "to": i, "secret": {"cards": list(s.hands[i])}})


def legal_actions(s: State, seat: int) -> list[Action]:
    """What ``seat`` may do now, in a fixed order. Changes nothing."""
    if s.phase in (ROUND_OVER, MATCH_OVER) or seat != s.current:
        return []
    if s.phase == OFFER:
        return [Action(TAKE_UPCARD, seat), Action(PASS, seat)]
    if s.phase == DRAW_STEP:
        out = [Action(DRAW, seat, source=STOCK)]
        if _may_take_discard(s):
            out.append(Action(DRAW, seat, source=DISCARD_PILE))
        return out
    hand = s.hands[seat]
    out = [Action(DISCARD, seat, card=c) for c in hand if c != s.taken]
    full = mask_of(hand)
    if knock_bound(full) > KNOCK_LIMIT:
        return out  # far from knocking (and from big gin): no need to arrange every discard
    kept = deadwood_after_discards(full)
    out += [
        Action(KNOCK, seat, card=c) for c in hand if c != s.taken and kept[INDEX[c]] <= KNOCK_LIMIT
    ]
    if min(kept.values()) == 0 and min_deadwood(full) == 0:
        out.append(Action(BIG_GIN, seat))
    return out


def _may_take_discard(s: State) -> bool:
    return bool(s.discard) and s.passes < 2 and len(s.takes) < MAX_DISCARD_TAKES


def apply(state: State, action: Action, rng: RNG) -> tuple[State, list[Event]]:
    """The state after ``action`` and its events; ``EngineError`` if illegal (``state`` is never
    changed: the work is done on a copy)."""
    s = state.copy()
    ev: list[Event] = []
    if action.type == NEXT_ROUND:
        if s.phase != ROUND_OVER:
            raise EngineError(E.ROUND_IN_PROGRESS, "the round is not over")
        s.round += 1
        s.dealer = s.round_results[-1]["next_dealer"]
        _deal(s, rng, ev)
        return s, ev
    if s.phase == MATCH_OVER:
        raise EngineError(E.GAME_OVER, "the match is over")
    if action.type == LEAVE:
        _leave(s, action, ev)
        return s, ev
    if s.phase == ROUND_OVER:
        raise EngineError(E.ROUND_OVER, "the round is over")
    if action.seat != s.current:
        raise EngineError(E.NOT_YOUR_TURN, "it is not your turn")
    if action.type == TIMEOUT:
        _timeout(s, ev)
    else:
        handler = _PLAYER.get(action.type)
        if handler is None:
            raise EngineError(E.INVALID_ACTION, f"unknown action type {action.type!r}")
        handler(s, action, ev)
    return s, ev


def _take_upcard(s: State, action: Action, ev: list[Event]) -> None:
    if s.phase != OFFER:
        code = E.MUST_DRAW_STOCK if s.phase == DRAW_STEP and s.passes == 2 else E.NO_OFFER
        raise EngineError(code, "the upcard offer is over")
    _take_discard(s, ev, TAKE_UPCARD)


def _pass(s: State, action: Action, ev: list[Event]) -> None:
    if s.phase != OFFER:
        raise EngineError(E.PASS_NOT_ALLOWED, "only the upcard offer may be passed")
    s.passes += 1
    ev.append({"type": "pass", "seat": s.current})
    if s.passes == 1:
        s.current = s.dealer
    else:
        # Both passed: the non-dealer draws from the stock.
        s.current = 1 - s.dealer
        s.phase = DRAW_STEP


def _draw(s: State, action: Action, ev: list[Event]) -> None:
    if s.phase == OFFER:
        raise EngineError(E.OFFER_PENDING, "take the upcard or pass first")
    if s.phase != DRAW_STEP:
        raise EngineError(E.DRAW_NOT_ALLOWED, "you have drawn already: discard or knock")
    if action.source == STOCK:
        card = s.stock.pop(0)
        s.hands[s.current].append(card)
        s.drawn_from = STOCK
        s.passes = 0
        s.phase = DISCARD_STEP
        secret = {"card": card}
        ev.append(
            {"type": "draw", "seat": s.current, "source": STOCK, "to": s.current, "secret": secret}
        )
        return
    if s.passes == 2:
        raise EngineError(E.MUST_DRAW_STOCK, "both passed the upcard: draw from the stock")
    if len(s.takes) >= MAX_DISCARD_TAKES:
        raise EngineError(E.DISCARD_TAKE_LIMIT, "no more takes from the discard pile this round")
    if not s.discard:
        raise EngineError(E.NOTHING_TO_DRAW, "the discard pile is empty")
    _take_discard(s, ev, DRAW)


def _take_discard(s: State, ev: list[Event], kind: str) -> None:
    card = s.discard.pop(0)
    s.hands[s.current].append(card)
    s.taken = card
    s.drawn_from = DISCARD_PILE
    s.takes = [*s.takes, {"seat": s.current, "card": card}]
    s.phase = DISCARD_STEP
    if kind == DRAW:
        ev.append({"type": "draw", "seat": s.current, "source": DISCARD_PILE, "card": card})
    else:
        ev.append({"type": "take_upcard", "seat": s.current, "card": card})


def _check_discard(s: State, card: str | None) -> str:
    if s.phase == OFFER:
        raise EngineError(E.OFFER_PENDING, "take the upcard or pass first")
    if s.phase != DISCARD_STEP:
        raise EngineError(E.NOTHING_DRAWN, "draw a card first")
    if card is None or card not in s.hands[s.current]:
        raise EngineError(E.CARD_NOT_IN_HAND, f"{card!r} is not in your hand")
    if card == s.taken:
        raise EngineError(E.CARD_JUST_TAKEN, "the card just taken stays in your hand this turn")
    return card


def _discard(s: State, action: Action, ev: list[Event]) -> None:
    card = _check_discard(s, action.card)
    seat = s.current
    s.hands[seat].remove(card)
    s.discard.insert(0, card)
    ev.append({"type": "discard", "seat": seat, "card": card})
    if len(s.stock) == WALL:
        scoring.wall(s, ev)
        return
    s.current = 1 - seat
    s.phase = DRAW_STEP
    s.taken = None
    s.drawn_from = None


def _knock(s: State, action: Action, ev: list[Event]) -> None:
    card = _check_discard(s, action.card)
    kept = mask_of(s.hands[s.current]) & ~(1 << INDEX[card])
    if min_deadwood(kept) > KNOCK_LIMIT:
        raise EngineError(E.KNOCK_NOT_ALLOWED, "the cards you keep leave more than 10 deadwood")
    s.hands[s.current].remove(card)
    # Face down: the event names no card; the round result shows it.
    ev.append({"type": "knock", "seat": s.current})
    scoring.knock(s, s.current, card, ev)


def _big_gin(s: State, action: Action, ev: list[Event]) -> None:
    if s.phase != DISCARD_STEP:
        raise EngineError(
            E.OFFER_PENDING if s.phase == OFFER else E.NOTHING_DRAWN, "draw a card first"
        )
    if min_deadwood(mask_of(s.hands[s.current])) != 0:
        raise EngineError(E.BIG_GIN_NOT_ALLOWED, "big gin needs all eleven cards in melds")
    ev.append({"type": "big_gin", "seat": s.current})
    scoring.knock(s, s.current, None, ev)


def _timeout(s: State, ev: list[Event]) -> None:
    """The rulings' automatic move: pass the offer; draw from the stock and throw that card back;
    after a discard-pile take, discard what leaves the least deadwood. Never a knock."""
    seat = s.current
    ev.append({"type": "timeout", "seat": seat})
    if s.phase == OFFER:
        _pass(s, Action(PASS, seat), ev)
        return
    if s.phase == DRAW_STEP:
        _draw(s, Action(DRAW, seat, source=STOCK), ev)
    # After a stock draw, throw back the card just drawn: the hand stays as it was.
    hand = s.hands[seat]
    card = hand[-1] if s.drawn_from == STOCK else timeout_discard(hand, s.taken)
    _discard(s, Action(DISCARD, seat, card=card), ev)


def timeout_discard(hand: list[str], taken: str | None) -> str:
    """The card (not ``taken``) whose removal leaves the least deadwood; ties to the higher value,
    then the higher rank, then the suit (spades, hearts, diamonds, clubs)."""
    full = mask_of(hand)
    return min(
        (c for c in hand if c != taken),
        key=lambda c: (min_deadwood(full & ~(1 << INDEX[c])), -VALUE[c], -RANK[c], SUIT[c]),
    )


def _leave(s: State, action: Action, ev: list[Event]) -> None:
    """A player who leaves loses the match by forfeit; the round in progress scores nothing."""
    seat = action.seat
    if seat not in (0, 1):
        raise EngineError(E.INVALID_ACTION, "leave names the seat that leaves")
    s.left = seat
    s.winner = 1 - seat
    s.phase = MATCH_OVER
    s.taken = None
    ev.append({"type": "left", "seat": seat})
    ev.append({"type": "match_over", "winner": s.winner, "reason": "forfeit"})


_PLAYER = {
    TAKE_UPCARD: _take_upcard,
    PASS: _pass,
    DRAW: _draw,
    DISCARD: _discard,
    KNOCK: _knock,
    BIG_GIN: _big_gin,
}
