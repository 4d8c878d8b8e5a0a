"""Properties of the engine over random legal playouts, checked after every step.

A hypothesis-drawn seed names a whole match (see ``playout.py``): 2 to 10 players, both presets,
any combination of the six house rules, a single round (target 0) or several (target 100), with
timeouts and players leaving now and then. ``test_every_house_rule_combination`` also plays each
of the 64 combinations by name, so none is left to chance.
"""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import EngineError, replay
from games.engine.errors import ALL_CODES
from games.engine.uno.actions import Action
from games.engine.uno.allwild.cards import PRESETS, card_type
from games.engine.uno.allwild.house_rules import HOUSE_RULES
from games.engine.uno.allwild.legal import legal_actions
from games.engine.uno.allwild.rules import apply, new_game
from games.engine.uno.allwild.view import view
from games.engine.uno.state import State
from games.engine.uno.view import visible_events

from .playout import (
    ALL_WILD,
    IN_ROUND,
    Check,
    Config,
    Event,
    all_cards,
    check_cards_conserved,
    check_json_round_trip,
    check_listing_is_exact,
    hidden_from,
    pick_action,
    quoted_strings,
    round_end_hands,
    round_just_ended,
    run_playout,
)

ALL_OPTION_SETS = [
    dict(zip(HOUSE_RULES, bits, strict=True))
    for bits in itertools.product([False, True], repeat=len(HOUSE_RULES))
]


def configs(max_players: int = 10) -> st.SearchStrategy[Config]:
    return st.builds(
        Config,
        seed=st.integers(min_value=0, max_value=2**32 - 1),
        players=st.integers(min_value=2, max_value=max_players),
        preset=st.sampled_from(sorted(PRESETS)),
        # {} as old games store it, or any of the 64 combinations of the house rules.
        options=st.one_of(st.just({}), st.sampled_from(ALL_OPTION_SETS)),
        target_score=st.sampled_from([0, 100]),
        timeout_rate=st.sampled_from([0.0, 0.05]),
        leave_rate=st.sampled_from([0.0, 0.02]),
    )


# ---------------------------------------------------------------------------------------------
# Helpers


def concrete_actions(state: State, seat: int, rng: random.Random | None = None) -> list[Action]:
    """The concrete action space of one seat, legal or not (system actions aside): all of it for
    single cards, a sample (drawn with ``rng``) of the pairs and five-card sets."""
    rng = rng or random.Random(0)
    n = len(state.seats)
    targets: list[int | None] = [None, -1, *range(n), n]
    hand = state.seats[seat].hand
    out: list[Action] = []
    for card in hand:
        out.extend(Action("play", seat, card, t) for t in targets)
    # A card the seat does not hold: the top of the discard pile is never in a hand.
    out.append(Action("play", seat, state.discard_pile[0]))
    out.append(Action("play", seat))
    out.append(Action("draw", seat))
    out.extend(Action("play_drawn", seat, target=t) for t in targets)
    out.append(Action("pass", seat))
    out.append(Action("uno", seat))
    out.extend(Action("catch", seat, target=t) for t in targets)
    out.extend(Action("choose_target", seat, target=t) for t in targets)
    # House rules
    out.append(Action("take_stack", seat))
    out.append(Action("play_top", seat))
    out.append(Action("play_top", seat, hand[0] if hand else None))
    out.append(Action("mercy", seat))
    seat_targets = [t for t in targets if t is not None]
    for _ in range(6):
        if len(hand) >= 2:
            pair = tuple(rng.sample(hand, 2))
            out.append(Action("play_pair", seat, cards=pair))
            two = (rng.choice(seat_targets), rng.choice(seat_targets))
            out.append(Action("play_pair", seat, cards=pair, targets=two))
            out.append(Action("play_pair", seat, cards=pair, targets=two[:1]))
        if len(hand) >= 5:
            out.append(Action("mercy", seat, cards=tuple(rng.sample(hand, 5))))
            out.append(Action("mercy", seat, cards=tuple(rng.sample(hand, 4))))
    # Identical pairs (the usual legal ones), the same card twice, a card from elsewhere.
    by_type: dict[str, list[str]] = {}
    for card in hand:
        by_type.setdefault(card_type(card), []).append(card)
    for cards in by_type.values():
        if len(cards) >= 2:
            out.append(Action("play_pair", seat, cards=(cards[0], cards[1])))
            # A double-down pair that targets (two Force Swaps) is listed concrete, in either
            # order of its cards, with a pair of targets: every pair of seats is in the space,
            # the engine's listing says which are legal.
            for pair in ((cards[0], cards[1]), (cards[1], cards[0])):
                out.extend(
                    Action("play_pair", seat, cards=pair, targets=(a, b))
                    for a in range(n)
                    for b in range(n)
                )
    if hand:
        out.append(Action("play_pair", seat, cards=(hand[0], hand[0])))
        out.append(Action("play_pair", seat, cards=(hand[0], state.discard_pile[0])))
        out.append(Action("mercy", seat, cards=(hand[0],) * 5))
    return out


