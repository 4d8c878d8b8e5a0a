"""Gin Rummy in lockstep with OpenSpiel's ``gin_rummy`` (C++, ``pyspiel``): a second opinion.

Both engines play the same deal; at every decision the legal actions must agree, and so must
both hands, the stock size, the upcard and the deadwood of a ten-card hand; a knock must be
legal in both at the same moments, with the same knock discards, and the round must score the
same. Random players choose our actions; OpenSpiel's stock draws (chance nodes there) are fed
our stock's top card, and after a knock it is told our automatic layout (melds, then layoffs).

Differences the rulings list, excluded here on purpose (``shared/rules/gin_rummy.md``, "Choices
we made"):
- **The card just taken** from the discard pile: we refuse to discard it (or knock with it);
  OpenSpiel allows it. Its listing is compared without that card.
- **Big gin** does not exist in OpenSpiel: our players never declare it here (they discard or
  knock as OpenSpiel's would).
- **The wall**: we end the round at the discard that leaves 2 in the stock; OpenSpiel lets the
  opponent take that discard to knock. The comparison stops at the wall.
- **Ties**: a knock with D = K is our undercut (25); OpenSpiel scores it 0. Not scored here.
- **OpenSpiel's rare deadwood overcount**: now and then it counts a hand's deadwood above its
  true minimum (e.g. As 5s 3d 5d-6d-7d Ah 5h-6h-7h: 10, it says 11) and so refuses a knock. Where
  the two differ, ours is checked against the brute force of ``test_gin_melds`` and the round
  stops being compared.
- **The loop guard**: we refuse takes after 50, OpenSpiel ends the round on the 50th. A round
  that reaches 49 takes stops being compared.
- **Match bonuses, dealers and leaving** are ours alone (OpenSpiel plays single rounds).
- **The knocker's arrangement**: OpenSpiel lets the knocker lay melds by hand; we give it ours
  (the minimum that leaves the defender most), so its score is compared with ours.
"""

from __future__ import annotations

import os
import random
import re

import pytest

from games.engine.gin.actions import Action
from games.engine.gin.cards import INDEX as CARD_INDEX
from games.engine.gin.cards import mask_of
from games.engine.gin.game import GIN_RUMMY as GIN
from games.engine.gin.melds import deadwood_after_discards, min_deadwood
from games.engine.gin.rules import timeout_discard
from games.engine.gin.state import State

from .test_gin_melds import brute_force

pyspiel = pytest.importorskip("pyspiel")

# About 10 s; GIN_LOCKSTEP_ROUNDS=5000 for the long run (docs/performance.md).
ROUNDS = int(os.environ.get("GIN_LOCKSTEP_ROUNDS", "400"))
DRAW_UPCARD, DRAW_STOCK, PASS, KNOCK = 52, 53, 54, 55
OS_GAME = pyspiel.load_game("gin_rummy")
# OpenSpiel numbers cards suit by suit in the order s, c, d, h; ours are named the same way.
CARD = {f"{r}{s}": i * 13 + k for i, s in enumerate("scdh") for k, r in enumerate("A23456789TJQK")}
NAME = {v: k for k, v in CARD.items()}


def _meld_ids() -> dict[frozenset[str], int]:
    state = OS_GAME.new_initial_state()
    out = {}
    for action in range(56, OS_GAME.num_distinct_actions()):
        text = state.action_to_string(0, action).split("Action: ")[1]
        out[frozenset(text[i : i + 2] for i in range(0, len(text), 2))] = action
    return out


MELD = _meld_ids()


def os_hands(text: str) -> list[set[str]]:
    """Both hands from OpenSpiel's state text (a grid of card names per player)."""
    hands: list[set[str]] = []
    for block in re.findall(r"Player\d: Deadwood=\d+\n\+-+\+\n((?:\|.*\|\n){4})", text):
        hands.append(set(re.findall(r"[A2-9TJQK][scdh]", block)))
    return hands


def os_deadwood(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"Deadwood=(\d+)", text)]


def expected_os_legal(s: State, listed: list[Action]) -> set[int]:
    out = set()
    for a in listed:
        if a.type == "take_upcard" or (a.type == "draw" and a.source == "discard"):
            out.add(DRAW_UPCARD)
        elif a.type == "draw":
            out.add(DRAW_STOCK)
        elif a.type == "pass":
            out.add(PASS)
        elif a.type == "discard":
            out.add(CARD[a.card])  # type: ignore[index]
    if s.phase == "discard":
        # OpenSpiel may knock with the card just taken too: ask our solver about every discard.
        kept = deadwood_after_discards(mask_of(s.hands[s.current]))
        if min(kept.values()) <= 10:
            out.add(KNOCK)
    return out


