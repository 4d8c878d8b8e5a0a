"""Uno Show 'Em No Mercy's properties over random legal playouts (the machinery of
``playout.py``), checked after every step. Example counts keep each test within a few seconds
under the ``ci`` profile.

A hypothesis-drawn seed names a whole match: 2 to 6 players, a single round (target 0) or several
(target 300), with timeouts and players leaving now and then. Random players usually stack or
play when they can (``prefer_plays``), which makes stacks, and so knockouts, common.
"""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import replay
from games.engine.registry import get_game
from games.engine.uno.actions import COLOURS, Action
from games.engine.uno.nomercy.cards import PRESETS
from games.engine.uno.state import State
from games.engine.uno.view import visible_events

from .playout import (
    Config,
    Event,
    all_cards,
    check_json_round_trip,
    check_listing_is_exact,
    hidden_from,
    hidden_samples,
    quoted_strings,
)

NO_MERCY = get_game("uno_no_mercy")
DECK = Counter(PRESETS["standard"].card_ids)
IN_PLAY = ("play", "drawn", "choose", "stack")


def no_mercy(seed: int, players: int, target_score: int, timeout: float, leave: float) -> Config:
    """A No Mercy match: its one preset, no house rule, players who usually play when they can,
    a round that fails the test after 2,000 actions."""
    return Config(
        seed,
        players,
        "standard",
        {},
        target_score,
        timeout,
        leave,
        game="uno_no_mercy",
        prefer_plays=True,
        max_round_actions=2000,
    )


def configs() -> st.SearchStrategy[Config]:
    return st.builds(
        no_mercy,
        seed=st.integers(min_value=0, max_value=2**32 - 1),
        players=st.integers(min_value=2, max_value=6),
        target_score=st.sampled_from([0, 300]),
        timeout=st.sampled_from([0.0, 0.05]),
        leave=st.sampled_from([0.0, 0.02]),
    )


def check_step(before: State, action: Action, after: State, events: list[Event]) -> None:
    """Cards conserved by id (set-aside hands included); no hand over 24 while the round is
    played; every knockout with a causer pays that causer exactly once, and nothing else pays;
    the knocked-out seats are out with empty hands; a stack is owed exactly in phase stack."""
    found = Counter(all_cards(after))
    assert found == DECK, f"after {action}: {sorted((DECK - found).elements())} missing"
    if after.phase in IN_PLAY:
        assert all(len(seat.hand) <= 24 for seat in after.seats), f"after {action}"
        assert after.seats[after.current].active
        assert (after.phase == "stack") == (after.stack > 0)
        assert (after.phase == "drawn") == (after.drawn_card is not None)
    for seat in after.knocked_out:
        assert not after.seats[seat].active and after.seats[seat].hand == []
    knockouts = [e for e in events if e["type"] == "knocked_out"]
    bonuses = [e for e in events if e["type"] == "bonus"]
    paid = [
        (e["by"], e["seat"])
        for e in knockouts
        if e["by"] is not None
        and e["by"] != e["seat"]
        and NO_MERCY.active_seats(before).count(e["by"])
    ]
    assert [(e["seat"], e["victim"]) for e in bonuses] == paid
    gained = [a.score - b.score for a, b in zip(after.seats, before.seats, strict=True)]
    if not any(e["type"] == "round_over" for e in events):
        assert sum(gained) == 250 * len(bonuses)


@settings(max_examples=40)
@given(config=configs())
def test_cards_hands_and_bonuses_hold_at_every_step(config: Config) -> None:
    playout = config.play(check_step)
    assert playout.final is not None and playout.final.phase == "match_over"


@settings(max_examples=30)
@given(config=configs())
def test_every_round_ends(config: Config) -> None:
    """``run_playout`` fails a round still running after 2,000 actions."""
    playout = config.play()
    assert (
        playout.rounds_finished >= 1
        or any(a.type == "leave" for a, _ in playout.steps)
        or (playout.final is not None and playout.final.winner is not None)
    )


