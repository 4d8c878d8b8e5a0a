"""Uno Splash's properties over random legal playouts, checked after every step (the machinery
of ``playout.py``, which plays any Uno-family game). Example counts are set per test so that each
stays within a few seconds under the ``ci`` profile.

A hypothesis-drawn seed names a whole match: 2 to 10 players, no house rule, one (stacking among
them) or all, a single round (target 0) or several (target 100), with timeouts and players leaving
now and then.
Random players here usually play when they can (``prefer_plays``): classic UNO lets a player draw
at any turn, and uniformly random players who draw half the time soon hold the deck.
"""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import replay
from games.engine.uno.actions import COLOURS, Action
from games.engine.uno.splash.cards import COLOUR_OF, PRESETS
from games.engine.uno.splash.game import SPLASH
from games.engine.uno.state import State
from games.engine.uno.view import visible_events

from .playout import (
    Config,
    Event,
    all_cards,
    check_cards_conserved,
    check_json_round_trip,
    check_listing_is_exact,
    hidden_from,
    hidden_samples,
    quoted_strings,
    round_end_hands,
    round_just_ended,
    run_playout,
)

DECK = Counter(PRESETS["classic"].card_ids)
ALL_OFFERED = {"stacking": True, "speed_mode": True, "double_down": True, "mercy": True}


def configs() -> st.SearchStrategy[Config]:
    return st.builds(
        Config,
        seed=st.integers(min_value=0, max_value=2**32 - 1),
        players=st.integers(min_value=2, max_value=10),
        preset=st.just("classic"),
        options=st.sampled_from(
            [
                {},
                {"mercy": True},
                {"speed_mode": True},
                {"double_down": True},
                {"stacking": True},
                ALL_OFFERED,
            ]
        ),
        target_score=st.sampled_from([0, 100]),
        timeout_rate=st.sampled_from([0.0, 0.05]),
        leave_rate=st.sampled_from([0.0, 0.02]),
        game=st.just("uno_splash"),
        prefer_plays=st.just(True),
    )


# ---------------------------------------------------------------------------------------------
# Cards, JSON, replay


@settings(max_examples=50)
@given(config=configs())
def test_cards_are_conserved_by_id_in_every_playout(config: Config) -> None:
    playout = config.play(check_cards_conserved)
    assert Counter(all_cards(playout.initial)) == DECK and len(DECK) == 108


@settings(max_examples=20)
@given(config=configs())
def test_the_state_round_trips_through_json_at_every_step(config: Config) -> None:
    config.play(check_json_round_trip)


@settings(max_examples=20)
@given(config=configs())
def test_replaying_the_log_rebuilds_every_state(config: Config) -> None:
    playout = config.play(keep_states=True)
    assert replay(playout.setup, playout.steps, playout.setup_events, "uno_splash") == playout.final
    k = random.Random(config.seed).randrange(len(playout.steps) + 1)
    expected = playout.states[k - 1] if k else playout.initial
    assert replay(playout.setup, playout.steps[:k], playout.setup_events, "uno_splash") == expected


# ---------------------------------------------------------------------------------------------
# Legal actions are exact


