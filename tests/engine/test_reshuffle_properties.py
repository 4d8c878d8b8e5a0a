"""The draw pile's reshuffle over random playouts: whatever drew the card (a catch penalty, a stack,
a timeout, drawing until playable, a Roulette, a Draw card), the new pile holds every card that was
neither in a hand nor the top discard: every discard under the top card and, in No Mercy, every
hand set aside by a knockout (rulings: uno_no_mercy.md, "Draw pile"; RULES.md, "Draw pile").

Random games seldom empty the pile (No Mercy's 168 cards hardly ever), so each playout starts
from a dealt round whose pile is cut to a few cards, the rest put under the top discard; in No
Mercy some seats are knocked out first, their hands set aside; one player holds a single card
without having said UNO, and random players catch whenever they can. The check reads the pile
the engine shuffled from the ``chance`` event before ``reshuffled`` and rebuilds the hands of
that moment from the state after the action (see ``check_reshuffles``).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.registry import get_game
from games.engine.uno.actions import Action
from games.engine.uno.state import State

from .playout import Event, pick_action

UNO_GAMES = ("uno_no_mercy", "uno_splash", "uno_all_wild")


def drawn_cards(event: Event) -> list[str]:
    """The cards of a ``draw`` event: secret to the drawer, or face up (a Roulette's reveal)."""
    cards: list[str] = event.get("secret", {}).get("cards", event.get("cards", []))
    return cards


def check_reshuffles(before: State, action: Action, after: State, events: list[Event]) -> None:
    """At a reshuffle the draw pile is empty; the new pile (the ``chance`` shuffle just before the
    ``reshuffled`` event) must be the whole deck but the hands and the top discard of that moment.

    Those hands are rebuilt from ``after``: every hand, plus the hands set aside after the
    reshuffle (a knockout ends the draw that caused it), less the cards drawn from the new pile
    (the draw events after it, less the cards the old pile held when the action began: with the
    pile empty at the reshuffle, they had all been drawn). Anything set aside after the action
    must come from a knockout after the reshuffle: a set-aside hand left out of it stays behind.
    Between the reshuffle and the end of the action no card is played, so the top is ``after``'s.
    """
    marks = [i for i, e in enumerate(events) if e["type"] == "reshuffled"]
    if not marks:
        return
    assert len(marks) == 1, f"{action}: two reshuffles in one action (nothing left to reshuffle)"
    mark = marks[0]
    shuffled = events[mark - 1]
    assert shuffled["type"] == "chance" and shuffled["kind"] == "shuffle", events[mark - 1]
    new_pile = Counter(shuffled["order"])
    assert events[mark]["count"] == sum(new_pile.values())
    later = events[mark + 1 :]
    old_pile = set(before.draw_pile)
    from_new_pile = Counter(
        card
        for e in later
        if e["type"] == "draw"
        for card in drawn_cards(e)
        if card not in old_pile
    )
    hands = Counter(card for seat in after.seats for card in seat.hand)
    hands_then = hands + Counter(after.set_aside) - from_new_pile
    deck = Counter(get_game(after.game).deck(after.preset))
    expected = deck - hands_then - Counter(after.discard_pile[:1])
    assert new_pile == expected, (
        f"after {action}: the new pile lacks {sorted((expected - new_pile).elements())}"
        f" and holds {sorted((new_pile - expected).elements())} besides"
    )
    knocked_later = sum(e["count"] for e in later if e["type"] == "knocked_out")
    assert len(after.set_aside) == knocked_later, (
        f"after {action}: {len(after.set_aside) - knocked_later} set-aside cards left out"
    )
    assert after.discard_pile == after.discard_pile[:1], f"after {action}: discards left out"


@dataclass(frozen=True)
class Short:
    """A dealt round of ``game`` whose draw pile is cut to ``pile`` cards (the rest under the top
    discard), with ``knocked`` seats knocked out (No Mercy) and one seat on one card, no UNO."""

    game: str
    seed: int
    players: int
    knocked: int
    pile: int

    def start(self) -> tuple[State, random.Random]:
        rng = random.Random(self.seed)
        game = get_game(self.game)
        state, _ = game.new_game(
            players=self.players, rng=rng, preset=game.default_preset, options={}, target_score=0
        )
        s: State = state.copy()
        rest = s.draw_pile[self.pile :]
        s.draw_pile = s.draw_pile[: self.pile]
        s.discard_pile = [s.discard_pile[0], *rest, *s.discard_pile[1:]]
        busy = {s.current, s.pending["seat"] if s.pending else s.current}
        idle = [i for i in range(self.players) if i not in busy]
        rng.shuffle(idle)
        if self.game == "uno_no_mercy":
            for seat in idle[: self.knocked]:
                s.set_aside = [*s.seats[seat].hand, *s.set_aside]
                s.seats[seat].hand = []
                s.seats[seat].active = False
                s.knocked_out = [*s.knocked_out, seat]
            idle = idle[self.knocked :]
        if idle:  # one card left and UNO not said: the first catch draws from the short pile
            me = s.seats[idle[0]]
            s.discard_pile = [s.discard_pile[0], *me.hand[1:], *s.discard_pile[1:]]
            me.hand = me.hand[:1]
            me.exposed = True
        return s, rng


def shorts() -> st.SearchStrategy[Short]:
    return st.builds(
        lambda game, seed, players, knocked, pile: Short(
            game, seed, players, min(knocked, players - 2), pile
        ),
        # No Mercy twice as often: only it sets hands aside.
        game=st.sampled_from(("uno_no_mercy", *UNO_GAMES)),
        seed=st.integers(min_value=0, max_value=2**32 - 1),
        players=st.integers(min_value=3, max_value=6),
        knocked=st.integers(min_value=1, max_value=3),
        pile=st.integers(min_value=0, max_value=2),
    )


def play_out(short: Short, steps: int = 150) -> list[tuple[State, Action, State, list[Event]]]:
    """Random legal actions from ``short``'s position to the end of the round (at most
    ``steps``): a catch whenever one is listed, a timeout now and then; each step is checked."""
    state, rng = short.start()
    game = get_game(short.game)
    played = []
    for _ in range(steps):
        if state.phase in ("round_over", "match_over"):
            break
        catches = [
            a
            for seat in range(len(state.seats))
            for a in game.legal_actions(state, seat)
            if a.type == "catch"
        ]
        if catches:
            action = rng.choice(catches)
        elif rng.random() < 0.05:
            action = Action("timeout", seat=state.current)
        else:
            action = pick_action(state, rng, game=game, prefer_plays=True)
        new, events = game.apply(state, action, rng)
        check_reshuffles(state, action, new, events)
        played.append((state, action, new, events))
        state = new
    return played


@settings(max_examples=100)
@given(short=shorts())
def test_a_reshuffle_takes_every_card_neither_in_a_hand_nor_on_top(short: Short) -> None:
    play_out(short)


def test_catch_penalties_reshuffle_set_aside_hands_in_these_seeded_playouts() -> None:
    """The property above meets what issue 29 was about (not left to chance): catch penalties
    that reshuffle set-aside hands, and reshuffles by the other draws of No Mercy."""
    reasons: Counter[str] = Counter()
    for seed in range(40):
        short = Short("uno_no_mercy", seed, 3 + seed % 4, 1 + seed % 2, seed % 3)
        for before, _, _, events in play_out(short):
            types = [e["type"] for e in events]
            if "reshuffled" not in types:
                continue
            draw = next(e for e in events[types.index("reshuffled") :] if e["type"] == "draw")
            reasons[draw["reason"]] += 1
            if before.set_aside:
                reasons["with set-aside hands, " + draw["reason"]] += 1
    assert reasons["with set-aside hands, caught"] > 0, reasons
    assert set(reasons) - {"caught", "with set-aside hands, caught"}, reasons