# ---------------------------------------------------------------------------------------------
# Cards, JSON, replay


@given(config=configs())
def test_cards_are_conserved_in_every_playout(config: Config) -> None:
    playout = config.play(check_cards_conserved)
    assert Counter(all_cards(playout.initial)) == Counter(PRESETS[config.preset].card_ids)
    assert len(all_cards(playout.initial)) == 112


@given(config=configs())
def test_the_state_round_trips_through_json_at_every_step(config: Config) -> None:
    playout = config.play(check_json_round_trip)
    assert State.from_dict(json.loads(json.dumps(playout.initial.to_dict()))) == playout.initial


@given(config=configs())
def test_replaying_the_logged_events_rebuilds_the_same_state(config: Config) -> None:
    playout = config.play()
    assert replay(playout.setup, playout.steps, playout.setup_events) == playout.final


@given(config=configs())
def test_replaying_any_prefix_of_the_log_rebuilds_that_state(config: Config) -> None:
    playout = config.play(keep_states=True)
    k = random.Random(config.seed).randrange(len(playout.steps) + 1)
    expected = playout.states[k - 1] if k else playout.initial
    assert replay(playout.setup, playout.steps[:k], playout.setup_events) == expected


# ---------------------------------------------------------------------------------------------
# Legal actions are exact


def assert_refused_with_a_known_code(state: State, action: Action, what: str) -> None:
    """``action`` is refused with a code of the catalogue: neither accepted nor a crash (``what``
    names the action, should it be accepted)."""
    try:
        apply(state, action, random.Random(0))
    except EngineError as error:
        assert error.code in ALL_CODES
    else:  # pragma: no cover - a failure
        raise AssertionError(f"{what} was accepted")


def check_legal_actions_are_exact(state: State) -> None:
    snapshot = state.to_dict()
    rng = random.Random(len(state.draw_pile) * 31 + state.current)
    # A few instances of every listed template (all of them must apply), in the space too.
    check_listing_is_exact(
        ALL_WILD, state, lambda s, seat: concrete_actions(s, seat, rng), rng, instances=3
    )
    # Out-of-range seats are refused, not crashed on.
    for seat in (-1, len(state.seats)):
        assert legal_actions(state, seat) == []
        for action in (Action("draw", seat), Action("uno", seat), Action("pass", seat)):
            nowhere = f"{action} from a seat that does not exist"
            assert_refused_with_a_known_code(state, action, nowhere)
    assert state.to_dict() == snapshot, "listing or refusing actions changed the input state"


@settings(max_examples=30)
@given(config=configs())
def test_legal_actions_are_exactly_the_accepted_actions(config: Config) -> None:
    rng = random.Random(config.seed ^ 0x5EED)
    every_step = config.players <= 5

    def check(before: State, action: Action, after: State, events: list[Event]) -> None:
        # Every step for small tables; a sample of steps (and all seats) for big ones, to stay fast.
        if every_step or rng.random() < 0.5:
            check_legal_actions_are_exact(after)

    playout = config.play(check)
    check_legal_actions_are_exact(playout.initial)


def test_system_actions_are_refused_with_a_code_not_a_crash() -> None:
    state = run_playout(7, players=3, preset="standard", options={}, target_score=0).initial
    snapshot = state.to_dict()
    for action in (
        Action("timeout"),
        Action("timeout", seat=99),
        Action("leave"),
        Action("leave", seat=-1),
        Action("next_round"),
        Action("no_such_action", seat=0),
    ):
        assert_refused_with_a_known_code(state, action, str(action))
    assert state.to_dict() == snapshot


