"""What a spectator sees (``Game.spectator_view`` and events as a reader without a seat, -1),
over random playouts of every game kind, every preset, random house rules and seat counts:

- every key of the spectator's view is in every seat's view, with the same value: a spectator
  sees nothing that any one seat does not, and it is what the whole table sees;
- no card of any hand and none of the draw pile appears in it (the round results aside: hands
  shown at a round's end), unless every seat sees that card too (a card taken from the face-up
  discard pile);
- each event, as the spectator gets it, names only cards that every seat is told of (a drawn
  card's id reaches its drawer alone), and no chance outcome (a shuffle's order).
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bench.fingerprint import step
from games.engine.interface import Game
from games.engine.registry import get_game, kinds

from .playout import quoted_strings

SPECTATOR = -1  # the reader without a seat (games.selectors.events_for)
STEPS = 200


def cards_in_play(game: Game[Any, Any], state: Any) -> set[str]:
    hands = {card for hand in game.hands(state) for card in hand}
    return hands | {card for pile in game.piles(state).values() for card in pile}


def hidden_cards(game: Game[Any, Any], state: Any) -> set[str]:
    """Every hand's cards and the draw pile's: what no spectator may be shown."""
    hands = {card for hand in game.hands(state) for card in hand}
    return hands | set(game.piles(state).get("draw", ()))


def seen_by_every_seat(game: Game[Any, Any], state: Any, players: int) -> set[str]:
    seen = [quoted_strings(game.view(state, seat)) for seat in range(players)]
    return set.intersection(*seen)


def check_view(game: Game[Any, Any], state: Any, players: int) -> None:
    public = game.spectator_view(state)
    for seat in range(players):
        own = game.view(state, seat)
        differing = [key for key, value in public.items() if own.get(key, object()) != value]
        assert not differing, f"the spectator's {differing} differ from seat {seat}'s view"
    assert "legal_actions" not in public and "hand" not in public
    without_results = {k: v for k, v in public.items() if k != "round_results"}
    shown = quoted_strings(without_results) & hidden_cards(game, state)
    leaked = shown - seen_by_every_seat(game, state, players)
    assert not leaked, f"the spectator is shown hidden cards {sorted(leaked)}"
    draw = set(game.piles(state).get("draw", ()))
    assert not shown & draw, f"the spectator sees draw pile cards {sorted(shown & draw)}"


def check_events(
    game: Game[Any, Any], events: list[dict[str, Any]], state: Any, players: int
) -> None:
    deck = cards_in_play(game, state)
    for event in events:
        public = game.visible_event(event, SPECTATOR)
        if public is None:
            continue
        assert public["type"] != "chance", "a chance outcome reached a spectator"
        told = [game.visible_event(event, seat) for seat in range(players)]
        every_seat = set.intersection(*(quoted_strings(e) if e else set() for e in told))
        leaked = (quoted_strings(public) & deck) - every_seat
        assert not leaked, f"a spectator is told {sorted(leaked)} by {public}"


@st.composite
def matches(draw: Any) -> tuple[str, int, str, dict[str, bool], int]:
    kind = draw(st.sampled_from(sorted(kinds())))
    game = get_game(kind)
    preset = draw(st.sampled_from(list(game.presets)))
    names = sorted(game.options_schema().get("properties", {}))
    options = {name: draw(st.booleans()) for name in names}
    players = draw(st.integers(game.min_players, min(game.max_players, 5)))
    seed = draw(st.integers(0, 2**32 - 1))
    return kind, players, preset, options, seed


@settings(max_examples=40, deadline=None)
@given(match=matches())
def test_a_spectator_never_sees_a_card_of_a_hand_or_the_pile_order(
    match: tuple[str, int, str, dict[str, bool], int],
) -> None:
    kind, players, preset, options, seed = match
    game = get_game(kind)
    rng = random.Random(seed)
    state, events = game.new_game(
        players=players, rng=rng, preset=preset, options=options, target_score=100
    )
    check_view(game, state, players)
    check_events(game, events, state, players)
    round_actions = 0
    for _ in range(STEPS):
        if game.is_match_over(state):
            break
        was_over = game.is_round_over(state)
        before = state
        state, events = game.apply(state, step(game, state, rng, round_actions), rng)
        round_actions = 0 if was_over else round_actions + 1
        check_view(game, state, players)
        # A card drawn is in the hand after the move; one played was in it before.
        check_events(game, events, before, players)
        check_events(game, events, state, players)
