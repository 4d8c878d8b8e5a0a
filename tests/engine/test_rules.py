"""One or more hand-written tests for each ruling in RULES.md (/work/shared/RULES.md).

Positions are built directly with ``position(...)``: the cards named in hands, draw and discard
piles are placed as given and the rest of the 112 go to the bottom of the draw pile (or wherever
``rest`` says), so cards are conserved in every position. Seats: alice 0, bob 1, carol 2, dave 3.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from games.engine import EngineError, ReplayRNG
from games.engine.uno.actions import Action
from games.engine.uno.allwild.cards import PRESETS, card_type
from games.engine.uno.allwild.legal import legal_actions
from games.engine.uno.allwild.rules import apply, new_game, validate_options
from games.engine.uno.allwild.view import moderator_view, view
from games.engine.uno.state import Seat, State
from games.engine.uno.view import visible_events

ALICE, BOB, CAROL, DAVE = 0, 1, 2, 3
Event = dict[str, Any]


class NoChance:
    """The RNG for positions where nothing is left to chance: any use of it fails the test."""

    def shuffle(self, x: list[Any]) -> None:
        raise AssertionError("unexpected shuffle")

    def choice(self, seq: Any) -> Any:
        raise AssertionError("unexpected random choice")


def position(
    preset: str = "standard",
    hands: list[list[str]] | None = None,
    *,
    draw: list[str] | None = None,
    discard: list[str] | None = None,
    current: int = ALICE,
    dealer: int | None = None,
    direction: int = 1,
    rest: str | int = "draw",
    options: dict[str, bool] | None = None,
    target_score: int = 500,
    **fields: Any,
) -> State:
    """A position with the given hands (top first) and piles; the rest of the deck goes to the
    bottom of the draw pile (``rest="draw"``), under the top discard (``"discard"``) or to the
    bottom of one seat's hand (a seat number). The discard top defaults to an unused Wild."""
    ids = PRESETS[preset].card_ids
    hand_lists = [list(h) for h in (hands or [[], []])]
    draw_pile = list(draw or [])
    placed = [c for h in hand_lists for c in h] + draw_pile + list(discard or [])
    if discard is None:
        discard = [next(c for c in reversed(ids) if card_type(c) == "wild" and c not in placed)]
        placed += discard
    assert len(placed) == len(set(placed)), "a card is placed twice"
    assert set(placed) <= set(ids), f"not in {preset}: {sorted(set(placed) - set(ids))}"
    leftover = [c for c in ids if c not in set(placed)]
    discard_pile = list(discard)
    if rest == "draw":
        draw_pile += leftover
    elif rest == "discard":
        discard_pile += leftover
    else:
        assert isinstance(rest, int)
        hand_lists[rest] += leftover
    n = len(hand_lists)
    state = State(
        preset=preset,
        seats=[Seat(hand=h) for h in hand_lists],
        draw_pile=draw_pile,
        discard_pile=discard_pile,
        options=validate_options(options or {}),
        target_score=target_score,
        direction=direction,
        current=current,
        dealer=(current - 1) % n if dealer is None else dealer,
        **fields,
    )
    assert Counter(cards_of(state)) == Counter(ids)
    return state


def cards_of(state: State) -> list[str]:
    return [c for s in state.seats for c in s.hand] + state.draw_pile + state.discard_pile


def act(
    state: State,
    kind: str,
    seat: int | None = None,
    card: str | None = None,
    target: int | None = None,
    *,
    uno: bool = False,
    rng: Any = None,
) -> tuple[State, list[Event]]:
    """Apply one action, checking it was listed as legal (player actions) and conserved cards."""
    action = Action(kind, seat, card, target, uno)
    if kind not in ("timeout", "leave", "next_round") and seat is not None:
        listed = legal_actions(state, seat)
        assert Action(kind, seat, card, target) in listed, f"{action} not in {listed}"
    after, events = apply(state, action, NoChance() if rng is None else rng)
    assert Counter(cards_of(after)) == Counter(PRESETS[state.preset].card_ids)
    return after, events


def refusal(
    state: State,
    kind: str,
    seat: int | None = None,
    card: str | None = None,
    target: int | None = None,
    *,
    uno: bool = False,
) -> str:
    """The code an action is refused with; the state is untouched and the action is not listed."""
    before = state.to_dict()
    with pytest.raises(EngineError) as info:
        apply(state, Action(kind, seat, card, target, uno), NoChance())
    assert state.to_dict() == before
    if seat is not None and 0 <= seat < len(state.seats):
        assert Action(kind, seat, card, target) not in legal_actions(state, seat)
    return info.value.code


def types(events: list[Event]) -> list[str]:
    return [e["type"] for e in events]


def hand(state: State, seat: int) -> list[str]:
    return state.seats[seat].hand


def wilds(first: int, count: int) -> list[str]:
    return [f"wild-{i}" for i in range(first, first + count)]


# ---------------------------------------------------------------------------------------------
# Presets are data that match the rulings' table


def test_standard_deck_and_points_match_the_rulebook_table() -> None:
    preset = PRESETS["standard"]
    assert preset.deck == {
        "wild": 28,
        "draw2": 16,
        "draw4": 8,
        "reverse": 12,
        "skip": 12,
        "targeted_draw2": 16,
        "force_swap": 12,
        "shuffle_hands": 8,
    }
    assert preset.points == {
        "wild": 40,
        "draw2": 50,
        "draw4": 60,
        "reverse": 20,
        "skip": 30,
        "targeted_draw2": 50,
        "force_swap": 40,
        "shuffle_hands": 40,
    }
    assert preset.opening_effects and not preset.draw_restricted


def test_mattel_2021_deck_and_points_match_the_printed_sheet_table() -> None:
    preset = PRESETS["mattel_2021"]
    assert preset.deck == {
        "wild": 54,
        "draw2": 10,
        "draw4": 6,
        "reverse": 14,
        "skip": 14,
        "skip_two": 6,
        "targeted_draw2": 4,
        "force_swap": 4,
    }
    assert preset.points == {"wild": 20} | {k: 50 for k in preset.deck if k != "wild"}
    assert not preset.opening_effects and preset.draw_restricted


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_preset_has_112_distinct_card_ids(preset: str) -> None:
    ids = PRESETS[preset].card_ids
    assert len(ids) == len(set(ids)) == 112
    assert Counter(card_type(c) for c in ids) == Counter(PRESETS[preset].deck)


# ---------------------------------------------------------------------------------------------
# Setup


@pytest.mark.parametrize(
    ("setup", "why"),
    [
        ({"players": 1}, "too few players"),
        ({"players": 11}, "too many players"),
        ({"players": 4, "preset": "classic"}, "unknown preset"),
        ({"players": 4, "target_score": -1}, "negative target"),
        ({"players": 4, "options": {"no_such_rule": True}}, "unknown house rule"),
        ({"players": 4, "options": {"stacking": "yes"}}, "house rule not a boolean"),
        ({"players": 4, "options": {"force_swap_protection": "yes"}}, "not a boolean"),
        ({"players": 4, "options": 5}, "options not an object"),
        ({"players": 4, "options": ["stacking"]}, "options a list"),
    ],
)
def test_a_bad_setup_is_refused_with_invalid_setup(setup: dict[str, Any], why: str) -> None:
    with pytest.raises(EngineError) as info:
        new_game(rng=random.Random(0), **setup)
    assert info.value.code == "invalid_setup", why


def deck_order(preset: str, active: int, opening: str) -> list[str]:
    """A deck order that flips ``opening`` once 7 cards went to each of ``active`` seats."""
    ids = list(PRESETS[preset].card_ids)
    top = next(c for c in ids if card_type(c) == opening)
    ids.remove(top)
    dealt = HAND * active
    return ids[:dealt] + [top] + ids[dealt:]


HAND = 7


def scripted(dealer: int | None, order: list[str]) -> ReplayRNG:
    """An RNG that picks ``dealer`` (when given) and then shuffles the deck into ``order``."""
    events: list[Event] = []
    if dealer is not None:
        events.append({"type": "chance", "kind": "choice", "value": dealer})
    events.append({"type": "chance", "kind": "shuffle", "order": order})
    return ReplayRNG(events)


def dealt(
    preset: str, players: int, dealer: int, opening: str, **setup: Any
) -> tuple[State, list[Event], list[str]]:
    order = deck_order(preset, players, opening)
    rng = scripted(dealer, order)
    state, events = new_game(players=players, rng=rng, preset=preset, **setup)
    assert rng.remaining == 0
    return state, events, order


