"""The Uno Splash heuristic: a classic UNO player's habits, from the seat's view alone.

- Colour management: play the colour it holds most of (it can follow that colour longest), a
  card that matches by number or symbol into its best colour before one that leaves it, and keep
  the wilds for when nothing else fits; a wild names its best colour.
- Pressure: when the next player holds two cards or fewer, a Draw Two, Skip, Reverse or a legal
  Wild Draw Four first. Never a bluffed Wild Draw Four (a challenge costs 4).
- The challenge: it works out how likely the Wild Draw Four's player holds a card of the colour
  it was played on (the cards it cannot see, the player's hand size) and challenges when the odds
  favour it: a success gains 4 cards and the turn, a failure costs 2 more cards.
- Stacking: a stack owed is passed on when it can be, a Draw Two (its best colour) before a
  legal Wild Draw Four (never a bluff: the next player may challenge it); a Wild Draw Four on top
  is challenged first when the odds favour it, as above; else it takes the total.
- UNO said with the card that leaves one; every catch taken; a playable drawn card played.
"""

from __future__ import annotations

import random
from collections import Counter
from math import comb
from typing import Any

from games.engine.uno.actions import Action

from .colour_view import ByType, best_colour, choose_with

KIND = "uno_splash"
DECK_PER_COLOUR = 25  # cards of one colour in the 108
PRESSURE_RANKS = ("draw2", "skip", "reverse")
# Challenge when the Wild Draw Four is illegal with at least this chance: a success is worth
# about 4 cards and a turn, a failure costs 2 cards (6 drawn instead of 4).
CHALLENGE_ODDS = 0.35


def choose(view: dict[str, Any], rng: random.Random) -> Action | None:
    """The heuristic's action for the view's seat (None: nothing now)."""
    return choose_with(_turn, view, rng)


def _turn(view: dict[str, Any], by_type: ByType, rng: random.Random) -> Action:
    me, hand = view["you"], view["hand"]
    if "choose_colour" in by_type:
        return Action("choose_colour", me, colour=best_colour(hand, rng))
    if "accept" in by_type:
        return Action("challenge" if should_challenge(view) else "accept", me)
    if "take_stack" in by_type:
        return answer_stack(view, by_type, rng)
    if "play_drawn" in by_type:
        drawn = view["drawn_card"]
        rest = [c for c in hand if c["id"] != drawn["id"]]
        colour = best_colour(rest, rng) if drawn["colour"] is None else None
        return Action("play_drawn", me, colour=colour, uno=len(hand) == 2)
    if "pass" in by_type:
        return Action("pass", me)
    plays = {a["card"] for a in by_type.get("play", [])}
    if not plays:
        return Action("draw", me)
    card = pick_card(view, [c for c in hand if c["id"] in plays])
    if card is None:
        return Action("draw", me)
    rest = [c for c in hand if c["id"] != card["id"]]
    colour = best_colour(rest, rng) if card["colour"] is None else None
    return Action("play", me, card["id"], colour=colour, uno=len(hand) == 2)


def answer_stack(view: dict[str, Any], by_type: ByType, rng: random.Random) -> Action:
    """A stack is owed: challenge the Wild Draw Four on top if worth it, else pass the stack on
    (a Draw Two first, then a Wild Draw Four that is no bluff), else take the total."""
    me = view["you"]
    if "challenge" in by_type and should_challenge(view):
        return Action("challenge", me)
    hand = view["hand"]
    plays = {a["card"] for a in by_type.get("play", [])}
    holds_colour = any(c["colour"] == view["colour"] for c in hand)
    counts = Counter(c["colour"] for c in hand if c["colour"])
    stackable = [c for c in hand if c["id"] in plays]
    draw_twos = [c for c in stackable if c["rank"] == "draw2"]
    if draw_twos:
        card = max(draw_twos, key=lambda c: counts[c["colour"]])
        return Action("play", me, card["id"], uno=len(hand) == 2)
    fours = [c for c in stackable if c["rank"] == "wd4"]
    if fours and not holds_colour:
        rest = [c for c in hand if c["id"] != fours[0]["id"]]
        colour = best_colour(rest, rng)
        return Action("play", me, fours[0]["id"], colour=colour, uno=len(hand) == 2)
    return Action("take_stack", me)


def pick_card(view: dict[str, Any], playable: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The card to play among ``playable``, or None to draw instead (only a bluff was left)."""
    hand = view["hand"]
    in_force = view["colour"]
    holds_colour = any(c["colour"] == in_force for c in hand)
    # A Wild Draw Four while holding the colour in force would be a bluff: never.
    playable = [c for c in playable if not (c["rank"] == "wd4" and holds_colour)]
    if not playable:
        return None
    counts = Counter(c["colour"] for c in hand if c["colour"])
    if next_hand_size(view) <= 2:
        for rank in (*PRESSURE_RANKS, "wd4"):
            pressing = [c for c in playable if c["rank"] == rank]
            if pressing:
                return max(pressing, key=lambda c: counts[c["colour"]])
    coloured = [c for c in playable if c["colour"]]
    if coloured:
        # The colour held most (it stays playable longest), then the card worth most.
        return max(coloured, key=lambda c: (counts[c["colour"]], points(c)))
    wilds = sorted(playable, key=lambda c: c["rank"] != "wild")  # a plain Wild before a WD4
    return wilds[0]


def points(card: dict[str, Any]) -> int:
    rank = card["rank"]
    return int(rank) if rank.isdigit() else 20


def next_hand_size(view: dict[str, Any]) -> int:
    seats = view["seats"]
    step = 1 if view["direction"] == "clockwise" else -1
    i = view["you"]
    for _ in range(len(seats)):
        i = (i + step) % len(seats)
        if seats[i]["active"]:
            return int(seats[i]["hand_size"])
    return 99  # pragma: no cover - a round always has another player


def should_challenge(view: dict[str, Any]) -> bool:
    """Whether the Wild Draw Four is illegal with odds worth a challenge."""
    pile = view["discard_pile"]
    if len(pile) < 2 or pile[1]["colour"] is None:
        return False  # played on a wild: its colour is not on the table to count
    colour = pile[1]["colour"]
    owner = view["pending_choice"]["owner"]
    size = view["seats"][owner]["hand_size"]
    seen = [c for c in view["hand"] + pile if c["colour"] == colour]
    unseen = 108 - len(view["hand"]) - len(pile)
    of_colour = max(0, DECK_PER_COLOUR - len(seen))
    if size > unseen:
        return False  # pragma: no cover - a view never shows more hand than cards unseen
    legal = comb(unseen - of_colour, size) / comb(unseen, size)
    return 1 - legal >= CHALLENGE_ODDS