def concrete_actions(state: State, seat: int) -> list[Action]:
    """The concrete action space of one seat, legal or not (system actions aside)."""
    n = len(state.seats)
    colours: list[str | None] = [None, *COLOURS]
    out: list[Action] = []
    for card in [*state.seats[seat].hand, state.discard_pile[0]]:
        out += [Action("play", seat, card, colour=c) for c in colours]
        out.append(Action("play", seat, card, target=(seat + 1) % n))
    out.append(Action("play", seat))
    out += [Action("play_drawn", seat, colour=c) for c in colours]
    out += [Action("choose_colour", seat, colour=c) for c in colours]
    for kind in ("draw", "pass", "uno", "accept", "challenge", "mercy", "take_stack"):
        out += [Action(kind, seat), Action(kind, seat, colour="red")]
    out += [Action("catch", seat, target=t) for t in (None, -1, *range(n), n)]
    hand = state.seats[seat].hand
    # Double down: both copies of a type in either order, two cards of different types, a card
    # twice, a card not in the hand, and a pair with a colour or a target.
    by_type: dict[str, list[str]] = {}
    for card in hand:
        by_type.setdefault(card.rpartition("-")[0], []).append(card)
    for cards in by_type.values():
        if len(cards) >= 2:
            out.append(Action("play_pair", seat, cards=(cards[0], cards[1])))
            out.append(Action("play_pair", seat, cards=(cards[1], cards[0])))
            out.append(Action("play_pair", seat, cards=(cards[0], cards[1]), colour="red"))
    if len(hand) >= 2:
        out.append(Action("play_pair", seat, cards=(hand[0], hand[1])))
        out.append(Action("play_pair", seat, cards=(hand[0], hand[1]), targets=(0, 1)))
    if hand:
        out.append(Action("play_pair", seat, cards=(hand[0], hand[0])))
        out.append(Action("play_pair", seat, cards=(hand[0], state.discard_pile[0])))
        out.append(Action("play_pair", seat, cards=(hand[0],)))
    if len(hand) >= 5:
        out.append(Action("mercy", seat, cards=tuple(hand[:5])))
        out.append(Action("mercy", seat, cards=tuple(hand[:4])))
    return out


def check_legal_actions_are_exact(state: State) -> None:
    check_listing_is_exact(SPLASH, state, concrete_actions, random.Random(len(state.draw_pile)))


@settings(max_examples=20)
@given(config=configs())
def test_an_action_is_accepted_if_and_only_if_it_is_listed(config: Config) -> None:
    """Every seat's whole action space on a sample of the steps (every step would take
    seconds per match: a hundred actions tried per seat)."""
    rng = random.Random(config.seed ^ 0x5EED)

    def check(before: State, action: Action, after: State, events: list[Event]) -> None:
        if rng.random() < 0.05 or (after.phase in ("choose", "respond") and rng.random() < 0.5):
            check_legal_actions_are_exact(after)

    playout = config.play(check)
    check_legal_actions_are_exact(playout.initial)


# ---------------------------------------------------------------------------------------------
# What a seat sees


class LeakChecker:
    """Every seat's view and visible events after each step: no card of another hand or of the
    draw pile, except what the rules show (plays, round-end hands, the challenged hand to its
    challenger)."""

    def __init__(self, view_rate: float = 1.0) -> None:
        self.round_hands: list[dict[str, list[str]]] = []
        self.reveals = 0
        # Views cost a listing per seat: a share of the steps (events are checked at every step).
        self.view_rate = view_rate
        self.rng = random.Random(7)

    def __call__(self, before: State, action: Action, after: State, events: list[Event]) -> None:
        if round_just_ended(before, after):
            self.round_hands.append(round_end_hands(after))
        views = self.rng.random() < self.view_rate or after.pending is not None
        for seat in range(len(after.seats)):
            self.check_events(before, after, events, seat)
            if not views:
                continue
            seen = SPLASH.view(after, seat)
            results = seen.pop("round_results")
            assert not quoted_strings(seen) & hidden_from(after, seat), f"seat {seat}'s view"
            assert [r["hands"] for r in results] == self.round_hands
            assert [c["id"] for c in seen["hand"]] == after.seats[seat].hand

    def check_events(self, before: State, after: State, events: list[Event], seat: int) -> None:
        seen = visible_events(events, seat)
        allowed = set(before.discard_pile) | set(after.discard_pile)
        allowed |= set(before.seats[seat].hand) | set(after.seats[seat].hand)
        for event in events:
            if event["type"] == "play":
                allowed.add(event["card"])
            if event["type"] in ("mercy", "play_pair"):
                allowed.update(event["cards"])
            if event["type"] == "round_over":
                allowed.update(c for hand in event["hands"].values() for c in hand)
            if event["type"] == "challenge":
                shown = [e for e in seen if e["type"] == "challenge"]
                assert ("hand" in shown[0]) == (seat == event["seat"]), "reveal to challenger only"
                if seat == event["seat"]:
                    allowed.update(event["secret"]["hand"])
                    self.reveals += 1
        hidden = (hidden_from(before, seat) | hidden_from(after, seat)) - allowed
        leaked = quoted_strings(seen) & hidden
        assert not leaked, f"seat {seat} is told hidden cards {sorted(leaked)}"