def lockstep_round(seed: int) -> str:
    """Play one round in both engines; return how it ended (or why comparing stopped)."""
    rng = random.Random(seed)
    s, _ = GIN.new_game(players=2, rng=rng, target_score=0)
    first = 1 - s.dealer
    seat_of = {0: first, 1: s.dealer}  # OpenSpiel's player 0 is offered the upcard first
    player_of = {v: k for k, v in seat_of.items()}
    os = OS_GAME.new_initial_state()
    for card in [*s.hands[first], *s.hands[s.dealer], s.discard[0]]:
        os.apply_action(CARD[card])
    while True:
        seat = s.current
        assert os.current_player() == player_of[seat]
        text = str(os)
        hands = os_hands(text)
        assert [hands[player_of[i]] for i in (0, 1)] == [set(h) for h in s.hands]
        assert f"Stock size: {len(s.stock)} " in text
        for i in (0, 1):
            if len(s.hands[i]) == 10:
                ours = min_deadwood(mask_of(s.hands[i]))
                if os_deadwood(text)[player_of[i]] != ours:
                    return _overcount(s.hands[i], ours, os_deadwood(text)[player_of[i]])
        listed = [a for a in GIN.legal_actions(s, seat) if a.type != "big_gin"]
        legal = set(os.legal_actions())
        if s.taken is not None:
            legal.discard(CARD[s.taken])  # OpenSpiel lets the card just taken go back
        expected = expected_os_legal(s, listed)
        if legal ^ expected == {KNOCK}:
            # Knock legality differs: ours must be the exact minimum (OpenSpiel's overcount).
            hand = s.hands[seat]
            kept = deadwood_after_discards(mask_of(hand))
            for card in hand:
                rest = tuple(c for c in hand if c != card)
                assert kept[CARD_INDEX[card]] == brute_force(rest)
            return "openspiel deadwood overcount"
        assert legal == expected, f"{text}\n{listed}"
        if len(s.takes) >= 49:
            return "loop guard"
        ends = [a for a in listed if a.type == "knock"]
        if KNOCK in legal and not ends:
            return "knock with the card just taken"  # ours refuses it: compared up to here
        action = _choose(s, listed, ends, rng)
        before = s
        s, events = GIN.apply(s, action, rng)
        if action.type == "knock":
            return _knock(os, before, s, action, player_of)
        _mirror(os, before, s, action)
        if s.phase == "round_over":
            return "wall"


def _overcount(hand: list[str], ours: int, theirs: int) -> str:
    """OpenSpiel's deadwood differs from ours: ours must be the brute-force minimum."""
    assert ours == brute_force(tuple(hand)) and theirs > ours, (hand, ours, theirs)
    return "openspiel deadwood overcount"


def _choose(s: State, listed: list[Action], ends: list[Action], rng: random.Random) -> Action:
    """Knock half the time it is allowed; mostly keep the hand tidy (the discard that leaves the
    least deadwood), so that rounds reach gin and undercuts, not only the wall."""
    if ends and rng.random() < 0.5:
        return rng.choice(ends)
    discards = [a for a in listed if a.type == "discard"]
    if discards and rng.random() < 0.8:
        best = timeout_discard(s.hands[s.current], s.taken)
        return next(a for a in discards if a.card == best)
    return rng.choice(listed)


def _mirror(os: object, before: State, s: State, action: Action) -> None:
    if action.type in ("take_upcard",) or action.source == "discard":
        os.apply_action(DRAW_UPCARD)  # type: ignore[attr-defined]
    elif action.type == "pass":
        os.apply_action(PASS)  # type: ignore[attr-defined]
    elif action.type == "draw":
        os.apply_action(DRAW_STOCK)  # type: ignore[attr-defined]
        assert os.is_chance_node()  # type: ignore[attr-defined]
        os.apply_action(CARD[before.stock[0]])  # type: ignore[attr-defined]
    else:
        os.apply_action(CARD[action.card])  # type: ignore[attr-defined,index]


def _knock(os: object, before: State, s: State, action: Action, player_of: dict[int, int]) -> str:
    result = s.round_results[-1]
    knocker = before.current
    mine = {a.card for a in GIN.legal_actions(before, knocker) if a.type == "knock"}
    os.apply_action(KNOCK)  # type: ignore[attr-defined]
    legal = {NAME[a] for a in os.legal_actions()} - {before.taken}  # type: ignore[attr-defined]
    assert legal == mine
    os.apply_action(CARD[action.card])  # type: ignore[attr-defined,index]
    for meld in result["layouts"][str(knocker)]["melds"]:
        os.apply_action(MELD[frozenset(meld)])  # type: ignore[attr-defined]
    os.apply_action(PASS)  # type: ignore[attr-defined]
    theirs = result["layouts"][str(1 - knocker)]
    if result["how"] != "gin":
        for layoff in theirs["layoffs"]:
            os.apply_action(CARD[layoff["card"]])  # type: ignore[attr-defined]
        os.apply_action(PASS)  # type: ignore[attr-defined]
    for meld in theirs["melds"]:
        os.apply_action(MELD[frozenset(meld)])  # type: ignore[attr-defined]
    os.apply_action(PASS)  # type: ignore[attr-defined]
    assert os.is_terminal()  # type: ignore[attr-defined]
    returns = os.returns()  # type: ignore[attr-defined]
    if result["how"] == "undercut" and result["knocker_count"] == result["defender_count"]:
        return "tie"
    assert returns[player_of[result["winner"]]] == result["points"], (result, returns)
    return str(result["how"])


def test_both_engines_agree_over_random_rounds() -> None:
    endings: dict[str, int] = {}
    for seed in range(ROUNDS):
        how = lockstep_round(seed)
        endings[how] = endings.get(how, 0) + 1
    # The comparison reached every kind of ending it is meant to compare.
    assert all(endings.get(how, 0) > 0 for how in ("knock", "undercut", "gin", "wall")), endings