def dealt_hand(order: list[str], players: int, dealer: int, seat: int) -> list[str]:
    """One card at a time from the seat clockwise of the dealer, each card on top of the hand."""
    k = (seat - dealer - 1) % players
    return [order[k + j * players] for j in reversed(range(HAND))]


@pytest.mark.parametrize("players", [2, 3, 10])
@pytest.mark.parametrize("dealer", [0, 1])
def test_the_deal_gives_seven_cards_one_at_a_time_from_the_dealers_left(
    players: int, dealer: int
) -> None:
    state, events, order = dealt("standard", players, dealer, "wild")
    assert state.dealer == dealer and state.round == 1
    for seat in range(players):
        assert hand(state, seat) == dealt_hand(order, players, dealer, seat)
    assert state.discard_pile == [order[HAND * players]]
    assert state.draw_pile == order[HAND * players + 1 :]
    assert state.current == (dealer + 1) % players
    assert state.direction == 1 and state.phase == "play"
    assert [e for e in events if e["type"] == "round_started"] == [
        {
            "type": "round_started",
            "round": 1,
            "dealer": dealer,
            "hand_sizes": [HAND] * players,
            "card": order[HAND * players],
        }
    ]


def test_the_first_dealer_is_chosen_at_random_among_all_seats() -> None:
    _, events = new_game(players=5, rng=random.Random(11))
    (choice,) = [e for e in events if e["type"] == "chance" and e["kind"] == "choice"]
    assert choice["options"] == [0, 1, 2, 3, 4]
    dealers = {new_game(players=5, rng=random.Random(seed))[0].dealer for seed in range(60)}
    assert dealers == {0, 1, 2, 3, 4}


# ---------------------------------------------------------------------------------------------
# Opening card


def test_an_opening_wild_does_nothing() -> None:
    state, events, _ = dealt("standard", 4, DAVE, "wild")
    assert state.current == ALICE and state.phase == "play" and state.direction == 1
    assert "opening_effect" not in types(events)


@pytest.mark.parametrize(("kind", "amount"), [("draw2", 2), ("draw4", 4)])
def test_an_opening_draw_card_makes_the_first_player_draw_and_skips_them(
    kind: str, amount: int
) -> None:
    state, events, order = dealt("standard", 4, DAVE, kind)
    drawn = order[HAND * 4 + 1 : HAND * 4 + 1 + amount]
    assert Counter(hand(state, ALICE)) == Counter(dealt_hand(order, 4, DAVE, ALICE) + drawn)
    assert state.current == BOB and state.phase == "play"
    assert state.seats[ALICE].skips == 0


def test_an_opening_skip_skips_the_first_player() -> None:
    state, _, order = dealt("standard", 4, DAVE, "skip")
    assert state.current == BOB
    assert hand(state, ALICE) == dealt_hand(order, 4, DAVE, ALICE)


def test_an_opening_reverse_lets_the_dealer_play_first_counterclockwise() -> None:
    state, _, _ = dealt("standard", 4, CAROL, "reverse")
    assert state.current == CAROL and state.direction == -1
    state, _ = act(state, "play", CAROL, hand(state, CAROL)[0])
    assert state.current == BOB


def test_an_opening_reverse_with_two_players_skips_the_first_player() -> None:
    state, _, _ = dealt("standard", 2, ALICE, "reverse")
    assert state.current == ALICE  # the dealer: bob, the first player, is skipped


def test_an_opening_targeted_draw_two_lets_the_first_player_choose_who_draws() -> None:
    state, _, order = dealt("standard", 3, CAROL, "targeted_draw2")
    assert state.phase == "choose" and state.current == ALICE
    assert state.pending is not None and state.pending["seat"] == ALICE
    assert legal_actions(state, ALICE) == [
        Action("choose_target", ALICE, target=BOB),
        Action("choose_target", ALICE, target=CAROL),
    ]
    assert refusal(state, "choose_target", ALICE, target=ALICE) == "invalid_target"
    assert refusal(state, "choose_target", ALICE) == "target_required"
    assert refusal(state, "choose_target", BOB, target=CAROL) == "not_your_turn"
    assert refusal(state, "play", ALICE, hand(state, ALICE)[0]) == "choice_pending"
    assert refusal(state, "draw", ALICE) == "choice_pending"
    assert refusal(state, "play", BOB, hand(state, BOB)[0]) == "not_your_turn"
    state, _ = act(state, "choose_target", ALICE, target=CAROL)
    drawn = order[HAND * 3 + 1 : HAND * 3 + 3]
    assert Counter(hand(state, CAROL)) == Counter(dealt_hand(order, 3, CAROL, CAROL) + drawn)
    # The target loses no turn and the first player still takes theirs.
    assert state.phase == "play" and state.current == ALICE and state.pending is None
    assert refusal(state, "choose_target", ALICE, target=BOB) == "no_choice_pending"


def test_an_opening_force_swap_lets_the_first_player_swap_then_play() -> None:
    state, _, order = dealt("standard", 3, CAROL, "force_swap")
    assert state.phase == "choose" and state.current == ALICE
    assert refusal(state, "choose_target", ALICE) == "target_required"
    state, _ = act(state, "choose_target", ALICE, target=BOB)
    assert hand(state, ALICE) == dealt_hand(order, 3, CAROL, BOB)
    assert hand(state, BOB) == dealt_hand(order, 3, CAROL, ALICE)
    assert state.phase == "play" and state.current == ALICE


def test_an_opening_shuffle_hands_passes_every_hand_one_seat_clockwise() -> None:
    state, _, order = dealt("standard", 4, DAVE, "shuffle_hands")
    for seat in range(4):
        assert hand(state, seat) == dealt_hand(order, 4, DAVE, (seat - 1) % 4)
    assert state.current == ALICE and state.direction == 1 and state.phase == "play"


@pytest.mark.parametrize("kind", sorted(PRESETS["mattel_2021"].deck))
def test_mattel_2021_ignores_the_opening_cards_effect(kind: str) -> None:
    state, events, order = dealt("mattel_2021", 4, DAVE, kind)
    assert state.current == ALICE and state.direction == 1 and state.phase == "play"
    assert state.pending is None
    for seat in range(4):
        assert hand(state, seat) == dealt_hand(order, 4, DAVE, seat)
    assert "opening_effect" not in types(events)


def test_a_timeout_with_the_opening_choice_open_chooses_at_random_then_draws_and_passes() -> None:
    state, _, order = dealt("standard", 3, CAROL, "targeted_draw2")
    rng = ReplayRNG([{"type": "chance", "kind": "choice", "value": CAROL}])
    after, events = act(state, "timeout", ALICE, rng=rng)
    assert rng.remaining == 0
    chance = [e for e in events if e["type"] == "chance"]
    assert chance[0]["options"] == [BOB, CAROL]  # never the chooser themselves
    assert len(hand(after, CAROL)) == HAND + 2
    assert len(hand(after, ALICE)) == HAND + 1
    assert after.current == BOB and after.phase == "play" and after.pending is None
    assert types(events).index("target_chosen") < types(events).index("draw")


# ---------------------------------------------------------------------------------------------
# Effects


def test_wild_does_nothing_and_the_turn_passes() -> None:
    state = position(hands=[["wild-1", "wild-2"], ["wild-3", "wild-4"], ["wild-5", "wild-6"]])
    assert refusal(state, "play", ALICE, "wild-1", target=BOB) == "target_not_allowed"
    after, _ = act(state, "play", ALICE, "wild-1")
    assert after.current == BOB and after.direction == 1
    assert after.discard_pile[0] == "wild-1"
    assert [len(s.hand) for s in after.seats] == [1, 2, 2]


@pytest.mark.parametrize(("card", "amount"), [("draw2-1", 2), ("draw4-1", 4)])
def test_draw_cards_make_the_next_player_draw_and_lose_their_turn(card: str, amount: int) -> None:
    draw = ["skip-1", "skip-2", "skip-3", "skip-4"]
    state = position(
        hands=[[card, "wild-1"], ["wild-2", "wild-3"], ["wild-4", "wild-5"]], draw=draw
    )
    after, events = act(state, "play", ALICE, card)
    assert Counter(hand(after, BOB)) == Counter(["wild-2", "wild-3", *draw[:amount]])
    assert after.current == CAROL
    assert {"type": "skipped", "seat": BOB} in events


@pytest.mark.parametrize("card", ["draw2-1", "draw4-1"])
def test_draw_cards_with_two_players_let_the_player_play_again(card: str) -> None:
    state = position(hands=[[card, "wild-1"], ["wild-2", "wild-3"]])
    after, _ = act(state, "play", ALICE, card)
    assert after.current == ALICE
    assert len(hand(after, BOB)) == 2 + (2 if card.startswith("draw2") else 4)


