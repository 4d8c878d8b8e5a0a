"""A fingerprint of the rules engine's behaviour: one hash over seeded random playouts.

Run from the repository root::

    python bench/fingerprint.py            # prints the hash (and one per game)
    python bench/fingerprint.py --matches 2  # fewer matches per configuration (quicker, weaker)

For refactoring the engine: a change that must not change behaviour (moving rule code, sharing
it between games) leaves the hash as it was; record it on ``main`` before, compare after.
``tests/engine/test_fingerprint.py`` holds the hash of the current rules and checks it, so a
deliberate rule change updates that test's hash in the same commit (and says why).

What is hashed: each game's declarations (names, player counts, presets, the options' schema,
what ``validate_options`` makes of good and malformed options and ``action_from_dict`` of good and
malformed actions, card names); at every step of every playout: the action applied (or the error
an illegal one raised: its code and message), the events, the state's JSON form, every seat's
view (its legal actions included), the moderator's view, every event as each seat and a
moderator see it, whose turn it is and who may act, and now and then ``sample_hidden`` for a
seat. The playouts:
every registered game, every preset, with no house rule, each house rule alone and all of them,
at the fewest and the most players (four at most), a few seeds each; random legal actions of any
seat that may act (a template played as a random instance), with timeouts, leaves and illegal
attempts mixed in. A round is cut by a leave after ``ROUND_CAP`` actions (random players can
pass the loose cards round for ever under some house rules).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine.errors import EngineError
from games.engine.interface import Game
from games.engine.registry import get_game, kinds

ROUND_CAP = 300
MATCH_CAP = 1500
MATCHES = 3
TARGET = 150


def instance(game: Game[Any, Any], action: Any, rng: random.Random) -> Any:
    """A concrete action of a listed one: a template (Uno's ``choose``) played at random."""
    pick = getattr(action, "choose", None)
    if pick is None:
        return action
    cards = tuple(rng.sample(pick.cards, pick.size))
    targets = tuple(rng.choice(pick.target_from) for _ in range(pick.targets)) or None
    return type(action)(action.type, action.seat, cards=cards, targets=targets)


def option_sets(game: Game[Any, Any]) -> list[dict[str, bool]]:
    names = sorted(game.options_schema().get("properties", {}))
    sets: list[dict[str, bool]] = [{}]
    sets += [{name: True} for name in names]
    if len(names) > 1:
        sets.append(dict.fromkeys(names, True))
    return sets


def configurations(game: Game[Any, Any]) -> Iterator[tuple[str, dict[str, bool], int]]:
    for preset in game.presets:
        for options in option_sets(game):
            for players in sorted({game.min_players, min(game.max_players, 4)}):
                yield preset, options, players


def dump(data: Any) -> bytes:
    return json.dumps(data, default=repr).encode()  # key order counts: the API keeps it


def observe(game: Game[Any, Any], h: Any, state: Any, events: list[Any], players: int) -> None:
    h.update(dump(game.state_to_dict(state)))
    h.update(dump(events))
    h.update(dump([game.to_move(state), sorted(game.actors(state)), game.scores(state)]))
    h.update(dump([game.is_round_over(state), game.is_match_over(state), game.match_winner(state)]))
    h.update(dump([game.active_seats(state), game.hands(state), game.piles(state)]))
    h.update(dump(game.moderator_view(state)))
    for seat in range(players):
        h.update(dump(game.view(state, seat)))
        h.update(dump([game.visible_event(e, seat) for e in events]))
    h.update(dump([game.visible_event(e, None) for e in events]))


def step(game: Game[Any, Any], state: Any, rng: random.Random, round_actions: int) -> Any:
    """The next action: a system action now and then, else a random listed one."""
    active = game.active_seats(state)
    if game.is_round_over(state):
        return game.next_round_action()
    if round_actions >= ROUND_CAP or (len(active) > 2 and rng.random() < 0.01):
        return game.leave_action(rng.choice(active))
    mover = game.to_move(state)
    if mover is not None and rng.random() < 0.03:
        return game.timeout_action(state, mover)
    listed = [a for seat in sorted(game.actors(state)) for a in game.legal_actions(state, seat)]
    return instance(game, rng.choice(listed), rng)


def illegal(game: Game[Any, Any], state: Any, rng: random.Random, players: int) -> Any | None:
    """Some seat's listed action sent by another seat (usually refused: the error is hashed)."""
    seat = rng.randrange(players)
    listed = game.legal_actions(state, seat)
    if not listed:
        return None
    action = instance(game, rng.choice(listed), rng)
    return action._replace(seat=(seat + 1) % players)


def play_match(
    game: Game[Any, Any], h: Any, seed: int, preset: str, options: dict[str, bool], players: int
) -> None:
    rng = random.Random(seed)
    state, events = game.new_game(
        players=players, rng=rng, preset=preset, options=options, target_score=TARGET
    )
    observe(game, h, state, events, players)
    round_actions = 0
    for n in range(MATCH_CAP):
        if game.is_match_over(state):
            break
        if n % 7 == 3:
            wrong = illegal(game, state, rng, players)
            if wrong is not None:
                try:
                    _, events = game.apply(state, wrong, rng)
                    h.update(b"accepted" + dump(game.action_to_dict(wrong)) + dump(events))
                except EngineError as error:
                    h.update(dump([game.action_to_dict(wrong), error.code, str(error)]))
                # An accepted "illegal" action is a free action (UNO, a catch): the state goes
                # on from the legal path all the same, so the rng's draws are hashed, not kept.
        if n % 11 == 5:
            seat = rng.randrange(players)
            h.update(dump(game.state_to_dict(game.sample_hidden(state, seat, random.Random(n)))))
        action = step(game, state, rng, round_actions)
        data = game.action_to_dict(action)
        h.update(dump(data))
        assert game.action_from_dict(json.loads(json.dumps(data))) == action, data
        was_over = game.is_round_over(state)
        state, events = game.apply(state, action, rng)
        round_actions = 0 if was_over else round_actions + 1
        observe(game, h, state, events, players)


# Options a game is asked to validate: good ones, unknown and malformed ones (not always a dict:
# ``validate_options`` takes anything).
OPTIONS_TRIED: list[Any] = [
    {},
    {"x": True},
    {"mercy": 1},
    {"stacking": None},
    {"blind_play": True},
    {"force_swap_protection": True},
    {"force_swap_protection": False},
    "str",
]


# Actions' JSON forms, malformed ones too: what ``action_from_dict`` accepts or refuses, and why.
ACTIONS_TRIED: list[Any] = [
    None,
    "play",
    {},
    {"type": "nope"},
    {"type": ["play"]},
    {"type": "play", "bogus": 1},
    {"type": "play", "seat": "0"},
    {"type": "timeout", "seat": True},
    {"type": "draw", "seat": 0},
    {"type": "draw", "seat": 1, "source": "stock"},
    {"type": "discard", "seat": 0, "card": "As"},
    {"type": "knock", "seat": 0},
    {"type": "play", "seat": 0, "card": "red-7-a", "colour": "red"},
    {"type": "play", "seat": 0, "card": "wild-1", "target": 1, "uno": True},
    {"type": "choose_colour", "seat": 0, "colour": "pink"},
    {"type": "play_pair", "seat": 0, "cards": ["a", "b"], "targets": [1, 0]},
]


def declarations(game: Game[Any, Any], h: Any) -> None:
    """What a game declares: names, counts, presets, options and their checks, card names."""
    h.update(dump([game.kind, game.name, game.min_players, game.max_players, list(game.presets)]))
    h.update(dump([game.default_preset, game.default_target, list(game.action_types)]))
    h.update(dump([sorted(game.turn_ending_actions), game.options_schema()]))
    for options in OPTIONS_TRIED + [dict.fromkeys(o, True) for o in option_sets(game)]:
        try:
            h.update(dump(game.validate_options(options)))
        except EngineError as error:
            h.update(dump([error.code, str(error)]))
        except (TypeError, AttributeError) as error:  # a malformed value some games crash on
            h.update(dump(repr(error)))
    for data in ACTIONS_TRIED:
        try:
            h.update(dump(game.action_to_dict(game.action_from_dict(data))))
        except EngineError as error:
            h.update(dump([error.code, str(error)]))
    first, _ = game.new_game(players=game.max_players, rng=random.Random(0), target_score=0)
    h.update(dump([game.card_name(card) for card in game.hands(first)[0]]))
    deck = getattr(game, "deck", None)
    if deck is not None:
        for preset in game.presets:
            h.update(dump([(card, game.card_name(card)) for card in deck(preset)]))


def fingerprint(matches: int = MATCHES, only: str | None = None) -> dict[str, str]:
    out: dict[str, str] = {}
    total = hashlib.sha256()
    for kind in kinds():
        if only is not None and kind != only:
            continue
        game = get_game(kind)
        h = hashlib.sha256()
        declarations(game, h)
        for preset, options, players in configurations(game):
            for seed in range(matches):
                play_match(game, h, seed, preset, options, players)
        out[kind] = h.hexdigest()
        total.update(out[kind].encode())
    out["all"] = total.hexdigest()
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=MATCHES, help="matches per configuration")
    parser.add_argument("--game", default=None, help="one game kind only")
    args = parser.parse_args(argv)
    for kind, digest in fingerprint(args.matches, args.game).items():
        print(f"{kind:14} {digest}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
