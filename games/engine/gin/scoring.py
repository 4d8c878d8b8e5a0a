"""Ending a round (knock, undercut, gin, big gin, the wall) and the match to the target.

Every number comes from the numbers table (``cards``); the layouts from ``melds``.
"""

from __future__ import annotations

from typing import Any, Final

from ..interface import Event
from .cards import (
    BIG_GIN_BONUS,
    GAME_BONUS,
    GIN_BONUS,
    LINE_BONUS,
    SHUTOUT_GAME_BONUS,
    UNDERCUT_BONUS,
    mask_of,
)
from .melds import Layout, knocker_layout, layout_dict, min_deadwood, own_layout
from .state import MATCH_OVER, ROUND_OVER, State

KNOCK: Final = "knock"
UNDERCUT: Final = "undercut"
GIN: Final = "gin"
BIG_GIN: Final = "big_gin"
WALL: Final = "wall"


def knock(s: State, knocker: int, knock_discard: str | None, ev: list[Event]) -> None:
    """``knocker`` ended the round: with a face-down discard (a knock, or gin when the ten kept
    cards all meld), or without one (big gin: the eleven cards all meld)."""
    defender = 1 - knocker
    mine, theirs = mask_of(s.hands[knocker]), mask_of(s.hands[defender])
    layouts: dict[int, Layout]
    if knock_discard is None:
        how, layouts = BIG_GIN, {knocker: own_layout(mine), defender: own_layout(theirs)}
        winner, points = knocker, BIG_GIN_BONUS + layouts[defender].deadwood_count
    elif min_deadwood(mine) == 0:
        # Gin: no layoffs; the defender's own minimum counts.
        how, layouts = GIN, {knocker: own_layout(mine), defender: own_layout(theirs)}
        winner, points = knocker, GIN_BONUS + layouts[defender].deadwood_count
    else:
        k_layout, d_layout = knocker_layout(mine, theirs)
        layouts = {knocker: k_layout, defender: d_layout}
        k, d = k_layout.deadwood_count, d_layout.deadwood_count
        if d > k:
            how, winner, points = KNOCK, knocker, d - k
        else:  # a tie is an undercut too
            how, winner, points = UNDERCUT, defender, k - d + UNDERCUT_BONUS
    result = {
        "how": how,
        "knocker": knocker,
        "knock_discard": knock_discard,
        "knocker_count": layouts[knocker].deadwood_count,
        "defender_count": layouts[defender].deadwood_count,
        "layouts": {str(i): layout_dict(layouts[i]) for i in (0, 1)},
    }
    _finish(s, winner, points, result, ev)


def wall(s: State, ev: list[Event]) -> None:
    """The discard that left 2 cards in the stock: a drawn round, nobody scores."""
    result = {
        "how": WALL,
        "knocker": None,
        "knock_discard": None,
        "knocker_count": None,
        "defender_count": None,
        "layouts": {str(i): layout_dict(own_layout(mask_of(s.hands[i]))) for i in (0, 1)},
    }
    _finish(s, None, 0, result, ev)


def _finish(
    s: State, winner: int | None, points: int, result: dict[str, Any], ev: list[Event]
) -> None:
    if winner is not None:
        s.scores[winner] += points
        s.rounds_won[winner] += 1
    # The loser deals next; after a drawn round the same dealer deals again.
    next_dealer = s.dealer if winner is None else 1 - winner
    s.taken = None
    s.drawn_from = None
    entry = {
        "round": s.round,
        "winner": winner,
        "points": points,
        "hands": {str(i): list(h) for i, h in enumerate(s.hands)},
        **result,
        "scores": list(s.scores),
        "rounds_won": list(s.rounds_won),
        "next_dealer": next_dealer,
    }
    ends = winner is not None and (s.target_score == 0 or s.scores[winner] >= s.target_score)
    if ends:
        assert winner is not None
        entry["bonuses"] = _bonuses(s, winner)
        for i in (0, 1):
            s.scores[i] += entry["bonuses"][i]
        entry["final_scores"] = list(s.scores)
    s.round_results = [*s.round_results, entry]
    ev.append({"type": "round_over", **entry})
    if ends:
        s.phase = MATCH_OVER
        s.winner = winner
        ev.append({"type": "match_over", "winner": winner, "reason": "target_reached"})
    else:
        s.phase = ROUND_OVER


def _bonuses(s: State, winner: int) -> list[int]:
    """Game bonus (doubled by a shutout) to the winner, line bonus per round won to both; none in
    a single-round game (target 0)."""
    if s.target_score == 0:
        return [0, 0]
    loser = 1 - winner
    game = SHUTOUT_GAME_BONUS if s.rounds_won[loser] == 0 else GAME_BONUS
    return [LINE_BONUS * s.rounds_won[i] + (game if i == winner else 0) for i in (0, 1)]