# ---------------------------------------------------------------------------------------------
# What a seat sees


class LeakChecker:
    """Checks every seat's view and visible events after each step; remembers round-end hands."""

    def __init__(self) -> None:
        self.round_hands: list[dict[str, list[str]]] = []

    def __call__(self, before: State, action: Action, after: State, events: list[Event]) -> None:
        if round_just_ended(before, after):
            self.round_hands.append(round_end_hands(after))
        for seat in range(len(after.seats)):
            self.check_view(after, seat)
            self.check_events(before, after, events, seat)

    def check_view(self, state: State, seat: int) -> None:
        seen = view(state, seat)
        results = seen.pop("round_results")
        leaked = quoted_strings(seen) & hidden_from(state, seat)
        assert not leaked, f"seat {seat}'s view shows hidden cards {sorted(leaked)}"
        assert [r["hands"] for r in results] == self.round_hands
        if state.option("blind_play"):
            assert seen["hand"] is None and seen["hand_hidden"] is True
        else:
            assert [c["id"] for c in seen["hand"]] == state.seats[seat].hand
        assert [s["hand_size"] for s in seen["seats"]] == [len(s.hand) for s in state.seats]
        assert seen["draw_size"] == len(state.draw_pile)

    def check_events(self, before: State, after: State, events: list[Event], seat: int) -> None:
        seen = visible_events(events, seat)
        assert all(e["type"] != "chance" for e in seen)
        allowed = set(before.discard_pile) | set(after.discard_pile)
        if not after.option("blind_play"):
            allowed |= set(before.seats[seat].hand) | set(after.seats[seat].hand)
        for event in events:
            if event["type"] in ("play", "not_stackable"):  # played or shown to everyone
                allowed.add(event["card"])
            if event["type"] in ("play_pair", "mercy"):  # face up on the discard pile
                allowed.update(event["cards"])
            if event["type"] == "round_over":
                allowed.update(c for hand in event["hands"].values() for c in hand)
        hidden = (hidden_from(before, seat) | hidden_from(after, seat)) - allowed
        leaked = quoted_strings(seen) & hidden
        assert not leaked, f"seat {seat} is told hidden cards {sorted(leaked)} by {seen}"


@given(config=configs())
def test_views_and_events_leak_no_hidden_card(config: Config) -> None:
    checker = LeakChecker()
    playout = config.play(checker)
    for seat in range(config.players):
        leaked = quoted_strings(view(playout.initial, seat)) & hidden_from(playout.initial, seat)
        assert not leaked
        assert not quoted_strings(visible_events(playout.setup_events, seat)) & (
            hidden_from(playout.initial, seat) - set(playout.initial.discard_pile)
        )
    assert [r["hands"] for r in playout.final.round_results] == checker.round_hands


# ---------------------------------------------------------------------------------------------
# Rounds end, seats stay consistent


@given(config=configs())
def test_every_round_ends_and_the_match_ends(config: Config) -> None:
    playout = config.play(max_round_actions=5000)
    final = playout.final
    assert final is not None and final.phase == "match_over"
    assert final.winner is not None and final.seats[final.winner].active
    if len(final.active_seats()) > 1:
        # Won on points: a single round for target 0, else the winner reached the target.
        assert final.round_results
        assert final.round_results[-1]["winner"] == final.winner
        assert final.seats[final.winner].score >= final.target_score
        if config.target_score == 0:
            assert len(final.round_results) == 1