def test_reverse_flips_the_direction_of_play() -> None:
    state = position(
        hands=[
            ["reverse-1", "wild-1"],
            ["wild-2", "wild-3"],
            ["wild-4", "wild-5"],
            ["wild-6", "wild-7"],
        ]
    )
    after, events = act(state, "play", ALICE, "reverse-1")
    assert after.direction == -1 and after.current == DAVE
    assert {"type": "direction", "direction": "counterclockwise"} in events
    after, _ = act(after, "play", DAVE, "wild-6")
    assert after.current == CAROL
    after, _ = act(after, "play", CAROL, "wild-4")
    assert after.current == BOB


def test_reverse_with_two_players_acts_as_a_skip() -> None:
    state = position(hands=[["reverse-1", "wild-1"], ["wild-2", "wild-3"]])
    after, _ = act(state, "play", ALICE, "reverse-1")
    assert after.current == ALICE


def test_the_two_player_reverse_loop_of_the_rulebook_gives_four_plays_in_a_row() -> None:
    alice = ["reverse-1", "reverse-2", "skip-1", "wild-1", "wild-2"]
    state = position(hands=[alice, ["wild-3", "wild-4"]])
    for card in alice[:3]:
        state, _ = act(state, "play", ALICE, card)
        assert state.current == ALICE
    state, _ = act(state, "play", ALICE, "wild-1")
    assert state.current == BOB


def test_skip_skips_the_next_player() -> None:
    state = position(hands=[["skip-1", "wild-1"], ["wild-2", "wild-3"], ["wild-4", "wild-5"]])
    after, _ = act(state, "play", ALICE, "skip-1")
    assert after.current == CAROL
    assert len(hand(after, BOB)) == 2


def test_skip_counts_seats_in_the_current_direction() -> None:
    hands = [["skip-1", "wild-1"], ["wild-2", "wild-3"], ["wild-4", "wild-5"], ["wild-6", "wild-7"]]
    state = position(hands=hands, direction=-1)
    after, _ = act(state, "play", ALICE, "skip-1")
    assert after.current == CAROL  # dave, counterclockwise from alice, is skipped


def test_skip_with_two_players_lets_the_player_play_again() -> None:
    state = position(hands=[["skip-1", "wild-1"], ["wild-2", "wild-3"]])
    after, _ = act(state, "play", ALICE, "skip-1")
    assert after.current == ALICE


def mattel_hands(players: int) -> list[list[str]]:
    hands = [["skip_two-1", "wild-1", "wild-2", "wild-3", "wild-4"]]
    for seat in range(1, players):
        hands.append([f"wild-{10 + 2 * seat}", f"wild-{11 + 2 * seat}"])
    return hands


def test_skip_two_skips_the_next_two_players() -> None:
    state = position("mattel_2021", mattel_hands(players=5))
    after, events = act(state, "play", ALICE, "skip_two-1")
    assert after.current == DAVE
    assert [e["seat"] for e in events if e["type"] == "skipped"] == [BOB, CAROL]


def test_skip_two_counterclockwise_skips_the_two_players_on_that_side() -> None:
    state = position("mattel_2021", mattel_hands(players=5), direction=-1)
    after, _ = act(state, "play", ALICE, "skip_two-1")
    assert after.current == CAROL  # seats 4 and 3 are skipped


def test_skip_two_with_three_players_gives_the_player_another_turn() -> None:
    state = position("mattel_2021", mattel_hands(players=3))
    after, _ = act(state, "play", ALICE, "skip_two-1")
    assert after.current == ALICE
    after, _ = act(after, "play", ALICE, "wild-1")
    assert after.current == BOB


def test_skip_two_with_two_players_gives_three_plays_in_a_row() -> None:
    state = position("mattel_2021", mattel_hands(players=2))
    state, _ = act(state, "play", ALICE, "skip_two-1")
    assert state.current == ALICE
    state, _ = act(state, "play", ALICE, "wild-1")
    assert state.current == ALICE
    state, _ = act(state, "play", ALICE, "wild-2")
    assert state.current == BOB


def test_lost_turns_add_up_when_a_skip_follows_skip_two_with_two_players() -> None:
    alice = ["skip_two-1", "skip-1", "wild-1", "wild-2", "wild-3"]
    state = position("mattel_2021", [alice, ["wild-4", "wild-5"]])
    plays = 0
    for card in alice:
        state, _ = act(state, "play", ALICE, card)
        plays += 1
        if state.current != ALICE:
            break
    # Skip Two costs bob two turns, the Skip one more: alice plays four cards in a row.
    assert plays == 4 and state.current == BOB
    assert state.seats[BOB].skips == 0


def test_lost_turns_add_up_when_a_reverse_follows_skip_two_with_two_players() -> None:
    alice = ["skip_two-1", "reverse-1", "wild-1", "wild-2", "wild-3"]
    state = position("mattel_2021", [alice, ["wild-4", "wild-5"]])
    for card in alice[:3]:
        state, _ = act(state, "play", ALICE, card)
        assert state.current == ALICE
    state, _ = act(state, "play", ALICE, "wild-2")
    assert state.current == BOB


@pytest.mark.parametrize("target", [BOB, CAROL, DAVE])
def test_targeted_draw_two_makes_the_chosen_player_draw_without_losing_a_turn(target: int) -> None:
    hands = [
        ["targeted_draw2-1", "wild-1"],
        ["wild-2", "wild-3"],
        ["wild-4", "wild-5"],
        ["wild-6", "wild-7"],
    ]
    state = position(hands=hands, draw=["skip-1", "skip-2"])
    after, events = act(state, "play", ALICE, "targeted_draw2-1", target)
    assert Counter(hand(after, target)) == Counter([*hands[target], "skip-1", "skip-2"])
    assert after.current == BOB, "play passes to the next player as usual, the target included"
    assert "skipped" not in types(events) and "loses_turn" not in types(events)


def test_targeted_draw_two_with_two_players_does_not_skip_the_opponent() -> None:
    state = position(hands=[["targeted_draw2-1", "wild-1"], ["wild-2", "wild-3"]])
    assert legal_actions(state, ALICE)[:1] == [Action("play", ALICE, "targeted_draw2-1", BOB)]
    after, _ = act(state, "play", ALICE, "targeted_draw2-1", BOB)
    assert len(hand(after, BOB)) == 4
    assert after.current == BOB


@pytest.mark.parametrize(
    ("target", "code"),
    [
        (None, "target_required"),
        (ALICE, "invalid_target"),
        (-1, "invalid_target"),
        (3, "invalid_target"),
    ],
)
def test_targeted_draw_two_needs_another_player_as_target(target: int | None, code: str) -> None:
    state = position(hands=[["targeted_draw2-1", "wild-1"], ["wild-2"], ["wild-3"]])
    assert refusal(state, "play", ALICE, "targeted_draw2-1", target) == code


def test_targeted_draw_two_hits_a_player_who_said_uno() -> None:
    # Scenario 3 of the rulebook: saying UNO never protects from action cards.
    state = position(
        hands=[["targeted_draw2-1", "wild-1", "wild-2"], ["wild-3", "wild-4"], ["wild-5"]]
    )
    state.seats[CAROL].uno = True
    after, _ = act(state, "play", ALICE, "targeted_draw2-1", CAROL)
    assert len(hand(after, CAROL)) == 3
    assert not after.seats[CAROL].uno


def test_force_swap_swaps_entire_hands_with_the_chosen_player() -> None:
    alice = ["force_swap-1", "wild-1", "wild-2"]
    carol = ["skip-1"]
    state = position(hands=[alice, ["wild-3", "wild-4"], carol])
    after, events = act(state, "play", ALICE, "force_swap-1", CAROL)
    assert hand(after, ALICE) == carol
    assert hand(after, CAROL) == ["wild-1", "wild-2"]  # the played card left the hand first
    assert after.current == BOB
    assert {"type": "swap", "seat": ALICE, "target": CAROL} in events


@pytest.mark.parametrize(
    ("target", "code"),
    [(None, "target_required"), (ALICE, "invalid_target"), (5, "invalid_target")],
)
def test_force_swap_is_mandatory_and_needs_another_player(target: int | None, code: str) -> None:
    state = position(hands=[["force_swap-1", "wild-1"], ["wild-2"], ["wild-3"]])
    assert refusal(state, "play", ALICE, "force_swap-1", target) == code


