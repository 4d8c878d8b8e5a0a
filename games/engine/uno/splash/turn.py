"""A turn of Uno Splash (rulings: "A turn"): play one playable card (a wild names its colour with
the play) and resolve its effect, or draw one card; a playable drawn card is then played (only
that card) or kept with a pass, an unplayable one ends the turn at once. With nothing left to
draw, a player holding a playable card must play and one holding none draws nothing. An opening
Wild waits for the first player's colour (phase ``choose``); a Wild Draw Four for its answer
(phase ``respond``, ``challenge``); under stacking a Draw card's victim answers the stack
(phase ``stack``, ``house_rules.stacking``). Timeouts and leaving are here too.
"""

from __future__ import annotations

from ... import errors as E
from ...errors import EngineError
from ...interface import RNG, Event
from ..actions import COLOURS, Action
from ..cards import TYPE_OF
from ..colours import chosen_colour, colour_named, random_colour
from ..piles import can_draw
from ..play import (
    DrawRules,
    draw_one,
    drawn_card_to_play,
    finish_play,
    put_on_table,
    refuse_after_draw,
    timeout_handler,
)
from ..seats import do_leave as family_leave
from ..state import CHOOSE, PLAY, RESPOND, STACK, State
from ..turns import chooser, seat_of, turn_seat
from . import stacking
from .cards import COLOUR_OF, PRESETS, RANK_OF, WD4
from .challenge import accept, wild_draw_four
from .effects import EFFECTS
from .matching import colour_in_force, playable, playable_cards


def turn_player(state: State, a: Action) -> int:
    """The seat taking a turn action: its turn, no colour or response owed first."""
    if state.phase == CHOOSE and a.seat == state.current:
        raise EngineError(E.CHOICE_PENDING, "name the colour of the opening Wild first")
    seat = turn_seat(state, a)
    if state.phase == RESPOND:
        raise EngineError(
            E.RESPONSE_REQUIRED, "answer the Wild Draw Four first: accept or challenge"
        )
    return seat


def check_play(state: State, a: Action, card: str) -> None:
    """Refuse a play of ``card`` (in hand) that does not match, or names a colour wrongly."""
    if a.target is not None or a.cards is not None or a.targets is not None:
        raise EngineError(E.TARGET_NOT_ALLOWED, "a card of Uno Splash takes no target")
    if card not in playable_cards(state):
        raise EngineError(
            E.CARD_NOT_PLAYABLE,
            f"{card} matches neither the colour in force ({colour_in_force(state)}) nor the"
            f" top card ({state.discard_pile[0]})",
        )
    if COLOUR_OF[card] is None and a.colour is None:
        raise EngineError(E.COLOUR_REQUIRED, f"name the colour with a wild: {', '.join(COLOURS)}")
    if COLOUR_OF[card] is not None and a.colour is not None:
        raise EngineError(E.COLOUR_NOT_ALLOWED, "only a wild names a colour")


def play_card(
    state: State, seat: int, card: str, colour: str | None, uno: bool, rng: RNG, ev: list[Event]
) -> State:
    """``seat`` plays ``card`` (checked) naming ``colour`` for a wild; the new state."""
    rank = RANK_OF[card]
    # The colour a Wild Draw Four is played on decides its legality: read it before the play.
    against = colour_in_force(state) if rank == WD4 else None
    s = put_on_table(state, seat, (card,), ev)
    s.colour = colour
    # A card of the deck (RANK_OF knows it) is registered in TYPE_OF: read, not parsed.
    event: Event = {"type": "play", "seat": seat, "card": card, "card_type": TYPE_OF[card]}
    if colour is not None:
        event["colour"] = colour
    ev.append(event)
    if rank == WD4:
        wild_draw_four(s, seat, card, s.seats[seat].hand, against, rng, ev)
    else:
        effect = EFFECTS.get(rank)
        if effect is not None:
            effect(s, seat, rng, ev)
    finish_play(s, seat, uno, PRESETS[s.preset].points, ev)
    return s