def check_seat_invariants(before: State, action: Action, after: State, events: list[Event]) -> None:
    s = after
    assert s.direction in (1, -1)
    assert s.discard_pile, "the discard pile is never empty"
    for i, seat in enumerate(s.seats):
        assert not (seat.uno and seat.exposed), f"seat {i} said UNO yet is catchable"
        if seat.exposed:
            assert len(seat.hand) == 1, f"seat {i} is catchable with {len(seat.hand)} cards"
        if seat.uno:
            assert len(seat.hand) == 1, f"seat {i} has UNO standing with {len(seat.hand)} cards"
        if not seat.active:
            assert seat.hand == [] and not seat.uno and not seat.exposed and seat.skips == 0
        assert seat.skips >= 0
    assert sum(seat.score for seat in s.seats) == sum(r["points"] for r in s.round_results)
    if s.phase in IN_ROUND:
        assert len(s.active_seats()) >= 2
        assert 0 <= s.current < len(s.seats) and s.seats[s.current].active
        if s.phase != "stack":  # a stack is answered at once, by a seat that may owe turns
            assert s.seats[s.current].skips == 0, "the seat to play owes a lost turn"
        # A blind-played last card waiting for its target leaves its player's hand empty.
        blind_last = s.pending is not None and s.pending["reason"] == "blind"
        assert all(s.seats[i].hand or (blind_last and i == s.current) for i in s.active_seats())
        assert (s.phase == "stack") == (s.stack > 0), f"stack {s.stack} in phase {s.phase}"
        assert (s.phase == "drawn") == (s.drawn_card is not None)
        if s.drawn_card is not None:
            assert s.drawn_card in s.seats[s.current].hand
        assert (s.phase == "choose") == (s.pending is not None)
        if s.pending is not None:
            assert s.pending["seat"] == s.current
    else:
        assert s.drawn_card is None and s.pending is None and s.stack == 0
        assert not any(seat.exposed for seat in s.seats), "a catch window is open after the round"
    for i, seat in enumerate(s.seats):
        if seat.mercy_used:
            assert len(seat.hand) >= 15, f"seat {i}'s mercy right did not return below 15"
    if round_just_ended(before, after):
        result = s.round_results[-1]
        assert s.seats[result["winner"]].hand == []
        points = PRESETS[s.preset].points
        owed = sum(points[card_type(c)] for seat in s.seats for c in seat.hand)
        assert result["points"] == owed
        assert s.seats[result["winner"]].score == before.seats[result["winner"]].score + owed


@given(config=configs())
def test_seat_invariants_hold_at_every_step(config: Config) -> None:
    playout = config.play(check_seat_invariants)
    check_seat_invariants(playout.initial, Action("next_round"), playout.initial, [])


WORD_ACTIONS = ("uno", "play", "play_drawn", "play_pair", "play_top", "choose_target", "timeout")
# Turn actions: each closes every catch window (RULES.md).
TURN_ACTIONS = ("play", "play_drawn", "draw", "timeout", "take_stack", "play_pair", "play_top")


def check_uno_and_catch_windows(
    before: State, action: Action, after: State, events: list[Event]
) -> None:
    # A hand can change and come back within one action (double down: two Force Swaps on the
    # same seat, two Shuffle Hands at two seats): a change all the same (RULES.md: "a player who
    # holds one card again after a change (even a one-for-one swap) must say it again").
    swapped = {e[k] for e in events if e["type"] == "swap" for k in ("seat", "target")}
    passed = any(e["type"] == "hands_passed" for e in events)
    for i, (old, new) in enumerate(zip(before.seats, after.seats, strict=True)):
        changed = old.hand != new.hand or i in swapped or (passed and old.active)
        if new.uno and not old.uno:
            # The word counts only from the seat itself, with one card, said alone or with a play
            # (or with a blind play whose target is chosen, or timed out, later).
            assert action.seat == i and action.type in WORD_ACTIONS
            pending_word = bool(before.pending and before.pending.get("uno"))
            assert action.type == "uno" or action.uno or pending_word
        if new.uno and old.uno:
            assert not changed, f"seat {i}'s hand changed yet its UNO still stands"
        if new.exposed and not old.exposed:
            assert changed and len(new.hand) == 1, f"seat {i} became catchable without a change"
        if action.type in TURN_ACTIONS and new.exposed:
            # The turn action closes every window; only a hand it changed may open a new one.
            assert changed, f"{action} left seat {i}'s catch window open"
    if action.type == "catch" and action.target is not None:
        caught = after.seats[action.target]
        assert not caught.exposed
        gained = len(caught.hand) - len(before.seats[action.target].hand)
        assert gained == min(2, len(before.draw_pile) + len(before.discard_pile) - 1)


@given(config=configs())
def test_uno_and_catch_windows_follow_hand_changes(config: Config) -> None:
    config.play(check_uno_and_catch_windows)


# ---------------------------------------------------------------------------------------------
# Leaving down to one player