def test_shuffle_hands_passes_every_hand_to_the_next_player_clockwise() -> None:
    # Scenario 2 of the rulebook: bob plays Shuffle Hands from ten cards.
    alice = ["wild-1", "wild-2"]
    bob = ["shuffle_hands-1", *wilds(3, 9)]
    carol = ["skip-1", "skip-2", "skip-3", "skip-4"]
    dave = [f"reverse-{i}" for i in range(1, 8)]
    state = position(hands=[alice, bob, carol, dave], current=BOB)
    assert refusal(state, "play", BOB, "shuffle_hands-1", CAROL) == "target_not_allowed"
    after, events = act(state, "play", BOB, "shuffle_hands-1", uno=True)
    assert hand(after, ALICE) == dave
    assert hand(after, BOB) == alice
    assert hand(after, CAROL) == bob[1:]
    assert hand(after, DAVE) == carol
    assert after.current == CAROL
    assert {"type": "hands_passed", "direction": "clockwise"} in events


def test_shuffle_hands_counterclockwise_passes_hands_the_other_way() -> None:
    alice, bob = ["wild-1", "wild-2"], ["shuffle_hands-1", "wild-3", "wild-4", "wild-5"]
    carol, dave = ["skip-1"], ["reverse-1", "reverse-2", "reverse-3"]
    state = position(hands=[alice, bob, carol, dave], current=BOB, direction=-1)
    after, _ = act(state, "play", BOB, "shuffle_hands-1")
    assert hand(after, ALICE) == bob[1:]
    assert hand(after, DAVE) == alice
    assert hand(after, CAROL) == dave
    assert hand(after, BOB) == carol
    assert after.current == ALICE


def test_shuffle_hands_with_one_card_each_passes_that_one_card() -> None:
    state = position(hands=[["shuffle_hands-1", "wild-1"], ["wild-2"], ["wild-3"]])
    for seat in (BOB, CAROL):
        state.seats[seat].uno = True
    after, _ = act(state, "play", ALICE, "shuffle_hands-1")
    assert [hand(after, s) for s in (ALICE, BOB, CAROL)] == [["wild-3"], ["wild-1"], ["wild-2"]]
    # Every hand changed: everyone holds one card again and must say UNO again.
    assert not any(s.uno for s in after.seats)
    assert all(s.exposed for s in after.seats)
    assert Action("catch", BOB, target=CAROL) in legal_actions(after, BOB)


def test_shuffle_hands_with_two_players_swaps_the_hands() -> None:
    state = position(hands=[["shuffle_hands-1", "wild-1"], ["wild-2", "wild-3", "wild-4"]])
    after, _ = act(state, "play", ALICE, "shuffle_hands-1")
    assert hand(after, ALICE) == ["wild-2", "wild-3", "wild-4"]
    assert hand(after, BOB) == ["wild-1"]
    assert after.current == BOB


# ---------------------------------------------------------------------------------------------
# Going out


POINTS = {
    "standard": {
        "wild": 40,
        "draw2": 50,
        "draw4": 60,
        "reverse": 20,
        "skip": 30,
        "targeted_draw2": 50,
        "force_swap": 40,
        "shuffle_hands": 40,
    },
    "mattel_2021": {"wild": 20, "other": 50},
}


def rules_points(preset: str, cards: list[str]) -> int:
    table = POINTS[preset]
    return sum(table.get(card_type(c), table.get("other", 0)) for c in cards)


def test_going_out_on_draw_four_counts_the_drawn_cards_in_the_score() -> None:
    # Scenario 4 of the rulebook: 5 cards in bob's hand + 4 drawn = 9 cards scored.
    bob = ["wild-1", "skip-1", "reverse-1", "draw2-1", "force_swap-1"]
    draw = ["draw4-2", "targeted_draw2-1", "shuffle_hands-1", "wild-2"]
    state = position(hands=[["draw4-1"], bob], draw=draw)
    state.seats[ALICE].uno = True
    after, events = act(state, "play", ALICE, "draw4-1")
    assert after.phase == "round_over"
    assert len(hand(after, BOB)) == 9
    assert after.seats[ALICE].score == rules_points("standard", bob + draw) == 370
    result = after.round_results[-1]
    assert result["winner"] == ALICE and result["points"] == 370
    assert result["hands"] == {"0": [], "1": hand(after, BOB)}
    assert types(events)[-1] == "round_over"


def test_going_out_on_draw_two_counts_the_drawn_cards_in_the_score() -> None:
    state = position(
        hands=[["draw2-1"], ["wild-1"], ["wild-2"]], draw=["skip-1", "skip-2"], target_score=0
    )
    after, _ = act(state, "play", ALICE, "draw2-1")
    assert after.phase == "match_over" and after.winner == ALICE
    assert after.seats[ALICE].score == 40 + 30 + 30 + 40


def test_going_out_on_targeted_draw_two_counts_the_drawn_cards_in_the_score() -> None:
    state = position(
        hands=[["targeted_draw2-1"], ["wild-1"], ["wild-2"]], draw=["skip-1", "skip-2"]
    )
    after, _ = act(state, "play", ALICE, "targeted_draw2-1", CAROL)
    assert after.phase == "round_over"
    assert len(hand(after, CAROL)) == 3
    assert after.seats[ALICE].score == 40 + 40 + 30 + 30


@pytest.mark.parametrize("card", ["force_swap-1", "shuffle_hands-1"])
def test_force_swap_or_shuffle_hands_as_the_last_card_fizzles(card: str) -> None:
    bob = ["wild-1", "wild-2"]
    state = position(hands=[[card], bob, ["skip-1"]])
    assert [a for a in legal_actions(state, ALICE) if a.type == "play"] == [
        Action("play", ALICE, card)
    ]
    assert refusal(state, "play", ALICE, card, BOB) == "target_not_allowed"
    after, events = act(state, "play", ALICE, card)
    assert after.phase == "round_over" and after.round_results[-1]["winner"] == ALICE
    assert hand(after, ALICE) == [] and hand(after, BOB) == bob
    assert {"type": "fizzled", "seat": ALICE, "card_type": card_type(card)} in events
    assert "swap" not in types(events) and "hands_passed" not in types(events)


@pytest.mark.parametrize("card", ["skip-1", "reverse-1", "wild-1"])
def test_playing_the_last_card_wins_the_round_at_once(card: str) -> None:
    state = position(hands=[[card], ["wild-2", "wild-3"]])
    after, _ = act(state, "play", ALICE, card)
    assert after.phase == "round_over"
    assert after.round_results[-1]["winner"] == ALICE
    assert legal_actions(after, ALICE) == legal_actions(after, BOB) == []


def test_skip_two_as_the_last_card_wins_the_round() -> None:
    state = position("mattel_2021", [["skip_two-1"], ["wild-2", "draw2-1"]])
    after, _ = act(state, "play", ALICE, "skip_two-1")
    assert after.phase == "round_over"
    assert after.seats[ALICE].score == 20 + 50


# ---------------------------------------------------------------------------------------------
# Scoring and the match


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_winner_scores_every_card_left_in_the_other_hands(preset: str) -> None:
    kinds = sorted(PRESETS[preset].deck)
    bob = [f"{k}-1" for k in kinds]
    carol = [f"{k}-2" for k in kinds]
    state = position(preset, [["wild-9"], bob, carol])
    after, _ = act(state, "play", ALICE, "wild-9")
    expected = rules_points(preset, bob + carol)
    assert after.seats[ALICE].score == expected
    assert [s.score for s in after.seats] == [expected, 0, 0]
    assert after.round_results[-1]["scores"] == [expected, 0, 0]


def test_a_match_ends_when_the_rounds_winner_reaches_the_target() -> None:
    state = position(hands=[["wild-1"], ["draw4-1"], ["reverse-1"]], target_score=500)
    state.seats[ALICE].score = 430
    state.seats[BOB].score = 490
    after, events = act(state, "play", ALICE, "wild-1")
    assert after.phase == "match_over" and after.winner == ALICE
    assert after.seats[ALICE].score == 510
    assert events[-1] == {"type": "match_over", "winner": ALICE, "reason": "target_reached"}


def test_a_match_goes_on_while_nobody_reaches_the_target() -> None:
    state = position(hands=[["wild-1"], ["draw4-1"], ["reverse-1"]], target_score=500, round=3)
    state.seats[ALICE].score = 410
    after, _ = act(state, "play", ALICE, "wild-1")
    assert after.phase == "round_over" and after.winner is None
    assert after.seats[ALICE].score == 490
    assert refusal(after, "uno", BOB) == "round_over"


