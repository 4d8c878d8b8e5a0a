"""``decide``: the one entry point every bot move goes through (Celery task, timer sweep, arena).

A bot decides from what its seat may know, and from nothing else: the seat's view (its own hand,
the other seats' hand sizes, the face-up discard pile, its legal actions) and the events of the
game as that seat may see them. ``decide`` receives no engine State, so a bot *cannot* look at
another hand or at the draw pile's order: the only way to "know" them is to sample them, which is
what the expert does (games/bots/expert.py).

Levels offered to players: ``random``, ``heuristic``, ``expert``. The arena also knows
``nodraw`` (random, but never draws voluntarily) and ablations of the heuristic written
``heuristic-<rule>`` (the heuristic without that rule, see games/bots/heuristic.py).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from games.engine.registry import DEFAULT_KIND, get_game
from games.engine.uno.actions import DRAW, Action, covers

from . import allwild, expert, gin, heuristic, house, nomercy, policies, splash
from .table import TURN_TYPES

# Levels a player may put in a seat (API, models).
LEVELS = ("random", "heuristic", "expert")
ARENA_LEVELS = (*LEVELS, "nodraw")
DEFAULT_LEVEL = "heuristic"
# The expert's thinking time per move. The target is "under 200 ms"; the rest of a bot move
# (building the view, applying the action) needs a few ms, and a loaded machine more.
DEFAULT_BUDGET_MS = 150


def is_level(level: str) -> bool:
    """A level ``decide`` knows (players' levels, arena-only ones, ablations)."""
    if level in ARENA_LEVELS:
        return True
    base, _, rule = level.partition("-")
    return base in ("heuristic", "expert") and rule in heuristic.Rules.names()


def decide(
    view: dict[str, Any],
    history: list[dict[str, Any]],
    *,
    level: str,
    rng: random.Random,
    budget_ms: int = DEFAULT_BUDGET_MS,
    playouts: int | None = None,
    state: Any = None,
) -> dict[str, Any] | None:
    """The action the bot at ``view["you"]`` takes now, as a dict like those of
    ``view["legal_actions"]`` (without ``seat``, maybe with ``uno``), or None to do nothing now.

    ``history`` is the seat's visible events (``engine.visible_events``) of the game so far: the
    expert deals its samples consistently with what the other seats revealed in it
    (``GameBots.sampler``); the other levels find everything they use in the view.
    ``playouts`` makes the expert's search a fixed amount of work instead of ``budget_ms`` of it
    (reproducible tests and arenas).

    ``state`` (optional) is the game's state, for a game whose bots cannot rebuild one from the
    view (``GameBots.state_from_view``): only the expert uses it, and only through the game's
    ``sample_hidden`` (every world it searches is a sample of the cards the seat cannot see).
    All Wild's callers pass none: the expert then deals the hidden cards from the view alone.
    """
    legal = view.get("legal_actions") or []
    if not legal:
        return None
    base, _, ablated = level.partition("-")
    if base == "random" or base == "nodraw":
        action = _random(view, legal, rng, never_draw=base == "nodraw")
    elif base in ("heuristic", "expert"):
        kind = view.get("game") or DEFAULT_KIND
        picked = None
        if base == "expert":
            picked, searched = _expert(
                view,
                history,
                kind,
                ablated,
                rng,
                budget_ms=budget_ms,
                playouts=playouts,
                state=state,
            )
            if searched:
                return _checked(picked, legal, rng, kind)
        # The game's heuristic (random for a game without one). For All Wild, the house-rule
        # layer over it: the expert's search models only some house rules
        # (allwild.SUPPORTED_OPTIONS) and no stack or hidden hand; in such a game, or position,
        # it plays as the heuristic does.
        heuristic_of = HEURISTICS.get(kind)
        if heuristic_of is None:
            return _random(view, legal, rng, never_draw=False, on_turn_only=True)
        picked = heuristic_of(view, ablated, rng)
        action = _checked(picked, legal, rng, kind)
    else:
        raise ValueError(f"unknown bot level {level!r}")
    return action


def _heuristic_all_wild(
    view: dict[str, Any], ablated: str | None, rng: random.Random
) -> Action | None:
    rules = heuristic.ALL_RULES.without(ablated) if ablated else heuristic.ALL_RULES
    return house.choose(view, rules, rng)


# kind -> the game's heuristic on a seat's view (ablated rule or None, rng) -> one of the game's
# actions, or None to do nothing now. A kind without one plays random moves at level heuristic.
HEURISTICS: dict[str, Callable[[dict[str, Any], str | None, random.Random], Any]] = {
    allwild.KIND: _heuristic_all_wild,
    splash.KIND: lambda view, ablated, rng: splash.choose(view, rng),
    nomercy.KIND: lambda view, ablated, rng: nomercy.choose(view, rng),
    gin.KIND: lambda view, ablated, rng: gin.choose(view, rng),
}


def _expert(
    view: dict[str, Any],
    history: list[dict[str, Any]],
    kind: str,
    ablated: str | None,
    rng: random.Random,
    *,
    budget_ms: int,
    playouts: int | None,
    state: Any,
) -> tuple[Any, bool]:
    """(the expert's action, whether it searched); not searched: play the heuristic."""
    if kind == allwild.KIND and not allwild.supported(view):
        return None, False
    bots = policies.for_kind(kind, ablated or None)
    if state is None:
        state = bots.state_from_view(view, rng)
        if state is None:
            return None, False
    game = get_game(kind)
    picked = expert.search(
        game,
        state,
        view["you"],
        rng,
        budget_ms=budget_ms,
        playouts=playouts,
        bots=bots,
        history=history,
    )
    return picked, True


def _random(
    view: dict[str, Any],
    legal: list[dict[str, Any]],
    rng: random.Random,
    *,
    never_draw: bool,
    on_turn_only: bool = False,
) -> dict[str, Any] | None:
    """Any legal action, uniformly. Off its turn (UNO, a catch) it acts half the time: a
    careless player, not a perfect one."""
    if view.get("current_seat") != view.get("you") and (on_turn_only or rng.random() < 0.5):
        return None
    options = legal
    if never_draw:
        options = [a for a in legal if a["type"] != DRAW] or legal
    return _instance(_strip(rng.choice(options)), rng)


def _instance(action: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A random concrete action of a listed template (double down, mercy); else ``action``."""
    choose = action.get("choose")
    if choose is None:
        return action
    out = {k: v for k, v in action.items() if k != "choose"}
    out["cards"] = rng.sample(choose["from"], choose["count"])
    if choose.get("targets"):
        out["targets"] = [rng.choice(choose["target_from"]) for _ in range(choose["targets"])]
    return out


def _strip(action: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in action.items() if k != "seat"}


def _checked(
    picked: Any, legal: list[dict[str, Any]], rng: random.Random, kind: str
) -> dict[str, Any] | None:
    """``picked`` if the view lists it (the UNO word aside); a listed turn action otherwise.

    The rules code should never pick an unlisted action; if it ever does, the bot still moves
    instead of stalling its game."""
    if picked is None:
        return None
    game = get_game(kind)
    data = _strip(game.action_to_dict(picked))
    bare = {k: v for k, v in data.items() if k != "uno"}
    if any(_strip(a) == bare for a in legal):
        return data
    if isinstance(picked, Action) and any(
        covers(template, picked) for template in house.listed({"legal_actions": legal})
    ):
        return data  # an instance of a listed template (a pair, mercy's five cards)
    turn = [
        a for a in legal if a["type"] in TURN_TYPES | house.HOUSE_TURN_TYPES
    ]  # pragma: no cover - a bug's safety net
    return _instance(_strip(rng.choice(turn or legal)), rng)  # pragma: no cover
