"""The Uno Show 'Em No Mercy heuristic, from the seat's view alone.

- Stacking: facing a stack, stack when able with the smallest Draw card that may go on it, and
  save a Wild Draw 10 (nothing stacks on it) for when taking the total would cost too much.
- Knockouts: a Draw card whose value takes the next player to 25 cards comes first (250 points).
- Hold a 7 for a smaller hand (the player on UNO above all): a 7 swaps with the smallest hand
  once it is smaller than ours will be; a 0 only when the hand it brings is smaller than ours.
- Otherwise: Discard All holding more of its colour, a card that gives the turn back (Skip
  Everyone; Skip and Reverse with 2 players) with a card of its colour to follow, pressure on a
  next player holding 3 or fewer, then the colour held most (the card worth most first); the
  wilds last; a wild names the colour held most.
- A Roulette's victim names the colour it has seen least of (the reveal stops soonest).
- UNO said with the card that leaves one; every catch taken.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from games.engine.uno.actions import COLOURS, Action
from games.engine.uno.nomercy.cards import DRAW_VALUE, KNOCKOUT

from .colour_view import ByType, best_colour, choose_with

KIND = "uno_no_mercy"
PUSH_AT = 8
ROULETTE_AT = 8
NAMES_COLOUR = frozenset({"wrd4", "wd6", "wd10"})


def choose(view: dict[str, Any], rng: random.Random) -> Action | None:
    """The heuristic's action for the view's seat (None: nothing now)."""
    return choose_with(_turn, view, rng)


def _turn(view: dict[str, Any], by_type: ByType, rng: random.Random) -> Action:
    me, hand = view["you"], view["hand"]
    if "choose_colour" in by_type:
        pending = view["pending_choice"]
        if pending is not None and pending["reason"] == "roulette":
            return Action("choose_colour", me, colour=commonest_unseen(view, rng))
        return Action("choose_colour", me, colour=best_colour(hand, rng))
    if "take_stack" in by_type:
        return answer_stack(view, by_type, rng)
    if "play_drawn" in by_type:
        drawn = view["drawn_card"]
        rest = [c for c in hand if c["id"] != drawn["id"]]
        return play(view, drawn, rest, by_type["play_drawn"], "play_drawn", rng)
    plays = by_type.get("play", [])
    if not plays:
        return Action("draw", me)
    ids = {a["card"] for a in plays}
    card = pick_card(view, [c for c in hand if c["id"] in ids])
    rest = [c for c in hand if c["id"] != card["id"]]
    listed = [a for a in plays if a["card"] == card["id"]]
    return play(view, card, rest, listed, "play", rng)


def answer_stack(view: dict[str, Any], by_type: ByType, rng: random.Random) -> Action:
    me = view["you"]
    hand = view["hand"]
    ids = {a["card"] for a in by_type.get("play", [])}
    stackable = sorted(
        (c for c in hand if c["id"] in ids), key=lambda c: (DRAW_VALUE[c["rank"]], c["rank"])
    )
    total = view["stack"]["total"]
    if active_count(view) == 2:
        # With 2 players a Wild Reverse Draw 4 comes back to its own player: no answer.
        stackable = [c for c in stackable if c["rank"] != "wrd4"]
    tens = [c for c in stackable if c["rank"] == "wd10"]
    victim = view["seats"][next_seat(view)]["hand_size"]
    if tens and victim + total + 10 >= KNOCKOUT:
        cheap = tens  # nothing stacks on a Wild Draw 10: a sure knockout
    else:
        cheap = [c for c in stackable if c["rank"] != "wd10"]
    if not cheap and tens and (len(hand) + total >= KNOCKOUT or total >= 6):
        cheap = tens  # the saved +10, now worth spending
    if not cheap:
        return Action("take_stack", me)
    card = cheap[0]
    rest = [c for c in hand if c["id"] != card["id"]]
    listed = [a for a in by_type["play"] if a["card"] == card["id"]]
    return play(view, card, rest, listed, "play", rng)


def play(
    view: dict[str, Any],
    card: dict[str, Any],
    rest: list[dict[str, Any]],
    listed: list[dict[str, Any]],
    kind: str,
    rng: random.Random,
) -> Action:
    me = view["you"]
    uno = len(rest) == 1
    if card["rank"] == "7":
        targets = [a["target"] for a in listed]
        target = min(targets, key=lambda t: view["seats"][t]["hand_size"])
        return Action(kind, me, card["id"] if kind == "play" else None, target=target, uno=uno)
    colour = best_colour(rest, rng) if card["rank"] in NAMES_COLOUR else None
    return Action(kind, me, card["id"] if kind == "play" else None, colour=colour, uno=uno)


def pick_card(view: dict[str, Any], playable: list[dict[str, Any]]) -> dict[str, Any]:
    hand = view["hand"]
    seats = view["seats"]
    me = view["you"]
    mine = len(hand)
    counts = Counter(c["colour"] for c in hand if c["colour"])
    nxt = next_seat(view)
    smallest = min((s["hand_size"] for s in seats if s["active"] and s["seat"] != me), default=99)

    def by_rank(*ranks: str) -> list[dict[str, Any]]:
        return [c for c in playable if c["rank"] in ranks]

    # A knockout for 250: a Draw card that takes the next hand to 25.
    knock = [
        c
        for c in playable
        if c["rank"] in DRAW_VALUE
        and c["rank"] != "wrd4"
        and seats[nxt]["hand_size"] + DRAW_VALUE[c["rank"]] >= KNOCKOUT
    ]
    if knock:
        return min(knock, key=lambda c: DRAW_VALUE[c["rank"]])
    sevens = by_rank("7")
    if sevens and smallest < mine - 1:
        return sevens[0]  # the 7 held for a smaller hand (the player on UNO above all)
    if by_rank("0") and previous_size(view) < mine - 1:
        return by_rank("0")[0]
    discard = [c for c in by_rank("discard_all") if counts[c["colour"]] >= 2]
    if discard:
        return max(discard, key=lambda c: counts[c["colour"]])
    # A card that gives the turn back (Skip Everyone; Skip and Reverse with 2 players), when a
    # card of its colour is left to play after it.
    again = ("skip_all", "skip", "reverse") if active_count(view) == 2 else ("skip_all",)
    follow = [c for c in by_rank(*again) if counts[c["colour"]] >= 2]
    if follow:
        return follow[0]
    if seats[nxt]["hand_size"] <= 3:
        pressing = [c for c in by_rank("draw2", "draw4", "skip", "skip_all", "reverse")]
        if pressing:
            return pressing[0]
    two = active_count(view) == 2
    if two:
        # With 2 players a Wild Reverse Draw 4 hits its own player: the last card to play.
        playable = [c for c in playable if c["rank"] != "wrd4"] or playable
    # A big next hand is pushed towards 25 with the Draw cards; otherwise they are kept to answer
    # stacks with (whoever holds more of them wins a bounce).
    if seats[nxt]["hand_size"] >= ROULETTE_AT and by_rank("roulette"):
        return by_rank("roulette")[0]
    if seats[nxt]["hand_size"] >= PUSH_AT:
        draws = by_rank("draw2", "draw4", "wd6")
        if draws:
            return max(draws, key=lambda c: DRAW_VALUE.get(c["rank"], 5))
    keep = {"7", "wd10", "0", "draw2", "draw4"}
    coloured = [c for c in playable if c["colour"] and c["rank"] not in keep]
    if not coloured:
        coloured = [c for c in playable if c["colour"] and c["rank"] not in ("7", "0")]
    if coloured:
        return max(coloured, key=lambda c: (counts[c["colour"]], points(c)))
    wilds = [c for c in playable if not c["colour"] and c["rank"] != "wd10"]
    if wilds:
        return min(wilds, key=lambda c: DRAW_VALUE.get(c["rank"], 0))
    others = [c for c in playable if c["rank"] != "wd10"]
    return (others or playable)[0]


def points(card: dict[str, Any]) -> int:
    rank = card["rank"]
    if rank.isdigit():
        return int(rank)
    return 20 if card["colour"] else 50


def commonest_unseen(view: dict[str, Any], rng: random.Random) -> str:
    """A Roulette's victim names the colour most cards of which it cannot see: the reveal is
    likely to stop soonest."""
    seen = Counter(c["colour"] for c in view["hand"] + view["discard_pile"] if c["colour"])
    fewest = min(seen.get(colour, 0) for colour in COLOURS)
    return str(rng.choice([c for c in COLOURS if seen.get(c, 0) == fewest]))


def next_seat(view: dict[str, Any], step: int | None = None) -> int:
    seats = view["seats"]
    step = step or (1 if view["direction"] == "clockwise" else -1)
    i = int(view["you"])
    for _ in range(len(seats)):
        i = (i + step) % len(seats)
        if seats[i]["active"]:
            return i
    return int(view["you"])  # pragma: no cover - a round always has another player


def active_count(view: dict[str, Any]) -> int:
    return sum(1 for s in view["seats"] if s["active"])


def previous_size(view: dict[str, Any]) -> int:
    """The hand a 0 brings: the previous player's, in the direction of play."""
    step = -1 if view["direction"] == "clockwise" else 1
    return int(view["seats"][next_seat(view, step)]["hand_size"])