def test_target_zero_plays_a_single_round() -> None:
    state = position(hands=[["wild-1"], ["reverse-1"]], target_score=0)
    after, _ = act(state, "play", ALICE, "wild-1")
    assert after.phase == "match_over" and after.winner == ALICE
    assert after.seats[ALICE].score == 20
    assert refusal(after, "next_round") == "game_over"


def round_over_position(players: int, dealer: int, **fields: Any) -> State:
    hands = [[f"skip-{seat + 1}"] for seat in range(players)]
    hands[BOB] = []
    return position(hands=hands, dealer=dealer, phase="round_over", direction=-1, **fields)


@pytest.mark.parametrize(("dealer", "next_dealer"), [(0, 1), (2, 3), (3, 0)])
def test_the_deal_passes_one_seat_clockwise_each_round(dealer: int, next_dealer: int) -> None:
    state = round_over_position(4, dealer)
    state.seats[CAROL].score = 120
    order = deck_order("standard", 4, "wild")
    after, _ = act(state, "next_round", rng=scripted(None, order))
    assert after.round == 2 and after.dealer == next_dealer
    assert after.current == (next_dealer + 1) % 4
    assert after.direction == 1, "every round starts clockwise"
    assert after.phase == "play"
    for seat in range(4):
        assert hand(after, seat) == dealt_hand(order, 4, next_dealer, seat)
    assert after.seats[CAROL].score == 120, "scores carry over to the next round"


def test_the_deal_skips_a_seat_that_left() -> None:
    state = round_over_position(4, ALICE)
    state.seats[BOB].active = False
    order = deck_order("standard", 3, "wild")
    after, _ = act(state, "next_round", rng=scripted(None, order))
    assert after.dealer == CAROL and after.current == DAVE
    assert hand(after, BOB) == []
    assert [len(hand(after, s)) for s in (ALICE, CAROL, DAVE)] == [HAND] * 3


def test_next_round_resets_uno_catch_and_lost_turns() -> None:
    state = round_over_position(2, ALICE)
    state.seats[ALICE].uno = True
    state.seats[BOB].skips = 1
    after, _ = act(state, "next_round", rng=scripted(None, deck_order("standard", 2, "wild")))
    assert all(not s.uno and not s.exposed and s.skips == 0 for s in after.seats)


def test_next_round_is_refused_while_the_round_is_being_played() -> None:
    state = position(hands=[["wild-1", "wild-2"], ["wild-3"]])
    assert refusal(state, "next_round") == "round_in_progress"


@pytest.mark.parametrize(
    "action",
    [
        Action("play", ALICE, "wild-1"),
        Action("draw", BOB),
        Action("play_drawn", ALICE),
        Action("pass", ALICE),
        Action("uno", BOB),
        Action("catch", ALICE, target=BOB),
        Action("choose_target", ALICE, target=BOB),
        Action("timeout", ALICE),
        Action("leave", BOB),
        Action("next_round"),
    ],
)
def test_every_action_after_the_match_is_over_is_refused_with_game_over(action: Action) -> None:
    state = position(hands=[["wild-1"], ["wild-2"]], target_score=0)
    state, _ = act(state, "play", ALICE, "wild-1")
    assert state.phase == "match_over"
    assert refusal(state, action.type, action.seat, action.card, action.target) == "game_over"


def test_no_turn_or_catch_is_possible_once_the_round_has_ended() -> None:
    state = position(hands=[["wild-1"], ["wild-2"], ["wild-3", "wild-4"]])
    state.seats[BOB].exposed = True
    after, _ = act(state, "play", ALICE, "wild-1")
    assert after.phase == "round_over"
    assert refusal(after, "catch", CAROL, target=BOB) == "round_over"
    assert refusal(after, "uno", BOB) == "round_over"
    assert refusal(after, "draw", BOB) == "round_over"
    assert refusal(after, "timeout", BOB) == "round_over"


# ---------------------------------------------------------------------------------------------
# Drawing


def test_after_drawing_the_player_may_play_the_drawn_card() -> None:
    state = position(hands=[["wild-1", "wild-2"], ["wild-3"]], draw=["skip-1"])
    state, _ = act(state, "draw", ALICE)
    assert state.phase == "drawn" and state.drawn_card == "skip-1"
    assert "skip-1" in hand(state, ALICE)
    assert legal_actions(state, ALICE) == [
        Action("play_drawn", ALICE),
        Action("pass", ALICE),
    ]
    assert state.current == ALICE
    after, _ = act(state, "play_drawn", ALICE)
    assert after.discard_pile[0] == "skip-1"
    assert after.current == ALICE  # a Skip with two players: alice again
    assert hand(after, ALICE) == ["wild-1", "wild-2"]


def test_the_drawn_card_may_also_be_named_when_played() -> None:
    state = position(hands=[["wild-1", "wild-2"], ["wild-3"]], draw=["skip-1"])
    state, _ = act(state, "draw", ALICE)
    after, _ = apply(state, Action("play_drawn", ALICE, "skip-1"), NoChance())
    assert after.discard_pile[0] == "skip-1"
    assert refusal(state, "play_drawn", ALICE, "wild-1") == "must_play_drawn_card_or_pass"


def test_a_drawn_card_that_needs_a_target_takes_one() -> None:
    state = position(hands=[["wild-1"], ["wild-2"], ["wild-3"]], draw=["targeted_draw2-1"])
    state, _ = act(state, "draw", ALICE)
    assert refusal(state, "play_drawn", ALICE) == "target_required"
    after, _ = act(state, "play_drawn", ALICE, target=CAROL)
    assert len(hand(after, CAROL)) == 3 and after.current == BOB


def test_after_drawing_the_player_may_pass() -> None:
    state = position(hands=[["wild-1", "wild-2"], ["wild-3"], ["wild-4"]], draw=["skip-1"])
    state, _ = act(state, "draw", ALICE)
    after, events = act(state, "pass", ALICE)
    assert after.current == BOB and after.phase == "play" and after.drawn_card is None
    assert Counter(hand(after, ALICE)) == Counter(["skip-1", "wild-1", "wild-2"])


def test_playing_another_card_after_drawing_is_refused() -> None:
    state = position(hands=[["wild-1", "wild-2"], ["wild-3"]], draw=["skip-1"])
    state, _ = act(state, "draw", ALICE)
    assert refusal(state, "play", ALICE, "wild-1") == "must_play_drawn_card_or_pass"
    assert refusal(state, "play", ALICE, "skip-1") == "must_play_drawn_card_or_pass"
    assert refusal(state, "draw", ALICE) == "must_play_drawn_card_or_pass"


def test_pass_or_play_drawn_without_drawing_is_refused() -> None:
    state = position(hands=[["wild-1", "wild-2"], ["wild-3"]])
    assert refusal(state, "pass", ALICE) == "pass_not_allowed"
    assert refusal(state, "play_drawn", ALICE) == "nothing_drawn"


def test_playing_out_of_turn_or_a_card_not_held_is_refused() -> None:
    state = position(hands=[["wild-1", "wild-2"], ["wild-3", "wild-4"]])
    assert refusal(state, "play", BOB, "wild-3") == "not_your_turn"
    assert refusal(state, "draw", BOB) == "not_your_turn"
    assert refusal(state, "play", ALICE, "wild-3") == "card_not_in_hand"
    assert refusal(state, "play", ALICE, None) == "card_not_in_hand"
    assert refusal(state, "play", None, "wild-1") == "invalid_action"
    assert refusal(state, "play", 7, "wild-1") == "invalid_action"


def test_the_standard_preset_always_allows_a_voluntary_draw() -> None:
    state = position(hands=[["skip-1", "wild-1"], ["wild-2", "wild-3"]])
    assert Action("draw", ALICE) in legal_actions(state, ALICE)


@pytest.mark.parametrize(
    ("alice", "bob", "carol", "direction", "allowed"),
    [
        (["wild-1", "wild-2"], ["wild-3"], ["wild-4", "wild-5"], 1, True),
        (["wild-1"], ["wild-3"], ["wild-4", "wild-5"], 1, True),
        (["wild-1", "wild-2"], ["wild-3", "wild-6"], ["wild-4"], 1, False),
        (["wild-1", "skip-1"], ["wild-3"], ["wild-4", "wild-5"], 1, False),
        (["force_swap-1"], ["wild-3"], ["wild-4", "wild-5"], 1, False),
        (["wild-1", "wild-2"], ["wild-3"], ["wild-4", "wild-5"], -1, False),
        (["wild-1", "wild-2"], ["wild-3", "wild-6"], ["wild-4"], -1, True),
    ],
)
def test_mattel_2021_allows_a_draw_only_when_nothing_could_stop_a_next_player_on_one_card(
    alice: list[str], bob: list[str], carol: list[str], direction: int, allowed: bool
) -> None:
    state = position("mattel_2021", [alice, bob, carol], direction=direction)
    if allowed:
        after, _ = act(state, "draw", ALICE)
        assert after.phase == "drawn"
    else:
        assert refusal(state, "draw", ALICE) == "draw_not_allowed"