@given(
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    players=st.integers(min_value=2, max_value=10),
    preset=st.sampled_from(sorted(PRESETS)),
)
def test_leaving_down_to_one_player_ends_the_match(seed: int, players: int, preset: str) -> None:
    ended_by_leaving: list[int] = []

    def check(before: State, action: Action, after: State, events: list[Event]) -> None:
        check_cards_conserved(before, action, after, events)
        if action.type == "leave" and after.phase == "match_over":
            (last,) = after.active_seats()
            assert after.winner == last
            assert after.round_results == before.round_results, "the abandoned round scored"
            assert [s.score for s in after.seats] == [s.score for s in before.seats]
            ended_by_leaving.append(last)

    playout = run_playout(
        seed,
        players=players,
        preset=preset,
        options={},
        target_score=500,
        check=check,
        leave_rate=0.3,
        max_leaves=players - 1,
        timeout_rate=0.05,
    )
    final = playout.final
    assert final is not None and final.phase == "match_over"
    if ended_by_leaving:
        assert final.winner == ended_by_leaving[0]
        try:
            apply(final, Action("next_round"), random.Random(0))
        except EngineError as error:
            assert error.code == "game_over"
        else:  # pragma: no cover - a failure
            raise AssertionError("a round was dealt after the match ended")


# ---------------------------------------------------------------------------------------------
# A dry draw pile: reshuffles, exhaustion and refused voluntary draws


@given(config=configs())
def test_invariants_hold_when_the_draw_pile_runs_dry(config: Config) -> None:
    """Deal, then take all but a few cards off the draw pile (cards stay conserved) and play on.

    With 5+ players the cards go round the hands, so that draws soon find nothing at all; with
    fewer (whose hands would grow huge) they go under the top discard, to be reshuffled.
    """
    rng = random.Random(config.seed)
    state, _ = new_game(
        players=config.players,
        rng=rng,
        preset=config.preset,
        options=config.options,
        target_score=0,
    )
    keep = rng.randrange(4)
    taken, state.draw_pile = state.draw_pile[keep:], state.draw_pile[:keep]
    if config.players >= 5:
        for k, card in enumerate(taken):
            state.seats[k % config.players].hand.append(card)
    else:
        state.discard_pile += taken
    leaks = LeakChecker()
    for _ in range(600):
        if state.phase == "match_over":
            break
        if rng.random() < config.timeout_rate:
            action = Action("timeout", seat=state.current)
        else:
            action = pick_action(state, rng, free_rate=0.2)
        after, events = apply(state, action, rng)
        for check in (
            check_cards_conserved,
            check_seat_invariants,
            check_uno_and_catch_windows,
            check_json_round_trip,
            leaks,
        ):
            check(state, action, after, events)
        if rng.random() < 0.1:
            check_legal_actions_are_exact(after)
        state = after


# ---------------------------------------------------------------------------------------------
# Every combination of the six house rules, by name


@pytest.mark.parametrize(
    "options",
    ALL_OPTION_SETS,
    ids=lambda o: "+".join(k for k, v in o.items() if v) or "none",
)
def test_every_house_rule_combination(options: dict[str, bool]) -> None:
    """A 2-, a 3- and a 5-player match of each combination, every check at every step (the
    exact legal actions on a sample of steps): cards conserved, JSON, invariants, catch windows,
    no leak, rounds end, and the log replays."""
    for seed, players, preset in ((1, 3, "standard"), (2, 2, "mattel_2021"), (3, 5, "standard")):
        playout = run_playout(
            seed,
            players=players,
            preset=preset,
            options=options,
            target_score=100,
            check=all_checks(random.Random(seed), exact_rate=0.25),
            timeout_rate=0.05,
            leave_rate=0.01 if players > 2 else 0.0,
        )
        final = playout.final
        assert final is not None and final.phase == "match_over"
        assert playout.rounds_finished >= 1 or playout.stalls
        assert replay(playout.setup, playout.steps, playout.setup_events) == final


def all_checks(rng: random.Random, exact_rate: float) -> Check:
    """Every per-step check; the exact legal actions on a share ``exact_rate`` of the steps."""
    leaks = LeakChecker()

    def check(before: State, action: Action, after: State, events: list[Event]) -> None:
        for each in (
            check_cards_conserved,
            check_json_round_trip,
            check_seat_invariants,
            check_uno_and_catch_windows,
            leaks,
        ):
            each(before, action, after, events)
        if rng.random() < exact_rate:
            check_legal_actions_are_exact(after)

    return check