@settings(max_examples=15)
@given(config=configs())
def test_views_and_events_leak_no_foreign_card(config: Config) -> None:
    checker = LeakChecker(view_rate=0.2)
    playout = config.play(checker)
    assert playout.final is not None
    assert [r["hands"] for r in playout.final.round_results] == checker.round_hands


def test_the_challenged_hand_reaches_the_challenger_and_nobody_else() -> None:
    """The leak check above meets challenges in these seeded playouts (not left to chance)."""
    reveals = 0
    for seed in range(6):
        checker = LeakChecker()
        run_playout(
            seed,
            players=3 + seed % 4,
            preset="classic",
            options={},
            target_score=0,
            check=checker,
            game=SPLASH,
            prefer_plays=True,
        )
        reveals += checker.reveals
    assert reveals > 0


# ---------------------------------------------------------------------------------------------
# Rounds end, the state stays consistent, sampling keeps the view


def check_invariants(before: State, action: Action, after: State, events: list[Event]) -> None:
    s = after
    if s.phase in ("round_over", "match_over"):
        assert s.pending is None and s.drawn_card is None
        return
    assert s.seats[s.current].active
    top = s.discard_pile[0]
    # The named colour belongs to a wild on top, and only there (an opening Wild: once named).
    if COLOUR_OF[top] is not None:
        assert s.colour is None
    else:
        assert (s.colour is None) == (s.phase == "choose"), f"{top} with colour {s.colour}"
    assert (s.phase == "drawn") == (s.drawn_card is not None)
    if s.drawn_card is not None:
        assert s.drawn_card in s.seats[s.current].hand
    # Stacking: a total is owed exactly in phase stack; a Wild Draw Four on top of the stack may
    # still be challenged (its record pending) until the answer.
    assert (s.phase == "stack") == (s.stack > 0)
    if s.phase != "stack":
        assert (s.phase in ("choose", "respond")) == (s.pending is not None)
    if s.pending is not None:
        assert s.pending["seat"] == s.current
    if s.phase == "respond" or (s.phase == "stack" and s.pending is not None):
        assert s.pending is not None and s.discard_pile[0] == s.pending["card"]
    if round_just_ended(before, after):
        result = s.round_results[-1]
        points = PRESETS["classic"].points
        owed = sum(points[SPLASH_TYPE(c)] for seat in s.seats for c in seat.hand)
        assert result["points"] == owed


def SPLASH_TYPE(card: str) -> str:  # noqa: N802 - reads as the table it looks up
    return card.rpartition("-")[0]


@settings(max_examples=40)
@given(config=configs())
def test_every_round_ends_and_the_state_stays_consistent(config: Config) -> None:
    playout = config.play(check_invariants)
    assert playout.final is not None and playout.final.phase == "match_over"
    assert playout.rounds_finished >= 1 or any(a.type == "leave" for a, _ in playout.steps)


@settings(max_examples=15)
@given(config=configs())
def test_sample_hidden_keeps_what_the_seat_sees(config: Config) -> None:
    playout = config.play(keep_states=True)
    for sample in hidden_samples(config, playout, samples=25):
        assert Counter(all_cards(sample)) == DECK
        if sample.pending is not None and "hand" in sample.pending:
            owner = sample.pending["owner"]
            assert Counter(sample.pending["hand"]) >= Counter(sample.seats[owner].hand)