def test_knockouts_and_bonuses_happen_in_these_seeded_playouts() -> None:
    """The checks above meet knockouts (not left to chance)."""
    events: Counter[str] = Counter()
    for seed in range(8):
        playout = no_mercy(seed, 2 + seed % 5, 0, 0.0, 0.0).play(check_step)
        events.update(e["type"] for _, evs in playout.steps for e in evs)
    assert events["knocked_out"] > 0 and events["bonus"] > 0 and events["swap"] > 0


@settings(max_examples=15)
@given(config=configs())
def test_the_state_round_trips_through_json_and_replays_from_the_log(config: Config) -> None:
    playout = config.play(check_json_round_trip, keep_states=True)
    assert (
        replay(playout.setup, playout.steps, playout.setup_events, "uno_no_mercy") == playout.final
    )


def concrete_actions(state: State, seat: int) -> list[Action]:
    """The concrete action space of one seat, legal or not (system actions aside)."""
    n = len(state.seats)
    colours: list[str | None] = [None, *COLOURS]
    out: list[Action] = []
    for card in [*state.seats[seat].hand, state.discard_pile[0]]:
        out += [Action("play", seat, card, colour=c) for c in colours]
        out += [Action("play", seat, card, target=t) for t in (-1, *range(n))]
    out += [Action("play_drawn", seat, colour=c) for c in colours]
    out += [Action("play_drawn", seat, target=t) for t in range(n)]
    out += [Action("choose_colour", seat, colour=c) for c in colours]
    for kind in ("draw", "uno", "take_stack", "pass", "accept"):
        out += [Action(kind, seat), Action(kind, seat, colour="red")]
    out += [Action("catch", seat, target=t) for t in (None, -1, *range(n), n)]
    return out


def check_legal_actions_are_exact(state: State) -> None:
    """As every Uno game's (No Mercy lists no template: each action is concrete)."""
    for seat in range(len(state.seats)):
        assert all(a.choose is None for a in NO_MERCY.legal_actions(state, seat))
    check_listing_is_exact(NO_MERCY, state, concrete_actions, random.Random(0))


@settings(max_examples=15)
@given(config=configs())
def test_an_action_is_accepted_if_and_only_if_it_is_listed(config: Config) -> None:
    rng = random.Random(config.seed ^ 0x5EED)

    def check(before: State, action: Action, after: State, events: list[Event]) -> None:
        if rng.random() < 0.03 or (after.phase in ("choose", "drawn") and rng.random() < 0.3):
            check_legal_actions_are_exact(after)

    playout = config.play(check)
    check_legal_actions_are_exact(playout.initial)


def check_no_leak(before: State, action: Action, after: State, events: list[Event]) -> None:
    """No view or visible event names a card of another hand, the draw pile or a set-aside
    hand, except what the rules show (plays, shed cards, round-end hands, one's own hand and
    draws)."""
    for seat in range(len(after.seats)):
        seen = visible_events(events, seat)
        allowed = set(before.discard_pile) | set(after.discard_pile)
        allowed |= set(before.seats[seat].hand) | set(after.seats[seat].hand)
        for event in events:
            if event["type"] == "draw" and event.get("to") == seat:  # one's own, then set aside
                allowed.update(event["secret"]["cards"])
            if event["type"] == "draw" and event["reason"] == "roulette":  # turned face up
                allowed.update(event["cards"])
            if event["type"] == "round_over":
                allowed.update(c for hand in event["hands"].values() for c in hand)
        hidden = (hidden_from(before, seat) | hidden_from(after, seat)) - allowed
        assert not quoted_strings(seen) & hidden, f"seat {seat} is told hidden cards"
        view = NO_MERCY.view(after, seat)
        view.pop("round_results")
        assert not quoted_strings(view) & hidden_from(after, seat), f"seat {seat}'s view"


@settings(max_examples=10)
@given(config=configs())
def test_views_and_events_leak_no_foreign_card(config: Config) -> None:
    config.play(check_no_leak)


@settings(max_examples=10)
@given(config=configs())
def test_sample_hidden_keeps_what_the_seat_sees(config: Config) -> None:
    playout = config.play(keep_states=True)
    for sample in hidden_samples(config, playout, samples=20):
        assert Counter(all_cards(sample)) == DECK