# ---------------------------------------------------------------------------------------------
# The draw pile


def test_an_empty_draw_pile_is_refilled_from_the_discards_except_the_top_card() -> None:
    old_discards = ["wild-28", "skip-1", "skip-2", "skip-3"]
    state = position(
        hands=[["draw2-1", "wild-1"], ["wild-2", "wild-3"], ["wild-4", "wild-5"]],
        draw=["reverse-1"],
        discard=old_discards,
        rest=CAROL,
    )
    after, events = act(state, "play", ALICE, "draw2-1", rng=random.Random(5))
    assert after.discard_pile == ["draw2-1"]
    bob_drew = set(hand(after, BOB)) - {"wild-2", "wild-3"}
    assert len(bob_drew) == 2 and "reverse-1" in bob_drew
    assert (bob_drew - {"reverse-1"}) < set(old_discards)
    assert Counter(after.draw_pile) + Counter(bob_drew - {"reverse-1"}) == Counter(old_discards)
    assert {"type": "reshuffled", "count": 4} in events
    assert after.current == CAROL


def test_when_even_the_discards_run_out_the_player_draws_what_exists() -> None:
    state = position(
        hands=[["draw4-1", "wild-1"], ["wild-2", "wild-3"], ["wild-4"]],
        draw=["reverse-1"],
        rest=CAROL,
    )
    top = state.discard_pile[0]
    after, events = act(state, "play", ALICE, "draw4-1", rng=random.Random(0))
    assert Counter(hand(after, BOB)) == Counter(["wild-2", "wild-3", "reverse-1", top])
    assert after.draw_pile == [] and after.discard_pile == ["draw4-1"]
    (drew,) = [e for e in events if e["type"] == "draw"]
    assert drew["count"] == 2 and drew["wanted"] == 4
    assert after.current == CAROL, "bob still loses his turn"


def test_a_voluntary_draw_is_refused_when_there_is_nothing_to_draw() -> None:
    for preset in sorted(PRESETS):
        state = position(preset, [["wild-1", "wild-2"], ["wild-3"]], rest=BOB)
        assert state.draw_pile == [] and len(state.discard_pile) == 1
        assert refusal(state, "draw", ALICE) == "nothing_to_draw"
        assert [a.type for a in legal_actions(state, ALICE)] == ["play", "play"]


def test_a_voluntary_draw_reshuffles_the_discards_when_only_the_draw_pile_is_empty() -> None:
    state = position(hands=[["wild-1", "wild-2"], ["wild-3"]], discard=["wild-4", "skip-1"], rest=1)
    after, events = act(state, "draw", ALICE, rng=random.Random(1))
    assert after.drawn_card == "skip-1" and after.discard_pile == ["wild-4"]
    assert "reshuffled" in types(events)


def test_a_catch_with_nothing_left_to_draw_still_settles_the_stint() -> None:
    state = position(hands=[["wild-1"], ["wild-2", "wild-3"], ["wild-4"]], current=BOB, rest=CAROL)
    state.seats[ALICE].exposed = True
    after, _ = act(state, "catch", BOB, target=ALICE)
    assert hand(after, ALICE) == ["wild-1"]
    assert refusal(after, "catch", CAROL, target=ALICE) == "nothing_to_catch"
    # Still on one card: the word may still be said, it just no longer matters.
    after, _ = act(after, "uno", ALICE)
    assert after.seats[ALICE].uno


# ---------------------------------------------------------------------------------------------
# Saying UNO and catching


def three_players(alice: list[str], **kw: Any) -> State:
    return position(hands=[alice, ["wild-10", "wild-11"], ["wild-12", "wild-13"]], **kw)


def test_saying_uno_with_the_play_protects_from_a_catch() -> None:
    state = three_players(["wild-1", "wild-2"])
    after, events = act(state, "play", ALICE, "wild-1", uno=True)
    assert after.seats[ALICE].uno and not after.seats[ALICE].exposed
    assert {"type": "uno", "seat": ALICE} in events
    assert refusal(after, "catch", BOB, target=ALICE) == "nothing_to_catch"
    assert refusal(after, "uno", ALICE) == "uno_not_allowed"


def test_uno_said_with_a_play_that_leaves_more_cards_does_nothing() -> None:
    state = three_players(["wild-1", "wild-2", "wild-3"])
    after, events = act(state, "play", ALICE, "wild-1", uno=True)
    assert not after.seats[ALICE].uno
    assert "uno" not in types(events)


def test_a_player_who_forgets_uno_is_caught_and_draws_two() -> None:
    state = three_players(["wild-1", "wild-2"], draw=["skip-1", "skip-2"])
    after, _ = act(state, "play", ALICE, "wild-1")
    assert after.seats[ALICE].exposed
    assert Action("catch", BOB, target=ALICE) in legal_actions(after, BOB)
    assert Action("catch", CAROL, target=ALICE) in legal_actions(after, CAROL)
    assert refusal(after, "catch", ALICE, target=ALICE) == "invalid_target"
    after, events = act(after, "catch", CAROL, target=ALICE)
    assert Counter(hand(after, ALICE)) == Counter(["wild-2", "skip-1", "skip-2"])
    assert {"type": "caught", "seat": CAROL, "target": ALICE} in events
    assert after.current == BOB, "a catch is no turn action"
    assert refusal(after, "catch", BOB, target=ALICE) == "nothing_to_catch"


def test_uno_may_be_said_late_until_someone_catches_first() -> None:
    state = three_players(["wild-1", "wild-2"])
    state, _ = act(state, "play", ALICE, "wild-1")
    after, _ = act(state, "uno", ALICE)
    assert after.seats[ALICE].uno
    assert refusal(after, "catch", BOB, target=ALICE) == "nothing_to_catch"
    caught, _ = act(state, "catch", BOB, target=ALICE)
    assert refusal(caught, "uno", ALICE) == "uno_not_allowed"


@pytest.mark.parametrize(
    ("target", "code"),
    [
        (None, "target_required"),
        (BOB, "invalid_target"),
        (-1, "invalid_target"),
        (3, "invalid_target"),
        (CAROL, "nothing_to_catch"),
        (ALICE, "nothing_to_catch"),
    ],
)
def test_a_wrong_catch_is_refused_without_penalty(target: int | None, code: str) -> None:
    # Alice said UNO; carol holds two cards.
    state = three_players(["wild-1"], current=BOB)
    state.seats[ALICE].uno = True
    assert refusal(state, "catch", BOB, target=target) == code


def test_uno_is_refused_without_exactly_one_card() -> None:
    state = three_players(["wild-1", "wild-2"])
    assert refusal(state, "uno", ALICE) == "uno_not_allowed"
    assert refusal(state, "uno", BOB) == "uno_not_allowed"


def test_uno_said_with_a_force_swap_counts_when_one_card_comes_back() -> None:
    # Scenario 1 of the rulebook: alice swaps her 7 remaining cards for bob's single card.
    alice = ["force_swap-1", *wilds(1, 7)]
    hands = [alice, ["skip-1"], wilds(8, 6), wilds(14, 5)]
    state = position(hands=hands)
    state.seats[BOB].uno = True
    after, _ = act(state, "play", ALICE, "force_swap-1", BOB, uno=True)
    assert hand(after, ALICE) == ["skip-1"] and after.seats[ALICE].uno
    assert hand(after, BOB) == wilds(1, 7) and not after.seats[BOB].uno
    assert refusal(after, "catch", CAROL, target=ALICE) == "nothing_to_catch"


def test_a_one_for_one_swap_cancels_an_earlier_uno() -> None:
    state = position(hands=[["force_swap-1", "wild-1"], ["wild-10"], ["wild-11", "wild-12"]])
    state.seats[BOB].uno = True
    after, _ = act(state, "play", ALICE, "force_swap-1", BOB)
    assert hand(after, ALICE) == ["wild-10"] and hand(after, BOB) == ["wild-1"]
    assert not after.seats[BOB].uno, "bob holds one card again after a change: say it again"
    assert Action("catch", CAROL, target=BOB) in legal_actions(after, CAROL)
    assert Action("catch", CAROL, target=ALICE) in legal_actions(after, CAROL)
    after, _ = act(after, "uno", BOB)
    assert after.seats[BOB].uno


