"""The heuristic under the house rules: stacking, double down, mercy, blind play.

``heuristic.choose`` plays the official rules from a ``Table``. This layer goes first and takes
what it does not know: mercy (shed the five cards worth most), a stack to answer (stack when
possible), a pair (double down: the heuristic's card twice when it holds two), and blind play
(no hand to look at: play the top card, take whatever comes). Every action it returns is among
the view's ``legal_actions`` (an instance of a listed template), so a bot can never stall a game
with a house rule on.
"""

from __future__ import annotations

import random
from typing import Any

from games.engine.uno.actions import CATCH, CHOOSE_TARGET, PLAY, PLAY_DRAWN, UNO, Action, Pick
from games.engine.uno.allwild.cards import DRAW4, FORCE_SWAP, PRESETS, SHUFFLE_HANDS, TARGETED_DRAW2

from . import heuristic
from .table import Table, from_view, kind_of

MERCY = "mercy"
TAKE_STACK = "take_stack"
PLAY_PAIR = "play_pair"
PLAY_TOP = "play_top"
HOUSE_TURN_TYPES = frozenset({TAKE_STACK, PLAY_PAIR, PLAY_TOP})
# Pairs the heuristic's card is doubled into: swaps and shuffles are judged card by card by the
# heuristic (a second swap or pass could undo the first), so those stay single.
NO_PAIR = frozenset({FORCE_SWAP, SHUFFLE_HANDS})


def listed(view: dict[str, Any]) -> list[Action]:
    """The view's legal actions as engine Actions, templates included."""
    out = []
    for data in view.get("legal_actions") or []:
        choose = data.get("choose")
        pick = None
        if choose is not None:
            pick = Pick(
                choose["count"],
                tuple(choose["from"]),
                choose.get("targets", 0),
                tuple(choose.get("target_from", ())),
            )
        out.append(
            Action(
                data["type"], data.get("seat"), data.get("card"), data.get("target"), choose=pick
            )
        )
    return out


def choose(view: dict[str, Any], rules: heuristic.Rules, rng: random.Random) -> Action | None:
    """The heuristic bot's action for the view's seat under any house rules (None: nothing now)."""
    legal = listed(view)
    if not legal:
        return None
    by_type: dict[str, list[Action]] = {}
    for action in legal:
        by_type.setdefault(action.type, []).append(action)
    if UNO in by_type and rules.say_uno:
        return by_type[UNO][0]
    if CATCH in by_type and rules.catch:
        return by_type[CATCH][0]
    if MERCY in by_type:
        return _mercy(view, by_type[MERCY][0])
    if view["current_seat"] != view["you"]:
        return None  # off turn: only the free actions above
    if view["hand"] is None:
        return _blind(view, by_type, rng)
    t = from_view(view)
    if view["phase"] == "stack":
        return _answer_stack(t, by_type)
    picked = heuristic.choose(t, rules, rng)
    if picked is None or picked.type != PLAY or PLAY_PAIR not in by_type:
        return picked
    return _doubled(t, picked, by_type[PLAY_PAIR]) or picked


def _mercy(view: dict[str, Any], action: Action) -> Action:
    """Mercy on the worst cards: the five worth most points (what the round's winner scores)."""
    if action.choose is None:  # blind play: the top five go, nothing to choose
        return action
    points = PRESETS[view["preset"]].points
    worst = sorted(action.choose.cards, key=lambda c: -points.get(kind_of(c), 0))
    return Action(MERCY, action.seat, cards=tuple(worst[: action.choose.size]))


def _answer_stack(t: Table, by_type: dict[str, list[Action]]) -> Action:
    """Stack when possible (a Draw 2 before a Draw 4: the bigger card may be needed later),
    with a pair when the next player is close to going out; take the cards otherwise."""
    plays = sorted(by_type.get(PLAY, []), key=lambda a: kind_of(a.card or "") == DRAW4)
    pairs = by_type.get(PLAY_PAIR, [])
    nxt = t.next_seat()
    if pairs and t.sizes[nxt] <= 2:
        pick = pairs[0].choose
        assert pick is not None
        return Action(PLAY_PAIR, t.me, cards=pick.cards[:2], uno=len(t.hand) == 3)
    if plays:
        card = plays[0].card
        return Action(PLAY, t.me, card, uno=len(t.hand) == 2)
    return by_type[TAKE_STACK][0]


def _doubled(t: Table, single: Action, templates: list[Action]) -> Action | None:
    """The heuristic's card played twice when it holds a pair of it (fewer cards sooner)."""
    kind = kind_of(single.card or "")
    if kind in NO_PAIR:
        return None
    for template in templates:
        pick = template.choose
        assert pick is not None
        if kind_of(pick.cards[0]) != kind:
            continue
        cards = (single.card or "", next(c for c in pick.cards if c != single.card))
        targets = None
        if pick.targets:
            if kind != TARGETED_DRAW2 or single.target not in pick.target_from:
                return None
            targets = (single.target, single.target)
        # No swap or shuffle in a pair here: one card is left exactly when three were held.
        return Action(PLAY_PAIR, t.me, cards=cards, targets=targets, uno=len(t.hand) == 3)
    return None


def _blind(view: dict[str, Any], by_type: dict[str, list[Action]], rng: random.Random) -> Action:
    """Blind play: nothing to judge but the table. Play the top card (or the drawn one), and
    aim a revealed card's effect at the shortest hand."""
    me = view["you"]
    size = view["seats"][me]["hand_size"]
    if CHOOSE_TARGET in by_type:
        options = [a for a in by_type[CHOOSE_TARGET] if a.target is not None]
        if not options:
            return by_type[CHOOSE_TARGET][0]
        return min(options, key=lambda a: view["seats"][a.target]["hand_size"])
    if PLAY_TOP in by_type:
        return Action(PLAY_TOP, me, uno=size == 2)
    if PLAY_DRAWN in by_type:
        return Action(PLAY_DRAWN, me, uno=size == 2)
    turn = [a for a in (by_type.get(TAKE_STACK, []) + by_type.get("draw", [])) if a]
    return turn[0] if turn else rng.choice([a for group in by_type.values() for a in group])
