"""A second opinion: Uno Splash in lockstep with RLCard's ``UnoGame`` (rlcard 1.2.0) from the
same deal, on the rules the two share.

RLCard deals; the same hands, draw pile (in the same order) and opening card become a Uno Splash
state (seat 0 starts, so the dealer is the last seat), and our opening card applies to it. Then,
action after action, RLCard's legal actions are compared with ours, one of them is played in both
games, and the two tables are compared: every hand (card by card, through a map from RLCard's card
objects to our card ids), the draw pile in order, the discard pile, the colour in force, whose turn
it is, the direction, and whether the round is over.

Left out, because the rules differ (shared/rules/uno_splash.md, "Where RLCard's UNO differs"):

- RLCard lists only what its players may do: a Wild Draw Four only when nothing else is playable,
  the draw only when nothing is playable. We list more (drawing while able to play, a bluffed Wild
  Draw Four), so the test checks that RLCard's list is ours narrowed by exactly those two rules,
  and plays only RLCard's choices.
- The Wild Draw Four's challenge: RLCard has none, so its Wild Draw Four is our play followed by
  the next player's ``accept`` (RLCard only allows a legal one, which a challenge could not beat).
- After a draw RLCard plays the drawn card by itself when it is a wild (with a random colour: we
  play it with the same colour) or has the colour in force, and keeps it otherwise, even when it
  matches by number or symbol (we ``pass``). A drawn Wild Draw Four RLCard plays as a plain Wild,
  without its +4: the lockstep stops before such a draw.
- 2-player Reverse: RLCard passes the turn, we skip the opponent. The lockstep stops before one
  is played or drawn.
- An opening Draw Two: RLCard's first player draws 2 and still plays; ours is skipped. Such deals
  are left out. An opening Wild: RLCard picks the colour at random, our first player names it: we
  name RLCard's colour. An opening Wild Draw Four: RLCard puts it back and reshuffles with its own
  generator before we see the deal, so the deal we build already has the card that stayed.
- Reshuffles: RLCard puts the top card back into the new pile too and shuffles with its own
  generator. The lockstep stops before any draw the draw pile cannot cover.
- UNO and catching, points, the match, timeouts and leaving: RLCard has none. Our ``uno`` and
  ``catch`` actions are never played and not compared.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import numpy as np
import pytest
from rlcard.games.uno.game import UnoGame

from games.engine.uno.actions import Action
from games.engine.uno.splash.cards import COLOUR_OF, PRESETS, RANK_OF
from games.engine.uno.splash.game import SPLASH
from games.engine.uno.splash.rules import opening
from games.engine.uno.state import CHOOSE, CLOCKWISE, RESPOND, Seat, State

COLOUR = {"r": "red", "g": "green", "b": "blue", "y": "yellow"}
RANK = {"draw_2": "draw2", "wild": "wild", "wild_draw_4": "wd4"}  # other traits are our ranks


class Lockstep:
    """One RLCard game and our state beside it, with the card map between them."""

    def __init__(self, seed: int, players: int) -> None:
        self.rl = UnoGame(num_players=players)
        self.rl.np_random = np.random.RandomState(seed)
        self.rl.init_game()
        self.rng = random.Random(seed)
        self.ids: dict[int, str] = {}  # id() of an RLCard card -> our card id
        free = list(PRESETS["classic"].card_ids)
        for card in self._every_rl_card():
            kind = self._type(card)
            our = next(c for c in free if _our_type(c) == kind)
            free.remove(our)
            self.ids[id(card)] = our
        assert not free, "RLCard's deck is not our 108 cards"
        self.state = self._our_deal()

    def _every_rl_card(self) -> list[Any]:
        round_ = self.rl.round
        return (
            [c for p in self.rl.players for c in p.hand] + round_.dealer.deck + round_.played_cards
        )

    @staticmethod
    def _type(card: Any) -> tuple[str | None, str]:
        rank = RANK.get(card.trait, card.trait)
        return (None if card.type == "wild" else COLOUR[card.color], rank)

    def our(self, card: Any) -> str:
        return self.ids[id(card)]

    def _our_deal(self) -> State:
        n = self.rl.num_players
        round_ = self.rl.round
        top = self.our(round_.target)
        state = State(
            preset="classic",
            seats=[Seat(hand=[self.our(c) for c in p.hand][::-1]) for p in self.rl.players],
            draw_pile=[self.our(c) for c in reversed(round_.dealer.deck)],
            discard_pile=[top],
            options=SPLASH.validate_options({}),
            target_score=0,
            dealer=n - 1,
            current=0,
            game="uno_splash",
        )
        opening(state, 0, top, self.rng, [])
        if state.phase == CHOOSE:  # an opening Wild: we name the colour RLCard drew
            action = Action("choose_colour", 0, colour=COLOUR[round_.target.color])
            state, _ = SPLASH.apply(state, action, self.rng)
        return state

    def apply(self, action: Action) -> State:
        self.state, _ = SPLASH.apply(self.state, action, self.rng)
        return self.state

    # -----------------------------------------------------------------------------------------

    def expected_rl_legal(self) -> set[str]:
        """Our legal turn actions narrowed by RLCard's two rules, in RLCard's action strings."""
        seat = self.state.current
        plays = [a for a in SPLASH.legal_actions(self.state, seat) if a.type == "play" and a.card]
        rl = {self._rl_string(a) for a in plays}
        wd4 = {s for s in rl if s.endswith("wild_draw_4")}
        if rl - wd4:
            return rl - wd4
        return wd4 or {"draw"}

    @staticmethod
    def _rl_string(action: Action) -> str:
        assert action.card is not None
        colour = action.colour or COLOUR_OF[action.card]
        assert colour is not None
        trait = {v: k for k, v in RANK.items()}.get(RANK_OF[action.card], RANK_OF[action.card])
        return f"{colour[0]}-{trait}"

    def step(self, move: str) -> bool:
        """Play RLCard's ``move`` in both games; False (nothing played) when the rules part here."""
        rl, seat = self.rl, self.state.current
        deck = rl.round.dealer.deck
        if move == "draw":
            if not deck or deck[-1].trait == "wild_draw_4":
                return False  # a reshuffle, or a drawn Wild Draw Four played as a plain Wild
            if deck[-1].trait == "reverse" and rl.num_players == 2:
                return False  # RLCard may play it by itself, as no Skip
            drawn = self.our(deck[-1])
            rl.step(move)
            self.apply(Action("draw", seat))
            if self.state.phase == "drawn":
                if rl.round.played_cards and self.our(rl.round.played_cards[-1]) == drawn:
                    colour = COLOUR[rl.round.target.color] if COLOUR_OF[drawn] is None else None
                    self.apply(Action("play_drawn", seat, colour=colour))
                else:
                    self.apply(Action("pass", seat))
            return True
        colour_code, trait = move.split("-", 1)
        if trait == "reverse" and rl.num_players == 2:
            return False
        if DRAWS.get(trait, 0) > len(deck):
            return False  # RLCard would reshuffle first
        hand = rl.players[rl.round.current_player].hand
        wild = trait in ("wild", "wild_draw_4")
        card = next(c for c in hand if c.trait == trait and (wild or c.color == colour_code))
        our = self.our(card)
        rl.step(move)
        self.apply(Action("play", seat, our, colour=COLOUR[colour_code] if wild else None))
        if self.state.phase == RESPOND:
            self.apply(Action("accept", self.state.current))
        return True

    def compare(self) -> None:
        rl, s = self.rl, self.state
        round_ = rl.round
        for i, player in enumerate(rl.players):
            assert Counter(s.seats[i].hand) == Counter(self.our(c) for c in player.hand), i
        assert s.draw_pile == [self.our(c) for c in reversed(round_.dealer.deck)]
        assert s.discard_pile == [self.our(c) for c in reversed(round_.played_cards)]
        assert s.discard_pile[0] == self.our(round_.target)
        colour = COLOUR_OF[s.discard_pile[0]] or s.colour
        assert colour == COLOUR[round_.target.color]
        over = SPLASH.to_move(s) is None  # target 0: the round's end is the match's
        assert over == round_.is_over
        if not round_.is_over:
            assert s.current == round_.current_player
            assert s.direction == (CLOCKWISE if round_.direction == 1 else -1)


