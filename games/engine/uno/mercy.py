"""Mercy (a house rule of several Uno games): a player holding 15 or more cards may once discard 5
cards of their choice (under blind play: the top five of the face-down hand); they go under the
top discard. The right returns once the hand has dropped below 15, at any point
(``hands.hand_changed``). A free action at any moment of the round, except while a choice of
theirs is open (a target to choose, or the play-or-pass decision after a voluntary draw): it uses
no turn and does not close a catch window.
"""

from __future__ import annotations

from .. import errors as E
from ..errors import EngineError
from ..interface import RNG, Event
from .actions import MERCY, Action, Pick
from .hands import MERCY_COUNT, MERCY_MIN, hand_changed
from .state import DRAWN, State
from .turns import require_house_rule, require_player, seat_of


def mercy_refusal(s: State, seat: int) -> tuple[str, str] | None:
    """Why ``seat`` may not use mercy now, or None when it may."""
    me = s.seats[seat]
    if len(me.hand) < MERCY_MIN:
        return E.MERCY_NOT_ALLOWED, f"mercy needs {MERCY_MIN} or more cards in hand"
    if me.mercy_used:
        return (
            E.MERCY_NOT_ALLOWED,
            f"you used mercy already: it returns once your hand drops below {MERCY_MIN}",
        )
    if (s.pending and s.pending["seat"] == seat) or (s.phase == DRAWN and s.current == seat):
        return E.CHOICE_PENDING, "finish your open choice first"
    return None


def mercy_actions(s: State, seat: int) -> list[Action]:
    """What mercy lists for ``seat``: nothing, or one template (five cards of the hand)."""
    if not s.options.get("mercy") or mercy_refusal(s, seat) is not None:
        return []
    if s.options.get("blind_play"):
        return [Action(MERCY, seat)]
    return [Action(MERCY, seat, choose=Pick(MERCY_COUNT, tuple(s.seats[seat].hand)))]


def do_mercy(s: State, a: Action, rng: RNG, ev: list[Event]) -> None:
    require_house_rule(s, "mercy")
    seat = seat_of(s, a)
    require_player(s, seat)
    refusal = mercy_refusal(s, seat)
    if refusal:
        raise EngineError(*refusal)
    me = s.seats[seat]
    if a.card is not None or a.target is not None or a.targets is not None:
        raise EngineError(E.INVALID_ACTION, f"mercy takes {MERCY_COUNT} cards (a list), no target")
    if s.options.get("blind_play"):
        if a.cards is not None:
            raise EngineError(E.HAND_FACE_DOWN, "your hand is face down: its top five cards go")
        cards: tuple[str, ...] = tuple(me.hand[:MERCY_COUNT])
    else:
        if a.cards is None or len(a.cards) != MERCY_COUNT or len(set(a.cards)) != MERCY_COUNT:
            raise EngineError(E.WRONG_CARD_COUNT, f"mercy discards {MERCY_COUNT} different cards")
        for card in a.cards:
            if card not in me.hand:
                raise EngineError(E.CARD_NOT_IN_HAND, f"{card!r} is not in your hand")
        cards = a.cards
    for card in cards:
        me.hand.remove(card)
    s.discard_pile[1:1] = cards  # under the top discard, which stays in play
    ev.append({"type": "mercy", "seat": seat, "cards": list(cards)})
    me.mercy_used = True
    hand_changed(s, seat)  # gives the right back at once if the hand is now below 15
