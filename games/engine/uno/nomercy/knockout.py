"""Drawing under the Mercy rule (rulings: "Mercy rule", "Draw pile"): cards enter a hand one at a
time and a hand of 25 knocks its player out of the round at once, the rest of the draw undrawn.
The hand is set aside face down until the next reshuffle (the family's, ``uno.piles``, which
every draw shares); the player who caused it is paid 250 at once, which may end the match; one
player left in the round wins it.
"""

from __future__ import annotations

from collections.abc import Callable

from ...interface import RNG, Event
from ..hands import hand_changed
from ..piles import can_draw, reshuffle
from ..scoring import end_round
from ..state import MATCH_OVER, PLAY, ROUND_OVER, State
from ..turns import advance
from .cards import KNOCKOUT, KNOCKOUT_BONUS, PRESETS


def draw_cards(
    s: State,
    seat: int,
    count: int | None,
    rng: RNG,
    ev: list[Event],
    reason: str,
    *,
    causer: int | None = None,
    until: Callable[[str], bool] | None = None,
    mercy: bool = True,
    face_up: bool = False,
) -> tuple[list[str], bool]:
    """``seat`` draws one card at a time, ``count`` cards or (``count`` None) until ``until``
    accepts one, or until nothing is left; with ``mercy`` a hand reaching 25 is knocked out
    there (``causer`` is paid). ``face_up`` cards (a Roulette's reveal) are shown to everyone,
    others to the drawer alone. Returns the cards drawn and whether the seat was knocked out.

    Assigns new hand and pile lists (they may be shared with the state an action was given)."""
    me = s.seats[seat]
    hand = me.hand.copy()
    drawn: list[str] = []
    knocked = False
    while count is None or len(drawn) < count:
        if not s.draw_pile:
            if not can_draw(s):
                break
            reshuffle(s, rng, ev)  # the family's: the set-aside hands go in too
        card = s.draw_pile[0]
        s.draw_pile = s.draw_pile[1:]
        hand.insert(0, card)
        drawn.append(card)
        if mercy and len(hand) >= KNOCKOUT:
            knocked = True
            break
        if until is not None and until(card):
            break
    me.hand = hand
    event: Event = {
        "type": "draw",
        "seat": seat,
        "count": len(drawn),
        "wanted": count,
        "reason": reason,
    }
    if face_up:
        event["cards"] = drawn
    else:
        event["to"] = seat
        event["secret"] = {"cards": drawn}
    ev.append(event)
    if drawn:
        hand_changed(s, seat)
    if knocked:
        knock_out(s, seat, causer, ev)
    return drawn, knocked


def knock_out(s: State, seat: int, causer: int | None, ev: list[Event]) -> None:
    """``seat`` (the seat whose turn it is) is out of the round: its hand set aside, the causer
    paid (not for a self-caused knockout, nor to a player who left). Then the match may be won by
    the bonus, the round by the last player in it, or play passes on from ``seat``."""
    me = s.seats[seat]
    s.set_aside = [*me.hand, *s.set_aside]
    ev.append({"type": "knocked_out", "seat": seat, "count": len(me.hand), "by": causer})
    me.hand = []
    me.active = False
    me.uno = me.exposed = False
    me.skips = 0
    s.knocked_out = [*s.knocked_out, seat]
    s.stack = 0
    s.stacker = None
    s.pending = None
    s.drawn_card = None
    if causer is not None and causer != seat and seated(s, causer):
        payee = s.seats[causer]
        payee.score += KNOCKOUT_BONUS
        ev.append({"type": "bonus", "seat": causer, "points": KNOCKOUT_BONUS, "victim": seat})
        if s.target_score and payee.score >= s.target_score:
            s.phase = MATCH_OVER
            s.winner = causer
            for other in s.seats:
                other.exposed = False
            ev.append({"type": "match_over", "winner": causer, "reason": "target_reached"})
            return
    in_round = s.active_seats()
    if len(in_round) == 1:
        end_round(s, in_round[0], PRESETS[s.preset].points, ev)
        return
    s.current = seat
    s.phase = PLAY
    advance(s, ev)


def seated(s: State, seat: int) -> bool:
    """Still in the match: in the round, or knocked out of it (not left)."""
    return s.seats[seat].active or seat in s.knocked_out


def round_goes_on(s: State) -> bool:
    return s.phase not in (ROUND_OVER, MATCH_OVER)