DRAWS = {"draw_2": 2, "wild_draw_4": 4}


def _our_type(card: str) -> tuple[str | None, str]:
    return (COLOUR_OF[card], RANK_OF[card])


def play_lockstep(seed: int, players: int) -> int:
    """Play one RLCard round in lockstep; return the actions played in both (0: deal left out)."""
    game = Lockstep(seed, players)
    if game.rl.round.target.trait == "draw_2":
        return 0
    game.compare()
    played = 0
    while not game.rl.is_over():
        legal = set(game.rl.get_legal_actions())
        assert legal == game.expected_rl_legal(), f"seed {seed}, action {played}"
        if not game.step(game.rng.choice(sorted(legal))):
            break
        played += 1
        game.compare()
    return played


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_splash_and_rlcard_agree_from_the_same_deal(players: int) -> None:
    played = [play_lockstep(seed, players) for seed in range(40)]
    # Most deals are played some way into the round before a difference stops them (at 2 players
    # the Reverses, each one a stop, cut rounds short: about 10 actions a deal).
    assert sum(played) > 40 * (8 if players == 2 else 25), played
    assert sum(1 for p in played if p) >= 30


def test_a_round_is_played_to_its_end_in_lockstep() -> None:
    ends = 0
    for seed in range(60):
        game = Lockstep(seed, 3)
        if game.rl.round.target.trait == "draw_2":
            continue
        while not game.rl.is_over():
            legal = sorted(game.rl.get_legal_actions())
            if not game.step(game.rng.choice(legal)):
                break
            game.compare()
        ends += game.rl.is_over() and SPLASH.is_match_over(game.state)
    assert ends >= 5
