"""The Wild Draw Four and its challenge (rulings: "Wild Draw Four and the challenge").

The engine never refuses a Wild Draw Four: it records the hand its player keeps and whether the
play was legal (no card of the colour in force), and the next player answers before any turn
action. Accepting draws 4 and loses the turn. A challenge shows the recorded hand to the
challenger alone (the event's secret goes ``to`` them) and everyone the verdict: an illegal card
costs its player 4 and the challenger takes the turn; a legal one costs the challenger 6 and the
turn. The named colour stays in force either way. A last-card Wild Draw Four is never answered:
the next player draws 4 at once and the round ends.

Under stacking (``house_rules.stacking``) the Wild Draw Four joins the stack (phase ``stack``)
and its record stays here until the answer: a challenge judges that card only. Success: its player
draws 4, the total drops by 4, and the challenger answers what is left, or takes a normal turn if
nothing is. Failure: the challenger draws the total + 2 and loses the turn.

The answer is no turn action: it closes no catch window, and while it is awaited the card's
player cannot be caught (``pending["owner"]``, see ``uno.calls``).
"""

from __future__ import annotations

from typing import Final

from ... import errors as E
from ...errors import EngineError
from ...interface import RNG, Event
from .. import effects as family
from ..actions import Action
from ..piles import draw
from ..stacking import pass_on, take_total
from ..state import PLAY, RESPOND, STACK, State
from ..turns import advance, next_active, require_player, seat_of
from . import stacking
from .cards import DRAW_AMOUNT, WD4
from .matching import wd4_is_legal

CHALLENGE_PENALTY: Final = 2  # a failed challenge: the 4 and 2 more


def wild_draw_four(
    s: State, seat: int, card: str, kept: list[str], against: str | None, rng: RNG, ev: list[Event]
) -> None:
    """``seat`` has put ``card`` on the table keeping ``kept``, on the colour ``against``: the
    next player answers it, or, as the last card, draws 4 at once."""
    victim = next_active(s, seat, s.direction)
    if not kept:  # the last card: the round is over, nobody answers
        if not stacking.add_draw(s, victim, DRAW_AMOUNT[WD4], "draw4", True, rng, ev):
            family.draw_and_lose_turn(s, victim, DRAW_AMOUNT[WD4], rng, ev, "draw4")
        return
    # Under stacking the card joins the stack (phase ``stack``): the answer is a stacked card or
    # the total, and the challenge of this card (recorded below) may come first.
    if not stacking.add_draw(s, victim, DRAW_AMOUNT[WD4], "draw4", False, rng, ev):
        s.phase = RESPOND
        s.current = victim
    s.pending = {
        "seat": victim,
        "owner": seat,
        "card": card,
        "effect": WD4,
        "reason": "response",
        "uno": False,
        "hand": list(kept),
        "against": against,  # the colour in force it was played on
        "legal": wd4_is_legal(kept, against),
    }
    ev.append({"type": "response_required", "seat": victim, "owner": seat, "card": card})


def responder(s: State, a: Action) -> int:
    """The seat answering a Wild Draw Four (checks only)."""
    seat = seat_of(s, a)
    require_player(s, seat)
    pending = s.pending
    if s.phase not in (RESPOND, STACK) or pending is None:
        if a.type == "challenge":
            raise EngineError(E.CHALLENGE_NOT_ALLOWED, "no Wild Draw Four waits for an answer")
        raise EngineError(E.NO_CHOICE_PENDING, "no Wild Draw Four waits for an answer")
    if pending["seat"] != seat:
        if a.type == "challenge":
            raise EngineError(
                E.CHALLENGE_NOT_ALLOWED, f"only seat {pending['seat']}, the next player, challenges"
            )
        raise EngineError(E.NOT_YOUR_TURN, f"seat {pending['seat']} answers the Wild Draw Four")
    return seat


def accept(s: State, seat: int, rng: RNG, ev: list[Event]) -> None:
    """``seat`` draws 4 and loses the turn (also a response's timeout)."""
    s.pending = None
    s.phase = PLAY
    ev.append({"type": "accepted", "seat": seat})
    draw(s, seat, DRAW_AMOUNT[WD4], rng, ev, "draw4")
    ev.append({"type": "skipped", "seat": seat})
    advance(s, ev)


def do_accept(s: State, a: Action, rng: RNG, ev: list[Event]) -> None:
    seat = responder(s, a)
    if s.phase == STACK:  # under stacking, taking the total is the answer in place of accept
        raise EngineError(E.STACK_PENDING, stacking.not_stackable_message(s))
    accept(s, seat, rng, ev)


def do_challenge(s: State, a: Action, rng: RNG, ev: list[Event]) -> None:
    seat = responder(s, a)
    pending = s.pending
    assert pending is not None
    owner: int = pending["owner"]
    succeeded = not pending["legal"]
    stacked = s.phase == STACK
    s.pending = None
    if not stacked:
        s.phase = PLAY
    ev.append(
        {
            "type": "challenge",
            "seat": seat,
            "target": owner,
            "succeeded": succeeded,
            "secret": {"hand": list(pending["hand"])},
            "to": seat,
        }
    )
    owed = take_total(s) if stacked else DRAW_AMOUNT[WD4]
    if succeeded:
        # A player who has left keeps no hand: the challenge then costs nobody a card.
        if s.seats[owner].active:
            draw(s, owner, DRAW_AMOUNT[WD4], rng, ev, "challenge")
        left = owed - DRAW_AMOUNT[WD4]
        if left:  # the challenger answers what is left of the stack (only a Wild Draw Four)
            pass_on(s, seat, left, ev)
        else:
            s.phase = PLAY
        return  # the challenger takes the turn now
    s.phase = PLAY
    draw(s, seat, owed + CHALLENGE_PENALTY, rng, ev, "challenge")
    ev.append({"type": "skipped", "seat": seat})
    advance(s, ev)
