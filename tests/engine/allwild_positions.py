"""Uno All Wild positions and moves for the hand-written rules tests (tests/engine/test_rules_*.py).

``position(...)`` places the cards named in hands, draw and discard piles as given and the rest
of the 112 at the bottom of the draw pile (or wherever ``rest`` says), so cards are conserved in
every position. Seats: alice 0, bob 1, carol 2, dave 3.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from games.engine import EngineError, ReplayRNG
from games.engine.uno.actions import Action
from games.engine.uno.allwild.cards import PRESETS, card_type
from games.engine.uno.allwild.legal import legal_actions
from games.engine.uno.allwild.rules import apply, new_game, validate_options
from games.engine.uno.state import Seat, State

ALICE, BOB, CAROL, DAVE = 0, 1, 2, 3
Event = dict[str, Any]


class NoChance:
    """The RNG for positions where nothing is left to chance: any use of it fails the test."""

    def shuffle(self, x: list[Any]) -> None:
        raise AssertionError("unexpected shuffle")

    def choice(self, seq: Any) -> Any:
        raise AssertionError("unexpected random choice")


def position(
    preset: str = "standard",
    hands: list[list[str]] | None = None,
    *,
    draw: list[str] | None = None,
    discard: list[str] | None = None,
    current: int = ALICE,
    dealer: int | None = None,
    direction: int = 1,
    rest: str | int = "draw",
    options: dict[str, bool] | None = None,
    target_score: int = 500,
    **fields: Any,
) -> State:
    """A position with the given hands (top first) and piles; the rest of the deck goes to the
    bottom of the draw pile (``rest="draw"``), under the top discard (``"discard"``) or to the
    bottom of one seat's hand (a seat number). The discard top defaults to an unused Wild."""
    ids = PRESETS[preset].card_ids
    hand_lists = [list(h) for h in (hands or [[], []])]
    draw_pile = list(draw or [])
    placed = [c for h in hand_lists for c in h] + draw_pile + list(discard or [])
    if discard is None:
        discard = [next(c for c in reversed(ids) if card_type(c) == "wild" and c not in placed)]
        placed += discard
    assert len(placed) == len(set(placed)), "a card is placed twice"
    assert set(placed) <= set(ids), f"not in {preset}: {sorted(set(placed) - set(ids))}"
    leftover = [c for c in ids if c not in set(placed)]
    discard_pile = list(discard)
    if rest == "draw":
        draw_pile += leftover
    elif rest == "discard":
        discard_pile += leftover
    else:
        assert isinstance(rest, int)
        hand_lists[rest] += leftover
    n = len(hand_lists)
    state = State(
        preset=preset,
        seats=[Seat(hand=h) for h in hand_lists],
        draw_pile=draw_pile,
        discard_pile=discard_pile,
        options=validate_options(options or {}),
        target_score=target_score,
        direction=direction,
        current=current,
        dealer=(current - 1) % n if dealer is None else dealer,
        **fields,
    )
    assert Counter(cards_of(state)) == Counter(ids)
    return state


def cards_of(state: State) -> list[str]:
    return [c for s in state.seats for c in s.hand] + state.draw_pile + state.discard_pile


def act(
    state: State,
    kind: str,
    seat: int | None = None,
    card: str | None = None,
    target: int | None = None,
    *,
    uno: bool = False,
    rng: Any = None,
) -> tuple[State, list[Event]]:
    """Apply one action, checking it was listed as legal (player actions) and conserved cards."""
    action = Action(kind, seat, card, target, uno)
    if kind not in ("timeout", "leave", "next_round") and seat is not None:
        listed = legal_actions(state, seat)
        assert Action(kind, seat, card, target) in listed, f"{action} not in {listed}"
    after, events = apply(state, action, NoChance() if rng is None else rng)
    assert Counter(cards_of(after)) == Counter(PRESETS[state.preset].card_ids)
    return after, events


def refusal(state: State, *fields: Any, **named: Any) -> str:
    """The code the action ``Action(*fields, **named)`` is refused with; the state is untouched
    and the action (UNO or not) is not listed."""
    action = Action(*fields, **named)
    before = state.to_dict()
    with pytest.raises(EngineError) as info:
        apply(state, action, NoChance())
    assert state.to_dict() == before
    if action.seat is not None and 0 <= action.seat < len(state.seats):
        assert action._replace(uno=False) not in legal_actions(state, action.seat)
    return info.value.code


def types(events: list[Event]) -> list[str]:
    return [e["type"] for e in events]


def hand(state: State, seat: int) -> list[str]:
    return state.seats[seat].hand


def wilds(first: int, count: int) -> list[str]:
    return [f"wild-{i}" for i in range(first, first + count)]


def deck_order(preset: str, active: int, opening: str) -> list[str]:
    """A deck order that flips ``opening`` once 7 cards went to each of ``active`` seats."""
    ids = list(PRESETS[preset].card_ids)
    top = next(c for c in ids if card_type(c) == opening)
    ids.remove(top)
    dealt = HAND * active
    return ids[:dealt] + [top] + ids[dealt:]


HAND = 7


def scripted(dealer: int | None, order: list[str]) -> ReplayRNG:
    """An RNG that picks ``dealer`` (when given) and then shuffles the deck into ``order``."""
    events: list[Event] = []
    if dealer is not None:
        events.append({"type": "chance", "kind": "choice", "value": dealer})
    events.append({"type": "chance", "kind": "shuffle", "order": order})
    return ReplayRNG(events)


def dealt(
    preset: str, players: int, dealer: int, opening: str, **setup: Any
) -> tuple[State, list[Event], list[str]]:
    order = deck_order(preset, players, opening)
    rng = scripted(dealer, order)
    state, events = new_game(players=players, rng=rng, preset=preset, **setup)
    assert rng.remaining == 0
    return state, events, order


def dealt_hand(order: list[str], players: int, dealer: int, seat: int) -> list[str]:
    """One card at a time from the seat clockwise of the dealer, each card on top of the hand."""
    k = (seat - dealer - 1) % players
    return [order[k + j * players] for j in reversed(range(HAND))]


def round_over_position(players: int, dealer: int, **fields: Any) -> State:
    hands = [[f"skip-{seat + 1}"] for seat in range(players)]
    hands[BOB] = []
    return position(hands=hands, dealer=dealer, phase="round_over", direction=-1, **fields)


def three_players(alice: list[str], **kw: Any) -> State:
    return position(hands=[alice, ["wild-10", "wild-11"], ["wild-12", "wild-13"]], **kw)


def chooser_on_one_card() -> State:
    """Alice holds one card, has not said UNO, and owes the target of an opening Targeted Draw 2
    (a constructed position: the blind-play house rule will make it reachable)."""
    state = position(
        hands=[["wild-1"], ["wild-2", "wild-3"], ["wild-4", "wild-5"]],
        discard=["targeted_draw2-1"],
        phase="choose",
        pending={
            "seat": ALICE,
            "card": "targeted_draw2-1",
            "effect": "targeted_draw2",
            "reason": "opening",
            "uno": False,
        },
    )
    state.seats[ALICE].exposed = True
    return state