def test_uno_said_with_shuffle_hands_counts_when_one_card_comes_back() -> None:
    hands = [["shuffle_hands-1", "wild-1", "wild-2"], ["wild-3", "wild-4"], ["wild-5"]]
    state = position(hands=hands)
    after, _ = act(state, "play", ALICE, "shuffle_hands-1", uno=True)
    assert hand(after, ALICE) == ["wild-5"] and after.seats[ALICE].uno
    assert hand(after, CAROL) == ["wild-3", "wild-4"]


def test_uno_said_with_the_drawn_card_counts() -> None:
    state = position(hands=[["wild-1"], ["wild-2", "wild-3"]], draw=["skip-1"])
    state, _ = act(state, "draw", ALICE)
    after, _ = act(state, "play_drawn", ALICE, uno=True)
    assert hand(after, ALICE) == ["wild-1"] and after.seats[ALICE].uno


def test_any_draw_cancels_an_earlier_uno() -> None:
    state = position(hands=[["wild-1"], ["wild-2", "wild-3"]], draw=["skip-1"])
    state.seats[ALICE].uno = True
    after, _ = act(state, "draw", ALICE)
    assert not after.seats[ALICE].uno
    after, _ = act(after, "play_drawn", ALICE)
    assert hand(after, ALICE) == ["wild-1"] and not after.seats[ALICE].uno
    assert after.seats[ALICE].exposed


def test_the_catch_window_closes_when_the_next_player_plays() -> None:
    state = three_players(["wild-1", "wild-2"])
    state, _ = act(state, "play", ALICE, "wild-1")
    after, _ = act(state, "play", BOB, "wild-10")
    assert hand(after, ALICE) == ["wild-2"] and not after.seats[ALICE].uno
    assert refusal(after, "catch", CAROL, target=ALICE) == "nothing_to_catch"
    assert not view(after, CAROL)["seats"][ALICE]["catchable"]
    # The late word is still allowed.
    after, _ = act(after, "uno", ALICE)
    assert after.seats[ALICE].uno


def test_the_catch_window_closes_when_the_next_player_draws() -> None:
    state = three_players(["wild-1", "wild-2"])
    state, _ = act(state, "play", ALICE, "wild-1")
    after, _ = act(state, "draw", BOB)
    assert refusal(after, "catch", CAROL, target=ALICE) == "nothing_to_catch"


def test_the_catch_window_closes_with_a_timeout() -> None:
    state = three_players(["wild-1", "wild-2"])
    state, _ = act(state, "play", ALICE, "wild-1")
    after, _ = act(state, "timeout", BOB)
    assert refusal(after, "catch", CAROL, target=ALICE) == "nothing_to_catch"


def test_a_timeout_closes_the_window_even_when_nothing_is_drawn() -> None:
    # Alice is on one card and it is her turn again; nothing is left to draw.
    state = position(hands=[["wild-1"], ["wild-2"]], rest=BOB)
    state.seats[ALICE].exposed = True
    assert Action("catch", BOB, target=ALICE) in legal_actions(state, BOB)
    after, _ = act(state, "timeout", ALICE)
    assert hand(after, ALICE) == ["wild-1"] and after.current == BOB
    assert refusal(after, "catch", BOB, target=ALICE) == "nothing_to_catch"


def test_the_catch_window_closes_when_the_same_player_acts_again_after_a_skip() -> None:
    state = position(hands=[["skip-1", "wild-1"], ["wild-2", "wild-3"]], draw=["wild-4"])
    state, _ = act(state, "play", ALICE, "skip-1")
    assert state.current == ALICE and state.seats[ALICE].exposed
    assert Action("catch", BOB, target=ALICE) in legal_actions(state, BOB)
    after, _ = act(state, "draw", ALICE)  # her next turn action, though the same player
    assert not after.seats[ALICE].exposed
    assert refusal(after, "catch", BOB, target=ALICE) == "nothing_to_catch"
    after, _ = act(after, "pass", ALICE)
    assert refusal(after, "catch", BOB, target=ALICE) == "nothing_to_catch"


def test_forced_draws_uno_words_and_catches_leave_the_catch_window_open() -> None:
    hands = [["wild-1"], ["wild-2", "wild-3"], ["wild-4"], ["wild-5"]]
    state = position(hands=hands, current=BOB)
    state.seats[ALICE].exposed = True
    state.seats[DAVE].exposed = True
    state, _ = act(state, "uno", CAROL)  # a late word from carol
    state, _ = act(state, "catch", BOB, target=DAVE)  # a catch and its forced draw
    assert len(hand(state, DAVE)) == 3
    assert Action("catch", BOB, target=ALICE) in legal_actions(state, BOB)
    state, _ = act(state, "catch", DAVE, target=ALICE)
    assert len(hand(state, ALICE)) == 3


def chooser_on_one_card() -> State:
    """Alice holds one card, has not said UNO, and owes the target of an opening Targeted Draw 2
    (a constructed position: the blind-play house rule will make it reachable)."""
    state = position(
        hands=[["wild-1"], ["wild-2", "wild-3"], ["wild-4", "wild-5"]],
        discard=["targeted_draw2-1"],
        phase="choose",
        pending={
            "seat": ALICE,
            "card": "targeted_draw2-1",
            "effect": "targeted_draw2",
            "reason": "opening",
            "uno": False,
        },
    )
    state.seats[ALICE].exposed = True
    return state


def test_a_player_whose_card_waits_for_a_target_cannot_be_caught_until_it_resolves() -> None:
    state = chooser_on_one_card()
    assert refusal(state, "catch", BOB, target=ALICE) == "nothing_to_catch"
    after, _ = act(state, "choose_target", ALICE, target=CAROL)
    assert len(hand(after, CAROL)) == 4
    assert Action("catch", BOB, target=ALICE) in legal_actions(after, BOB)


def test_the_view_does_not_show_a_pending_chooser_as_catchable() -> None:
    state = chooser_on_one_card()
    assert view(state, BOB)["seats"][ALICE]["catchable"] is False
    after, _ = act(state, "choose_target", ALICE, target=CAROL)
    assert view(after, BOB)["seats"][ALICE]["catchable"] is True


def test_force_swap_protection_refuses_a_target_holding_one_card() -> None:
    hands = [["force_swap-1", "wild-1"], ["wild-2"], ["wild-3", "wild-4"]]
    state = position(hands=hands, options={"force_swap_protection": True})
    assert refusal(state, "play", ALICE, "force_swap-1", BOB) == "target_protected"
    assert [a.target for a in legal_actions(state, ALICE) if a.card == "force_swap-1"] == [CAROL]
    unprotected = position(hands=hands)
    after, _ = act(unprotected, "play", ALICE, "force_swap-1", BOB)
    assert hand(after, ALICE) == ["wild-2"]


def test_force_swap_protection_with_every_other_player_on_one_card_swaps_nothing() -> None:
    hands = [["force_swap-1", "wild-1"], ["wild-2"], ["wild-3"]]
    state = position(hands=hands, options={"force_swap_protection": True})
    assert [a for a in legal_actions(state, ALICE) if a.card == "force_swap-1"] == [
        Action("play", ALICE, "force_swap-1")
    ]
    assert refusal(state, "play", ALICE, "force_swap-1", BOB) == "target_protected"
    assert refusal(state, "play", ALICE, "force_swap-1", ALICE) in (
        "target_not_allowed",
        "invalid_target",
    )
    after, events = act(state, "play", ALICE, "force_swap-1")
    assert hand(after, ALICE) == ["wild-1"] and hand(after, BOB) == ["wild-2"]
    assert {"type": "no_effect", "seat": ALICE, "card_type": "force_swap"} in events
    assert after.current == BOB


# ---------------------------------------------------------------------------------------------
# Timeouts


def test_a_timeout_draws_one_card_and_passes_the_turn() -> None:
    state = three_players(["wild-1", "wild-2"], draw=["skip-1"])
    after, events = act(state, "timeout", ALICE)
    assert Counter(hand(after, ALICE)) == Counter(["skip-1", "wild-1", "wild-2"])
    assert after.current == BOB and after.phase == "play"
    assert "timeout" in types(events)


def test_a_timeout_draws_even_where_mattel_2021_forbids_a_voluntary_draw() -> None:
    state = position("mattel_2021", [["skip-1", "wild-1"], ["wild-2", "wild-3"]])
    assert refusal(state, "draw", ALICE) == "draw_not_allowed"
    after, _ = act(state, "timeout", ALICE)
    assert len(hand(after, ALICE)) == 3 and after.current == BOB


