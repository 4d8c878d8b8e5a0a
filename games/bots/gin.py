"""The Gin Rummy heuristic, from the seat's view alone: keep the least deadwood, knock early.

- Draw: take the top discard (or the upcard) only when it lowers the hand's best deadwood after a
  discard; otherwise the stock (or pass the upcard).
- Discard: the card whose removal leaves the least deadwood. Among near-equal choices it throws
  the card least useful to the opponent: it tracks the opponent's takes from the discard pile
  (the view lists them) and holds back a card of the same rank as one they took, or of the same
  suit within two ranks of it.
- Big gin when it has it; knock as soon as it may, with the discard that keeps the least deadwood.
"""

from __future__ import annotations

import random
from typing import Any

from games.engine.gin.actions import Action
from games.engine.gin.cards import INDEX, RANK, SUIT, VALUE, mask_of
from games.engine.gin.melds import deadwood_after_discards, min_deadwood

KIND = "gin_rummy"
# Deadwood points a card that helps the opponent is worth keeping over: enough to break near
# ties, not to keep real deadwood.
DANGER = 3


def choose(view: dict[str, Any], rng: random.Random) -> Action | None:
    me = view["you"]
    legal = [Action.from_dict(a) for a in view.get("legal_actions") or []]
    if not legal:
        return None
    types = {a.type for a in legal}
    hand = [c["id"] for c in view["hand"]]
    top = view["discard_top"]["id"] if view.get("discard_top") else None
    if "take_upcard" in types:
        return Action("take_upcard", me) if _improves(hand, top) else Action("pass", me)
    if "draw" in types:
        takes = any(a.source == "discard" for a in legal)
        source = "discard" if takes and _improves(hand, top) else "stock"
        return Action("draw", me, source=source)
    if "big_gin" in types:
        return Action("big_gin", me)
    kept = deadwood_after_discards(mask_of(hand))
    knocks = [a for a in legal if a.type == "knock"]
    if knocks:
        return min(knocks, key=lambda a: (kept[INDEX[a.card or ""]], -VALUE[a.card or ""]))
    danger = _dangerous(view, me)
    discards = [a for a in legal if a.type == "discard"]
    return min(
        discards,
        key=lambda a: (
            kept[INDEX[a.card or ""]] + (DANGER if a.card in danger else 0),
            -VALUE[a.card or ""],
            rng.random(),
        ),
    )


def _improves(hand: list[str], card: str | None) -> bool:
    """Whether taking ``card`` (never to be thrown back this turn) lowers the best deadwood."""
    if card is None:
        return False
    now = min_deadwood(mask_of(hand))
    after = deadwood_after_discards(mask_of([*hand, card]))
    best = min(v for i, v in after.items() if i != INDEX[card])
    return best < now


def _dangerous(view: dict[str, Any], me: int) -> set[str]:
    """Cards that would help the opponent: near the cards they took from the discard pile."""
    taken = [t["card"] for t in view.get("takes", []) if t["seat"] != me]
    out = set()
    for card in view["hand"]:
        cid = card["id"]
        for t in taken:
            if RANK[cid] == RANK[t] or (SUIT[cid] == SUIT[t] and abs(RANK[cid] - RANK[t]) <= 2):
                out.add(cid)
    return out
