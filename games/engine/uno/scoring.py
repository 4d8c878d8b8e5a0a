"""Going out, points left in hand, and the match to a target score.

The round's winner scores the points of every card left in the other players' hands; a match is
rounds until a player reaches the target (0: a single round). Only the winner scores, so the first
to reach the target wins the match.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..interface import Event
from .calls import close_catch_windows
from .cards import card_type
from .state import MATCH_OVER, ROUND_OVER, State


def hand_value(hand: list[str], points: Mapping[str, int]) -> int:
    """What one hand left is worth, by card type."""
    return sum(points[card_type(card)] for card in hand)


def points_left(s: State, winner: int, points: Mapping[str, int]) -> int:
    """What the other hands are worth, by card type."""
    return sum(hand_value(seat.hand, points) for i, seat in enumerate(s.seats) if i != winner)


def end_round(s: State, winner: int, points: Mapping[str, int], ev: list[Event]) -> None:
    """``winner`` went out: score the round and end it, or the match at the target. The result
    tells what each other hand in the round counted (``hand_points``), the winner's ``points``
    being their sum: the losers' hands shown with their points, as at a real table."""
    hands = {str(i): list(seat.hand) for i, seat in enumerate(s.seats) if seat.active}
    hand_points = {i: hand_value(cards, points) for i, cards in hands.items() if i != str(winner)}
    scored = points_left(s, winner, points)
    s.seats[winner].score += scored
    close_catch_windows(s)
    s.drawn_card = None
    s.pending = None
    s.stack = 0
    result = {
        "round": s.round,
        "winner": winner,
        "points": scored,
        "hands": hands,
        "hand_points": hand_points,
        "scores": [seat.score for seat in s.seats],
    }
    s.round_results = [*s.round_results, result]
    ev.append({"type": "round_over", **result})
    if s.target_score == 0 or s.seats[winner].score >= s.target_score:
        s.phase = MATCH_OVER
        s.winner = winner
        ev.append({"type": "match_over", "winner": winner, "reason": "target_reached"})
    else:
        s.phase = ROUND_OVER