def test_a_timeout_after_drawing_just_passes_the_turn() -> None:
    state = three_players(["wild-1", "wild-2"], draw=["skip-1", "skip-2"])
    state, _ = act(state, "draw", ALICE)
    after, _ = act(state, "timeout", ALICE)
    assert Counter(hand(after, ALICE)) == Counter(["skip-1", "wild-1", "wild-2"])
    assert after.current == BOB and after.drawn_card is None


def test_a_timeout_is_refused_for_a_seat_whose_turn_it_is_not() -> None:
    state = three_players(["wild-1", "wild-2"])
    assert refusal(state, "timeout", BOB) == "not_your_turn"


# ---------------------------------------------------------------------------------------------
# Leaving


def four_players(**kw: Any) -> State:
    hands = [
        ["wild-1", "wild-2", "reverse-1"],
        ["wild-3", "wild-4"],
        ["skip-1", "skip-2", "skip-3"],
        ["wild-5", "wild-6"],
    ]
    return position(hands=hands, **kw)


def test_a_leaving_players_hand_goes_under_the_draw_pile() -> None:
    state = four_players()
    after, events = act(state, "leave", CAROL)
    assert after.draw_pile[-3:] == ["skip-1", "skip-2", "skip-3"]
    assert after.draw_pile[:-3] == state.draw_pile
    assert hand(after, CAROL) == [] and not after.seats[CAROL].active
    assert after.current == ALICE
    # The cards are nobody's business: no seat learns them from the event.
    for seat in range(4):
        assert "cards" not in visible_events(events, seat)[0]


def test_a_seat_that_left_is_skipped_for_turns_and_targets_and_cannot_act() -> None:
    state = four_players()
    state, _ = act(state, "leave", BOB)
    after, _ = act(state, "play", ALICE, "wild-1")
    assert after.current == CAROL
    assert legal_actions(state, BOB) == []
    assert refusal(state, "uno", BOB) == "not_in_round"
    assert refusal(state, "leave", BOB) == "not_in_round"
    assert refusal(state, "catch", BOB, target=ALICE) == "not_in_round"
    state.seats[ALICE].hand.insert(0, "targeted_draw2-1")
    state.draw_pile.remove("targeted_draw2-1")
    assert refusal(state, "play", ALICE, "targeted_draw2-1", BOB) == "invalid_target"


def test_when_the_player_to_move_leaves_the_turn_passes_on() -> None:
    state = four_players()
    after, _ = act(state, "leave", ALICE)
    assert after.current == BOB and after.phase == "play"


def test_a_player_who_leaves_after_drawing_takes_the_drawn_card_under_the_pile() -> None:
    state = four_players(draw=["draw4-1"])
    state, _ = act(state, "draw", ALICE)
    after, _ = act(state, "leave", ALICE)
    assert after.current == BOB and after.phase == "play" and after.drawn_card is None
    assert "draw4-1" in after.draw_pile[-4:]


def test_a_chooser_who_leaves_drops_the_choice_and_the_turn_passes() -> None:
    state = chooser_on_one_card()
    after, _ = act(state, "leave", ALICE)
    assert after.pending is None and after.phase == "play" and after.current == BOB


def test_with_two_players_left_the_two_player_rules_apply() -> None:
    state = four_players()
    state, _ = act(state, "leave", BOB)
    state, _ = act(state, "leave", DAVE)
    after, _ = act(state, "play", ALICE, "reverse-1")
    assert after.current == ALICE, "a Reverse with two players acts as a Skip"


def test_shuffle_hands_skips_seats_that_left() -> None:
    hands = [["shuffle_hands-1", "wild-1"], ["wild-2"], ["wild-3"], ["wild-4"]]
    state = position(hands=hands)
    state, _ = act(state, "leave", CAROL)
    after, _ = act(state, "play", ALICE, "shuffle_hands-1")
    assert [hand(after, s) for s in range(4)] == [["wild-4"], ["wild-1"], [], ["wild-2"]]


def test_the_last_player_left_wins_the_match_and_the_round_scores_nothing() -> None:
    state = position(hands=[["wild-1", "wild-2"], ["draw4-1", "draw4-2"], ["skip-1"]])
    state.seats[BOB].score = 80
    state, _ = act(state, "leave", CAROL)
    after, events = act(state, "leave", ALICE)
    assert after.phase == "match_over" and after.winner == BOB
    assert [s.score for s in after.seats] == [0, 80, 0]
    assert after.round_results == []
    assert events[-1] == {"type": "match_over", "winner": BOB, "reason": "last_player_left"}
    assert refusal(after, "play", BOB, "draw4-1") == "game_over"


def test_leaving_between_rounds_ends_the_match_when_one_player_is_left() -> None:
    state = round_over_position(2, ALICE)
    after, _ = act(state, "leave", BOB)
    assert after.phase == "match_over" and after.winner == ALICE


# ---------------------------------------------------------------------------------------------
# Views


def test_a_seat_sees_its_own_hand_and_only_the_sizes_of_the_others() -> None:
    state = four_players()
    seen = view(state, BOB)
    assert [c["id"] for c in seen["hand"]] == hand(state, BOB)
    assert [s["hand_size"] for s in seen["seats"]] == [3, 2, 3, 2]
    text = repr(seen)
    for seat in (ALICE, CAROL, DAVE):
        assert not any(f"'{c}'" in text for c in hand(state, seat))
    assert not any(f"'{c}'" in text for c in state.draw_pile)
    assert seen["draw_size"] == len(state.draw_pile)
    assert seen["legal_actions"] == []  # not bob's turn, nothing to catch
    assert view(state, ALICE)["legal_actions"] == [a.to_dict() for a in legal_actions(state, 0)]


def test_only_the_drawer_sees_the_drawn_card() -> None:
    state = four_players(draw=["draw4-1"])
    after, events = act(state, "draw", ALICE)
    assert view(after, ALICE)["drawn_card"] == {"id": "draw4-1", "type": "draw4"}
    assert view(after, BOB)["drawn_card"] is None
    (mine,) = [e for e in visible_events(events, ALICE) if e["type"] == "draw"]
    (theirs,) = [e for e in visible_events(events, BOB) if e["type"] == "draw"]
    assert mine["cards"] == ["draw4-1"]
    assert "cards" not in theirs and theirs["count"] == 1
    assert "draw4-1" in str(moderator_view(after))


def test_no_seat_sees_chance_events() -> None:
    _, events = new_game(players=3, rng=random.Random(3))
    assert any(e["type"] == "chance" for e in events)
    for seat in range(3):
        assert all(e["type"] != "chance" for e in visible_events(events, seat))
    assert any(e["type"] == "chance" for e in visible_events(events, None))


def test_actions_round_trip_through_their_json_form() -> None:
    for action in (
        Action("play", ALICE, "wild-1", BOB, uno=True),
        Action("draw", BOB),
        Action("next_round"),
        Action("catch", CAROL, target=DAVE),
    ):
        assert Action.from_dict(action.to_dict()) == action
    for bad in ({"type": "fly"}, {"type": "play", "seat": True}, [], {"type": "uno", "x": 1}):
        with pytest.raises(EngineError) as info:
            Action.from_dict(bad)
        assert info.value.code == "invalid_action"


# ---------------------------------------------------------------------------------------------
# What leaves the engine shares nothing with the state


def round_just_won() -> State:
    state = position(hands=[["wild-1"], ["wild-2", "wild-3"]])
    after, _ = act(state, "play", ALICE, "wild-1")
    return after


def test_changing_a_view_leaves_the_state_untouched() -> None:
    state = round_just_won()
    before = state.to_dict()
    seen = view(state, BOB)
    seen["round_results"][0]["hands"]["1"].clear()
    seen["round_results"][0]["scores"][ALICE] = 0
    assert state.to_dict() == before


def test_changing_the_events_leaves_the_new_state_untouched() -> None:
    state = position(hands=[["wild-1"], ["wild-2", "wild-3"]])
    after, events = act(state, "play", ALICE, "wild-1")
    before = after.to_dict()
    (over,) = [e for e in visible_events(events, BOB) if e["type"] == "round_over"]
    over["hands"]["1"].clear()
    over["scores"][ALICE] = 0
    assert after.to_dict() == before


def test_the_view_of_a_seat_that_does_not_exist_shows_no_hand() -> None:
    state = position(hands=[["wild-1"], ["wild-2", "wild-3"]])
    for seat in (-1, 2):
        try:
            seen = view(state, seat)
        except (EngineError, IndexError):
            continue
        assert seen["hand"] == [], f"view({seat}) shows {seen['hand']}"