def do_play(state: State, a: Action, rng: RNG, ev: list[Event]) -> State:
    seat = turn_player(state, a)
    refuse_after_draw(state)
    card = a.card
    if card is None or card not in state.seats[seat].hand:
        raise EngineError(E.CARD_NOT_IN_HAND, f"{card!r} is not in your hand")
    check_play(state, a, card)
    stacking.check_stack_play(state, card)
    return play_card(state, seat, card, a.colour, a.uno, rng, ev)


def do_play_drawn(state: State, a: Action, rng: RNG, ev: list[Event]) -> State:
    seat = turn_player(state, a)
    drawn = drawn_card_to_play(state, a)
    check_play(state, a, drawn)
    return play_card(state, seat, drawn, a.colour, a.uno, rng, ev)


def draw_refusal(s: State, seat: int) -> tuple[str, str] | None:
    """Why the draw is refused now, or None: only with nothing to draw and a playable card."""
    if can_draw(s):
        return None
    if not playable_cards(s).isdisjoint(s.seats[seat].hand):
        return E.DRAW_NOT_ALLOWED, "there is nothing to draw: play a playable card"
    return None


DRAW = DrawRules(draw_refusal, stacking.not_stackable_message, playable)


def do_draw(state: State, a: Action, rng: RNG, ev: list[Event]) -> State:
    return draw_one(state, turn_player(state, a), DRAW, rng, ev)


def do_choose_colour(s: State, a: Action, rng: RNG, ev: list[Event]) -> None:
    seat = chooser(s, a, "colour")
    name_colour(s, seat, chosen_colour(a), ev)


def name_colour(s: State, seat: int, colour: str, ev: list[Event]) -> None:
    """The opening Wild's colour is named; the first player then takes their turn."""
    colour_named(s, seat, colour, ev)


def accept_at_deadline(s: State, seat: int, rng: RNG, ev: list[Event]) -> bool:
    """A Wild Draw Four's response owed at the deadline is an acceptance (True): 4 cards, the turn
    lost, no extra card. Like any response it is no turn action and closes no catch window
    (rulings: "Saying UNO and catching"); under stacking the answer owed is the stack's, a turn
    action, taken in full (``uno.play.timeout_handler``)."""
    if s.phase != RESPOND:
        return False
    accept(s, seat, rng, ev)
    return True


def settle_timeout(s: State, seat: int, rng: RNG, ev: list[Event]) -> bool:
    """The turn clock ran out (rulings: "Leaving, timeouts"): an opening colour owed is named at
    random; then the player draws 1 (not after a draw of their own this turn) and the turn
    passes, whatever the drawn card (``uno.play.timeout_handler``)."""
    if s.phase == CHOOSE:
        name_colour(s, seat, random_colour(rng, ev), ev)
    return False


do_timeout = timeout_handler(settle_timeout, accept_at_deadline)


def do_leave(s: State, a: Action, rng: RNG, ev: list[Event]) -> None:
    """Leaving as the family rules it, after what Splash owes first: an opening colour owed by
    the leaver is named at random (the table needs one); a response owed by the leaver is
    cancelled (nobody draws the 4) and play passes on. A Wild Draw Four whose player leaves is
    still answered (``challenge``)."""
    seat = seat_of(s, a)
    pending = s.pending
    if pending is not None and pending["seat"] == seat and s.seats[seat].active:
        if s.phase == CHOOSE:
            name_colour(s, seat, random_colour(rng, ev), ev)
        elif s.phase == RESPOND:
            ev.append({"type": "response_cancelled", "seat": seat, "owner": pending["owner"]})
            s.pending = None
            s.phase = PLAY  # the leaver's turn: the family passes it on
        elif s.phase == STACK:  # the family cancels the stack; the challenge goes with it
            s.pending = None
    family_leave(s, a, rng, ev)
