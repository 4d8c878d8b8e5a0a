"""The rules of Uno All Wild, as ruled by RULES.md: new_game, legal_actions, apply.

The module is pure: state in, new state and events out. ``apply`` works on a copy, so a refused
action leaves the caller's state untouched. All randomness goes through the ``rng`` passed in
(``shuffle`` and ``choice`` only), and every chance outcome is logged as a moderator-only
``chance`` event so a game can be replayed without an RNG (see ``replay.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import chain as _chain
from random import Random
from typing import Any, Protocol

from . import actions as A
from . import errors as E
from .actions import Action, Pick
from .cards import (
    DECK_SIZE,
    DRAW4,
    DRAW_AMOUNT,
    FORCE_SWAP,
    HAND_SIZE,
    PRESETS,
    REVERSE,
    SHUFFLE_HANDS,
    SKIP,
    SKIP_TWO,
    TARGETED,
    TARGETED_DRAW2,
    TYPE_OF,
    WILD,
    card_type,
)
from .errors import EngineError
from .state import (
    CHOOSE,
    CLOCKWISE,
    COUNTERCLOCKWISE,
    DRAWN,
    HOUSE_RULES,
    MATCH_OVER,
    PLAY,
    ROUND_OVER,
    STACK,
    Seat,
    State,
    copy_state,
)

Event = dict[str, Any]

MIN_PLAYERS = 2
MAX_PLAYERS = 10
# House rules this engine enforces (speed mode is the service's turn clock: nothing to enforce
# here). A rule not in this set would be refused at creation, never ignored.
SUPPORTED_HOUSE_RULES = frozenset(HOUSE_RULES)
# Mercy: a hand of MERCY_MIN or more cards may discard MERCY_COUNT of them.
MERCY_MIN = 15
MERCY_COUNT = 5


class RNG(Protocol):
    def shuffle(self, x: list[Any]) -> None: ...

    def choice(self, seq: Any) -> Any: ...


# ---------------------------------------------------------------------------------------------
# Creation and dealing

_NO_HOUSE_RULES = dict.fromkeys(HOUSE_RULES, False)


def new_game(
    *,
    players: int,
    rng: RNG,
    preset: str = "standard",
    options: dict[str, bool] | None = None,
    target_score: int = 500,
) -> tuple[State, list[Event]]:
    """A new match with round 1 dealt: the dealer is a random seat."""
    if preset not in PRESETS:
        raise EngineError(E.INVALID_SETUP, f"unknown preset {preset!r}")
    if (
        not isinstance(players, int)
        or isinstance(players, bool)
        or not MIN_PLAYERS <= players <= MAX_PLAYERS
    ):
        raise EngineError(E.INVALID_SETUP, "a game has 2 to 10 players")
    if not isinstance(target_score, int) or isinstance(target_score, bool) or target_score < 0:
        raise EngineError(E.INVALID_SETUP, "target_score is a whole number, 0 or more")
    opts = validate_options(options or {})
    state = State(
        preset=preset,
        seats=[Seat() for _ in range(players)],
        draw_pile=[],
        discard_pile=[],
        options=opts,
        target_score=target_score,
        phase=ROUND_OVER,
        round=0,
    )
    events: list[Event] = []
    dealer = _choice(rng, list(range(players)), events)
    # The first deal passes to the seat clockwise from the dealer we drew, so start one back.
    state.dealer = (dealer - 1) % players
    _deal(state, rng, events)
    return state, events


def validate_options(options: dict[str, Any]) -> dict[str, bool]:
    if isinstance(options, dict) and not options:  # every rule off (a new dict for each game)
        return dict(_NO_HOUSE_RULES)
    unknown = set(options) - set(HOUSE_RULES)
    if unknown:
        raise EngineError(E.INVALID_SETUP, f"unknown house rules: {', '.join(sorted(unknown))}")
    opts = {}
    for name in HOUSE_RULES:
        value = options.get(name, False)
        if not isinstance(value, bool):
            raise EngineError(E.INVALID_SETUP, f"house rule {name} is true or false")
        if value and name not in SUPPORTED_HOUSE_RULES:
            raise EngineError(E.INVALID_SETUP, f"house rule {name} is not available yet")
        opts[name] = value
    return opts


def _deal(s: State, rng: RNG, ev: list[Event]) -> None:
    """Start the next round: the deal passes one active seat clockwise."""
    s.dealer = _next_active(s, s.dealer, CLOCKWISE)
    s.round += 1
    s.direction = CLOCKWISE
    s.drawn_card = None
    s.pending = None
    s.stack = 0
    deck: list[str] = list(PRESETS[s.preset].card_ids)
    for seat in s.seats:
        seat.hand = []
        seat.uno = seat.exposed = seat.mercy_used = False
        seat.skips = 0
    _shuffle(rng, deck, ev)
    order = _seats_from(s, _next_active(s, s.dealer, CLOCKWISE), CLOCKWISE)
    # Deal one card at a time around ``order``, each on top of its hand: the j-th seat gets
    # deck[j], deck[j + m], ... with the last dealt on top. Sliced rather than popped one by one.
    m = len(order)
    dealt = m * HAND_SIZE
    for j, i in enumerate(order):
        s.seats[i].hand = deck[j:dealt:m][::-1]
    top = deck[dealt]
    s.draw_pile = deck[dealt + 1 :]
    s.discard_pile = [top]
    s.phase = PLAY
    first = order[0]
    s.current = first
    ev.append(
        {
            "type": "round_started",
            "round": s.round,
            "dealer": s.dealer,
            "hand_sizes": [len(seat.hand) for seat in s.seats],
            "card": top,
        }
    )
    _opening(s, first, top, rng, ev)


def _opening(s: State, first: int, top: str, rng: RNG, ev: list[Event]) -> None:
    kind = card_type(top)
    if not PRESETS[s.preset].opening_effects or kind == WILD:
        return
    ev.append({"type": "opening_effect", "card": top, "seat": first})
    if kind in DRAW_AMOUNT:
        _draw(s, first, DRAW_AMOUNT[kind], rng, ev, "opening")
    if kind in DRAW_AMOUNT or kind == SKIP:
        ev.append({"type": "skipped", "seat": first})
        s.current = _next_active(s, first, s.direction)
    elif kind == REVERSE:
        s.direction = COUNTERCLOCKWISE
        ev.append({"type": "direction", "direction": _direction_name(s.direction)})
        s.current = s.dealer
    elif kind in (TARGETED_DRAW2, FORCE_SWAP):
        s.phase = CHOOSE
        s.pending = {"seat": first, "card": top, "effect": kind, "reason": "opening", "uno": False}
    elif kind == SHUFFLE_HANDS:
        _pass_hands(s, CLOCKWISE, ev, first)


# ---------------------------------------------------------------------------------------------
# Listing legal actions (changes nothing)


_OVER = (ROUND_OVER, MATCH_OVER)


def legal_actions(state: State, seat: int) -> list[Action]:
    """Every action ``seat`` may take now. A ``uno`` flag may be added to any listed play."""
    s = state
    seats = s.seats
    n = len(seats)
    # The usual listings first: the current seat in phase play or after its voluntary draw, no
    # house rule, every seat in the round and no catch window open, more than one card in hand,
    # no Force Swap target protected. They list prebuilt actions; anything else takes the path
    # below, which lists the same in these positions.
    if seat == s.current and not s.house and 0 <= seat < n:
        me = seats[seat]
        hand = me.hand
        if me.active and len(hand) > 1:
            for other in seats:
                if other.exposed or not other.active:
                    break
            else:
                phase = s.phase
                if phase == DRAWN:
                    drawn = s.drawn_card
                    if drawn is not None:
                        listed = (_SEAT_ACTIONS.get(n) or _new_seat_actions(n))[seat].drawn.get(
                            drawn
                        )
                        # None for a card id no preset has (a hand-made position)
                        if listed is not None and not (
                            s.options.get("force_swap_protection") and TYPE_OF[drawn] == FORCE_SWAP
                        ):
                            return [*listed]
                elif phase == PLAY and not (
                    s.options.get("force_swap_protection") and _protection_applies(s, seat)
                ):
                    try:
                        table = _SEAT_ACTIONS[n][seat]
                    except KeyError:
                        table = _new_seat_actions(n)[seat]
                    play_of = table.play_of
                    out: list[Action]
                    try:
                        if play_of is not None:
                            out = [*map(play_of, hand)]
                        else:
                            out = list(_chain(*map(table.plays.__getitem__, hand)))
                    except KeyError:  # a card id no preset has (a hand-made position)
                        out = _plays(s, seat, hand)
                    if (s.draw_pile or len(s.discard_pile) > 1) and (
                        not _DRAW_RESTRICTED[s.preset] or _draw_refusal(s, seat) is None
                    ):
                        out.append(table.draw)
                    return out
    phase = s.phase
    if phase in _OVER or not 0 <= seat < n:
        return []
    me = seats[seat]
    if not me.active:
        return []
    hand = me.hand
    tables = _SEAT_ACTIONS.get(n) or _new_seat_actions(n)
    table = tables[seat]
    if s.house:  # stacking, blind play, double down or mercy: not the paths below
        return _house_legal_actions(s, seat, table)
    # One pass over the seats: is every seat still in the round (the prebuilt plays below assume
    # it), and is any catch window open (rare: only then is catchable_seats worth calling).
    everyone = True
    exposed = False
    for other in seats:
        if not other.active:
            everyone = False
        elif other.exposed:
            exposed = True
    if seat != s.current:
        out = []
    elif phase == PLAY:
        if (
            everyone
            and len(hand) > 1
            and not (s.options.get("force_swap_protection") and _protection_applies(s, seat))
        ):
            # The usual position: every card takes the targets prebuilt in the table.
            # map() with the dict's own __getitem__ runs the lookups in C, without a bytecode
            # loop per card (the list comprehension it replaces was a tenth of a round's time).
            try:
                single = table.single
                if single is not None:
                    out = list(map(single.__getitem__, hand))
                else:
                    out = list(_chain(*map(table.plays.__getitem__, hand)))
            except KeyError:  # a card id no preset has (a hand-made position)
                out = _plays(s, seat, hand)
        else:
            out = _plays(s, seat, hand)
        # _draw_refusal(s, seat) is None, with the common case (a pile to draw from, no 2021
        # restriction) decided without a call; its first test is the pile test made here.
        if (s.draw_pile or len(s.discard_pile) > 1) and (
            not _DRAW_RESTRICTED[s.preset] or _draw_refusal(s, seat) is None
        ):
            out.append(table.draw)
    elif phase == DRAWN:
        drawn = s.drawn_card
        assert drawn is not None
        kind = TYPE_OF.get(drawn) or card_type(drawn)
        play_drawn = table.play_drawn
        if kind in TARGETED:
            targets = _targets(s, seat, kind, len(hand) == 1)
            out = [play_drawn[target] for target in targets]
        else:  # _targets gives [None] for every other type: no call, no list comprehension
            out = [play_drawn[None]]
        out.append(table.pass_)
    elif phase == CHOOSE and s.pending and s.pending["seat"] == seat:
        targets = _targets(s, seat, s.pending["effect"], False)
        out = [Action(A.CHOOSE_TARGET, seat, target=target) for target in targets]
    else:
        out = []
    if len(hand) == 1 and not me.uno:
        out.append(table.uno)
    if exposed:
        for other_seat in catchable_seats(s):
            if other_seat != seat:
                out.append(table.catch[other_seat])
    return out


def _plays(s: State, seat: int, hand: list[str]) -> list[Action]:
    """The play actions of ``hand``, worked out card by card (any position)."""
    going_out = len(hand) == 1
    out: list[Action] = []
    # Cards of one type take the same targets: work them out once per type.
    targets_of: dict[str, list[int | None]] = {}
    for card in hand:
        kind = TYPE_OF.get(card) or card_type(card)
        targets = targets_of.get(kind)
        if targets is None:
            targets = targets_of[kind] = _targets(s, seat, kind, going_out)
        for target in targets:
            out.append(Action(A.PLAY, seat, card, target))
    return out


def _protection_applies(s: State, seat: int) -> bool:
    """Force Swap protection (when on) shields another seat now: it holds one card."""
    return any(len(other.hand) == 1 for i, other in enumerate(s.seats) if i != seat)


class _SeatActions:
    """Actions one seat may be offered at a table of ``n`` seats, built once and then shared.

    Actions are immutable tuples, so the (always new) lists legal_actions returns can share them
    instead of building about eight tuples per call. ``plays`` maps every card id of every preset
    to its play actions in the usual position: every seat active, the player not going out, no
    Force Swap target protected. At 2 seats every card then has exactly one play, and ``single``
    maps card -> that play (None at more seats), which is cheaper to list.
    """

    __slots__ = (
        "plays",
        "single",
        "play_of",
        "drawn",
        "draw",
        "play_drawn",
        "pass_",
        "uno",
        "catch",
        "take",
        "play_top",
        "mercy",
    )

    def __init__(self, n: int, seat: int) -> None:
        # _targets itself works out each type's targets, on a stand-in position that is the
        # usual one: n active seats holding two cards each, no house rules.
        usual = State("standard", [Seat(["", ""]) for _ in range(n)], [], [])
        targets = {kind: _targets(usual, seat, kind, False) for kind in set(TYPE_OF.values())}
        self.plays: dict[str, tuple[Action, ...]] = {
            card: tuple(Action(A.PLAY, seat, card, t) for t in targets[TYPE_OF[card]])
            for preset in PRESETS.values()
            for card in preset.card_ids
        }
        self.single: dict[str, Action] | None = None
        if all(len(plays) == 1 for plays in self.plays.values()):
            self.single = {card: plays[0] for card, plays in self.plays.items()}
        # single's lookup, bound once (legal_actions maps it over the hand)
        self.play_of: Callable[[str], Action] | None = (
            None if self.single is None else self.single.__getitem__
        )
        self.draw = Action(A.DRAW, seat)
        # By target (_targets gives None or a seat number)
        self.play_drawn: dict[int | None, Action] = {
            target: Action(A.PLAY_DRAWN, seat, target=target) for target in [None, *range(n)]
        }
        self.pass_ = Action(A.PASS, seat)
        # By the drawn card (every card id of every preset), in the usual position: play it (at
        # each target its type takes), or pass
        by_type = {
            kind: (*(self.play_drawn[t] for t in kind_targets), self.pass_)
            for kind, kind_targets in targets.items()
        }
        self.drawn: dict[str, tuple[Action, ...]] = {
            card: by_type[TYPE_OF[card]] for preset in PRESETS.values() for card in preset.card_ids
        }
        self.uno = Action(A.UNO, seat)
        self.catch = [Action(A.CATCH, seat, target=other) for other in range(n)]
        self.take = Action(A.TAKE_STACK, seat)
        self.play_top = Action(A.PLAY_TOP, seat)
        self.mercy = Action(A.MERCY, seat)  # blind play: the top five cards go


# Number of seats -> the tables of seats 0 to n - 1
_SEAT_ACTIONS: dict[int, list[_SeatActions]] = {}


def _new_seat_actions(n: int) -> list[_SeatActions]:
    tables = _SEAT_ACTIONS[n] = [_SeatActions(n, seat) for seat in range(n)]
    return tables


def _house_legal_actions(s: State, seat: int, table: _SeatActions) -> list[Action]:
    """legal_actions when stacking, blind play, double down or mercy is on: any position, worked
    out step by step (the fast path above assumes none of them)."""
    me = s.seats[seat]
    hand = me.hand
    opts = s.options
    blind = bool(opts.get("blind_play"))
    pairs = bool(opts.get("double_down")) and not blind
    phase = s.phase
    out: list[Action] = []
    if seat == s.current:
        if phase == PLAY:
            if blind:
                out.append(table.play_top)
            else:
                out = _plays(s, seat, hand)
                if pairs:
                    out += _pair_templates(s, seat, hand, None)
            if _draw_refusal(s, seat) is None:
                out.append(table.draw)
        elif phase == STACK:
            if blind:
                out.append(table.play_top)  # stacks if the revealed card can
            else:
                kinds = stackable_types(s)
                out = [table.plays[c][0] for c in hand if _kind(c) in kinds]
                if pairs:
                    out += _pair_templates(s, seat, hand, kinds)
            out.append(table.take)
        elif phase == DRAWN:
            drawn = s.drawn_card
            assert drawn is not None
            if blind:
                out.append(table.play_drawn[None])  # a target is chosen after the reveal
            else:
                targets = _targets(s, seat, _kind(drawn), len(hand) == 1)
                out = [table.play_drawn[target] for target in targets]
            out.append(table.pass_)
        elif phase == CHOOSE and s.pending and s.pending["seat"] == seat:
            targets = _targets(s, seat, s.pending["effect"], False)
            out = [Action(A.CHOOSE_TARGET, seat, target=target) for target in targets]
    if len(hand) == 1 and not me.uno:
        out.append(table.uno)
    for other_seat in catchable_seats(s):
        if other_seat != seat:
            out.append(table.catch[other_seat])
    if opts.get("mercy") and _mercy_refusal(s, seat) is None:
        if blind:
            out.append(table.mercy)
        else:
            out.append(Action(A.MERCY, seat, choose=Pick(MERCY_COUNT, tuple(hand))))
    return out


def _kind(card: str) -> str:
    return TYPE_OF.get(card) or card_type(card)


def stackable_types(s: State) -> tuple[str, ...]:
    """Draw cards that may answer the stack: equal or higher than the card on top of it."""
    return (DRAW4,) if _kind(s.discard_pile[0]) == DRAW4 else tuple(DRAW_AMOUNT)


def _pair_targets(s: State, seat: int, kind: str, going_out: bool) -> tuple[int, ...] | None:
    """The seats each card of a pair may target (both chosen when the pair is played, against
    this position), or None when the pair takes no targets."""
    targets = _targets(s, seat, kind, going_out)
    if targets == [None]:
        return None
    return tuple(t for t in targets if t is not None)


def _pair_templates(
    s: State, seat: int, hand: list[str], kinds: tuple[str, ...] | None
) -> list[Action]:
    """Double down: one template per card type held twice or more (of ``kinds``, if given)."""
    by_kind: dict[str, list[str]] = {}
    for card in hand:
        by_kind.setdefault(_kind(card), []).append(card)
    going_out = len(hand) == 2
    out = []
    for kind, cards in by_kind.items():
        if len(cards) < 2 or (kinds is not None and kind not in kinds):
            continue
        targets = _pair_targets(s, seat, kind, going_out)
        pick = Pick(2, tuple(cards), 2 if targets else 0, targets or ())
        out.append(Action(A.PLAY_PAIR, seat, choose=pick))
    return out


def _mercy_refusal(s: State, seat: int) -> tuple[str, str] | None:
    """Why ``seat`` may not use mercy now, or None when it may."""
    me = s.seats[seat]
    if len(me.hand) < MERCY_MIN:
        return E.MERCY_NOT_ALLOWED, f"mercy needs {MERCY_MIN} or more cards in hand"
    if me.mercy_used:
        return (
            E.MERCY_NOT_ALLOWED,
            f"you used mercy already: it returns once your hand drops below {MERCY_MIN}",
        )
    if (s.pending and s.pending["seat"] == seat) or (s.phase == DRAWN and s.current == seat):
        return E.CHOICE_PENDING, "finish your open choice first"
    return None


def catchable_seats(s: State) -> list[int]:
    """Seats any other player may catch now: one card, no UNO, window open, no open choice."""
    chooser = s.pending["seat"] if s.pending else None
    return [
        i
        for i, seat in enumerate(s.seats)
        if seat.active and seat.exposed and not seat.uno and len(seat.hand) == 1 and i != chooser
    ]


def _targets(s: State, seat: int, kind: str, going_out: bool) -> list[int | None]:
    """Targets a card of ``kind`` takes when ``seat`` plays it; [None] when it takes none."""
    others: list[int | None]
    if kind == TARGETED_DRAW2:
        others = [i for i, other in enumerate(s.seats) if other.active and i != seat]
        return others
    if kind == FORCE_SWAP and not going_out:
        protect = s.option("force_swap_protection")
        others = [
            i
            for i, other in enumerate(s.seats)
            if other.active and i != seat and not (protect and len(other.hand) == 1)
        ]
        return others or [None]
    return [None]


# Whether each preset restricts voluntary draws, read once per listing without a Preset lookup.
_DRAW_RESTRICTED = {name: preset.draw_restricted for name, preset in PRESETS.items()}


def _draw_refusal(s: State, seat: int) -> tuple[str, str] | None:
    """Why a voluntary draw is refused now, or None when it is allowed."""
    if not s.draw_pile and len(s.discard_pile) <= 1:
        return E.NOTHING_TO_DRAW, "there is nothing to draw: play a card"
    # Under blind play the 2021 restriction (only plain Wilds in hand) would need a look at
    # the hand the player may not see: the voluntary draw stays available (RULES.md).
    if PRESETS[s.preset].draw_restricted and not (s.house and s.options.get("blind_play")):
        nxt = _next_active(s, seat, s.direction)
        only_wilds = all(card_type(c) == WILD for c in s.seats[seat].hand)
        if len(s.seats[nxt].hand) != 1 or not only_wilds:
            return (
                E.DRAW_NOT_ALLOWED,
                "under the 2021 rules you may draw only when the next player holds one card"
                " and every card in your hand is a plain Wild",
            )
    return None


# ---------------------------------------------------------------------------------------------
# Applying an action

_new = object.__new__
# Cards whose effect on the other seat of a two-seat table is only on the turn (see apply)
_TURN_ONLY = (WILD, SKIP, REVERSE)


Handler = Callable[[State, Action, RNG, list[Event]], State]


def apply(state: State, action: Action, rng: RNG) -> tuple[State, list[Event]]:
    """Apply ``action`` to a copy of ``state``; return the new state and its events.

    Raises EngineError (state untouched) when the rules refuse the action.
    """
    kind = action.type
    if state.house:
        return _apply_handler(state, action, kind, rng)
    # Without house rules, the usual play (the current seat in phase play: about four actions in
    # five) and the usual play of a drawn card run here in one frame: _do_play/_do_play_drawn and
    # _play_card, with copy_state(state, False, False), the common effects and the turn passing
    # inlined. Everything else (refusals included) takes _HANDLERS' path, which decides alike.
    seats = state.seats
    seat = action.seat
    phase = state.phase
    card: str
    if kind == A.PLAY:
        if not (
            phase == PLAY
            and seat is not None
            and seat == state.current
            and 0 <= seat < len(seats)
            and seats[seat].active
        ):
            return _apply_handler(state, action, kind, rng)
        played = action.card
        old_hand = seats[seat].hand
        if played is None:
            raise EngineError(E.CARD_NOT_IN_HAND, f"{played!r} is not in your hand")
        # ``card in old_hand`` and, below, ``hand.remove(card)``: one scan (the first equal card)
        try:
            at = old_hand.index(played)
        except ValueError:
            at = -1
        if at < 0:
            raise EngineError(E.CARD_NOT_IN_HAND, f"{played!r} is not in your hand")
        card = played
    elif kind == A.PLAY_DRAWN:
        drawn = state.drawn_card
        if drawn is None or not (
            phase == DRAWN
            and seat is not None
            and seat == state.current
            and 0 <= seat < len(seats)
            and seats[seat].active
            and (action.card is None or action.card == drawn)
        ):
            return _apply_handler(state, action, kind, rng)
        card = drawn
        old_hand = seats[seat].hand
        at = -1  # hand.remove(card) below
    elif kind == A.DRAW:
        if (
            phase == PLAY
            and seat is not None
            and seat == state.current
            and 0 <= seat < len(seats)
            and seats[seat].active
            and state.draw_pile
            and not _DRAW_RESTRICTED[state.preset]
        ):
            return _voluntary_draw(state, seat, rng)
        return _apply_handler(state, action, kind, rng)
    elif kind == A.PASS:
        if (
            phase == DRAWN
            and seat is not None
            and seat == state.current
            and 0 <= seat < len(seats)
            and seats[seat].active
        ):
            return _pass_turn(state, seat)
        return _apply_handler(state, action, kind, rng)
    else:
        return _apply_handler(state, action, kind, rng)
    # _play_card, inlined (its house-rule branches dropped: no house rule is on)
    target = action.target
    try:
        ctype = TYPE_OF[card]
    except KeyError:  # a card id no preset has (a hand-made position)
        ctype = card_type(card)
    going_out = len(old_hand) == 1
    if target is None:
        # A card that takes no target always passes _check_target without one: skip the call.
        if ctype == TARGETED_DRAW2 or (ctype == FORCE_SWAP and not going_out):
            _check_target(state, seat, ctype, None, going_out)
    elif not (
        # _check_target accepts an int target at once when it is another active seat, for a
        # Targeted Draw 2, or for a Force Swap that is not the last card and that protection
        # does not stop (it is then in _targets' list). Anything else goes through it.
        type(target) is int
        and target != seat
        and 0 <= target < len(seats)
        and seats[target].active
        and (
            ctype == TARGETED_DRAW2
            or (
                ctype == FORCE_SWAP
                and not going_out
                and not (
                    state.options.get("force_swap_protection") and len(seats[target].hand) == 1
                )
            )
        )
    ):
        _check_target(state, seat, ctype, target, going_out)
    # copy_state(state, False, False), inlined: a turn action closes every catch window, and the
    # hands and piles are shared with ``state`` (a changed one is a new list from here on).
    n = len(seats)
    other = seats[1 - seat] if n == 2 else None
    if (
        other is not None
        and ctype in _TURN_ONLY
        and len(old_hand) > 1
        and other.active
        and not other.exposed
        and not other.skips
        and not seats[seat].skips
    ):
        # Two seats, a card that only passes the turn or takes the other's turn (with two
        # players a Reverse is a Skip), not the last card, the other seat's catch window closed
        # and no lost turns owed: the other seat ends as it is, so it is shared with ``state``
        # (states are values: no one changes a seat of a state apply() returned).
        o = seats[seat]
        c = _new(Seat)
        c.hand = o.hand
        c.active = o.active
        c.uno = o.uno
        c.exposed = False
        c.skips = o.skips
        c.score = o.score
        c.mercy_used = o.mercy_used
        new_seats = [c, other] if seat == 0 else [other, c]
    else:
        other = None
        new_seats = []
        for o in seats:
            c = _new(Seat)
            c.hand = o.hand
            c.active = o.active
            c.uno = o.uno
            c.exposed = False
            c.skips = o.skips
            c.score = o.score
            c.mercy_used = o.mercy_used
            new_seats.append(c)
    s = _new(State)
    s.preset = state.preset
    s.seats = new_seats
    s.draw_pile = state.draw_pile
    s.discard_pile = [card, *state.discard_pile]
    s.options = state.options
    s.target_score = state.target_score
    direction = s.direction = state.direction
    s.current = seat
    s.dealer = state.dealer
    s.phase = PLAY
    s.drawn_card = None
    pending = state.pending
    s.pending = dict(pending) if pending is not None else None
    s.stack = state.stack
    s.round = state.round
    s.round_results = state.round_results
    s.winner = state.winner
    s.game = state.game
    s.house = False
    me = new_seats[seat]
    hand = old_hand.copy()
    if at < 0:
        hand.remove(card)
    else:
        del hand[at]
    me.hand = hand
    ev: list[Event]
    if target is None:
        ev = [{"type": "play", "seat": seat, "card": card, "card_type": ctype}]
    else:
        ev = [{"type": "play", "seat": seat, "card": card, "card_type": ctype, "target": target}]
    # _hand_changed, inlined
    me.uno = False
    me.exposed = len(hand) == 1
    if me.mercy_used and len(hand) < MERCY_MIN:
        me.mercy_used = False
    if other is not None:
        # The shared other seat: what _effect and _advance would do, without changing it (a lost
        # turn it is charged is consumed at once by the turn passing).
        other_seat = 1 - seat
        if ctype == REVERSE:
            direction = s.direction = -direction
            ev.append(
                {
                    "type": "direction",
                    "direction": "clockwise" if direction == CLOCKWISE else "counterclockwise",
                }
            )
        if ctype != WILD:
            ev.append({"type": "loses_turn", "seat": other_seat, "count": 1})
        if action.uno:
            _say_uno(s, seat, ev)
        if ctype == WILD:
            s.current = other_seat
        else:  # the other seat loses its turn: this seat plays again
            ev.append({"type": "skipped", "seat": other_seat})
        return s, ev
    # The effects (_effect, _draw_effect without stacking, _lose_turns, _swap), inlined
    if ctype == WILD:
        pass  # no effect
    elif ctype in DRAW_AMOUNT or ctype == TARGETED_DRAW2:
        if ctype == TARGETED_DRAW2:
            assert target is not None
            victim = target
            amount = 2
        else:  # the next seat draws and loses a turn
            victim = (seat + direction) % n
            if not new_seats[victim].active:
                victim = _next_active(s, seat, direction)
            amount = DRAW_AMOUNT[ctype]
        pile = s.draw_pile
        if len(pile) >= amount:  # _draw without a reshuffle
            taken = pile[:amount]
            s.draw_pile = pile[amount:]
            loser = new_seats[victim]
            loser.hand = taken[::-1] + loser.hand
            ev.append(
                {
                    "type": "draw",
                    "seat": victim,
                    "count": amount,
                    "wanted": amount,
                    "reason": ctype,
                    "to": victim,
                    "secret": {"cards": taken},
                }
            )
            loser.uno = False
            loser.exposed = len(loser.hand) == 1
        else:
            _draw(s, victim, amount, rng, ev, ctype)
        if ctype != TARGETED_DRAW2:
            new_seats[victim].skips += 1
            ev.append({"type": "loses_turn", "seat": victim, "count": 1})
    elif ctype == SKIP:
        victim = (seat + direction) % n
        if not new_seats[victim].active:
            victim = _next_active(s, seat, direction)
        new_seats[victim].skips += 1
        ev.append({"type": "loses_turn", "seat": victim, "count": 1})
    elif ctype == REVERSE:
        direction = s.direction = -direction
        ev.append(
            {
                "type": "direction",
                "direction": "clockwise" if direction == CLOCKWISE else "counterclockwise",
            }
        )
        active = 0
        for o in new_seats:
            if o.active:
                active += 1
        if active == 2:  # with two players a Reverse is a Skip
            victim = (seat + direction) % n
            if not new_seats[victim].active:
                victim = _next_active(s, seat, direction)
            new_seats[victim].skips += 1
            ev.append({"type": "loses_turn", "seat": victim, "count": 1})
    elif ctype == FORCE_SWAP and not going_out and target is not None:
        other = new_seats[target]
        me.hand, other.hand = other.hand, me.hand
        ev.append({"type": "swap", "seat": seat, "target": target})
        for changed in (me, other):  # _hand_changed
            changed.uno = False
            changed.exposed = len(changed.hand) == 1
            if changed.mercy_used and len(changed.hand) < MERCY_MIN:
                changed.mercy_used = False
    elif ctype == SHUFFLE_HANDS and not going_out and n == 2 and new_seats[1 - seat].active:
        # _pass_hands at two seats: the two hands change places
        other = new_seats[1 - seat]
        me.hand, other.hand = other.hand, me.hand
        ev.append(
            {
                "type": "hands_passed",
                "direction": "clockwise" if direction == CLOCKWISE else "counterclockwise",
            }
        )
        for changed in (me, other):  # _hand_changed
            changed.uno = False
            changed.exposed = len(changed.hand) == 1
            if changed.mercy_used and len(changed.hand) < MERCY_MIN:
                changed.mercy_used = False
    else:
        _effect(s, seat, ctype, target, going_out, rng, ev)
    # _finish_play, inlined
    if not me.hand:
        _end_round(s, seat, ev)
        return s, ev
    if action.uno:
        _say_uno(s, seat, ev)
    # _advance, inlined: the turn passes to the next seat in the direction that owes no turn
    direction = s.direction
    prev = s.current
    while True:
        nxt = (prev + direction) % n
        owes = new_seats[nxt]
        if not owes.active:
            nxt = _next_active(s, prev, direction)
            owes = new_seats[nxt]
        if not owes.skips > 0:
            break
        owes.skips -= 1
        ev.append({"type": "skipped", "seat": nxt})
        prev = nxt
    s.current = nxt
    s.phase = PLAY
    s.drawn_card = None
    return s, ev


def _voluntary_draw(state: State, seat: int, rng: RNG) -> tuple[State, list[Event]]:
    """_do_draw for the current seat in phase play, without house rules or the 2021 restriction,
    from a draw pile that is not empty: copy_state(state, False, False) and _draw inlined."""
    old_seats = state.seats
    if len(old_seats) == 2 and not old_seats[1 - seat].exposed:
        # Two seats, the other one's catch window closed already: only the drawer's seat
        # changes, the other is shared with ``state``.
        o = old_seats[seat]
        c = _new(Seat)
        c.hand = o.hand
        c.active = o.active
        c.uno = o.uno
        c.exposed = False
        c.skips = o.skips
        c.score = o.score
        c.mercy_used = o.mercy_used
        seats = [c, old_seats[1]] if seat == 0 else [old_seats[0], c]
    else:
        seats = []
        for o in old_seats:
            c = _new(Seat)
            c.hand = o.hand
            c.active = o.active
            c.uno = o.uno
            c.exposed = False
            c.skips = o.skips
            c.score = o.score
            c.mercy_used = o.mercy_used
            seats.append(c)
    s = _new(State)
    s.preset = state.preset
    s.seats = seats
    pile = state.draw_pile
    card = pile[0]
    s.draw_pile = pile[1:]
    s.discard_pile = state.discard_pile
    s.options = state.options
    s.target_score = state.target_score
    s.direction = state.direction
    s.current = seat
    s.dealer = state.dealer
    s.phase = DRAWN
    s.drawn_card = card
    pending = state.pending
    s.pending = dict(pending) if pending is not None else None
    s.stack = state.stack
    s.round = state.round
    s.round_results = state.round_results
    s.winner = state.winner
    s.game = state.game
    s.house = False
    me = seats[seat]
    hand = me.hand = [card, *me.hand]
    ev: list[Event] = [
        {
            "type": "draw",
            "seat": seat,
            "count": 1,
            "wanted": 1,
            "reason": "voluntary",
            "to": seat,
            "secret": {"cards": [card]},
        }
    ]
    me.uno = False
    me.exposed = len(hand) == 1
    return s, ev


def _pass_turn(state: State, seat: int) -> tuple[State, list[Event]]:
    """_do_pass for the current seat after its voluntary draw: copy_state(state, True, False) and
    _advance inlined."""
    old_seats = state.seats
    n = len(old_seats)
    direction = state.direction
    nxt = (seat + direction) % n
    neighbour = old_seats[nxt]
    # Passing to a neighbour that owes no turn changes no seat: the seats are shared with
    # ``state`` (states are values: no one changes a seat of a state apply() returned).
    usual = neighbour.active and not neighbour.skips > 0
    if usual:
        seats = old_seats.copy()
    else:
        seats = []
        for o in old_seats:
            c = _new(Seat)
            c.hand = o.hand
            c.active = o.active
            c.uno = o.uno
            c.exposed = o.exposed
            c.skips = o.skips
            c.score = o.score
            c.mercy_used = o.mercy_used
            seats.append(c)
    s = _new(State)
    s.preset = state.preset
    s.seats = seats
    s.draw_pile = state.draw_pile
    s.discard_pile = state.discard_pile
    s.options = state.options
    s.target_score = state.target_score
    s.direction = direction
    s.dealer = state.dealer
    s.drawn_card = None
    pending = state.pending
    s.pending = dict(pending) if pending is not None else None
    s.stack = state.stack
    s.round = state.round
    s.round_results = state.round_results
    s.winner = state.winner
    s.game = state.game
    s.house = False
    s.phase = PLAY
    ev: list[Event] = [{"type": "pass", "seat": seat}]
    if usual:
        s.current = nxt
        return s, ev
    # _advance, inlined
    prev = seat
    while True:
        nxt = (prev + direction) % n
        owes = seats[nxt]
        if not owes.active:
            nxt = _next_active(s, prev, direction)
            owes = seats[nxt]
        if not owes.skips > 0:
            break
        owes.skips -= 1
        ev.append({"type": "skipped", "seat": nxt})
        prev = nxt
    s.current = nxt
    return s, ev


def _apply_handler(state: State, action: Action, kind: str, rng: RNG) -> tuple[State, list[Event]]:
    handler = _HANDLERS.get(kind)
    if handler is None:
        raise EngineError(E.INVALID_ACTION, f"unknown action type {kind!r}")
    events: list[Event] = []
    return handler(state, action, rng, events), events


# Each handler checks the action against the caller's state (checks only read), then changes and
# returns a copy. The turn actions (play, draw, play_drawn, pass: nearly every action of a game)
# copy only once the action is accepted; the others go through _on_copy.


def _on_copy(change: Callable[[State, Action, RNG, list[Event]], None]) -> Handler:
    """A handler that checks and changes a copy of the state in place."""

    def handler(state: State, a: Action, rng: RNG, ev: list[Event]) -> State:
        s = state.copy()
        change(s, a, rng, ev)
        return s

    return handler


def _seat_of(s: State, action: Action) -> int:
    seat = action.seat
    if seat is None or not 0 <= seat < len(s.seats):
        raise EngineError(E.INVALID_ACTION, "the action needs the seat that takes it")
    return seat


def _require_round(s: State) -> None:
    if s.phase == MATCH_OVER:
        raise EngineError(E.GAME_OVER, "the match is over")
    if s.phase == ROUND_OVER:
        raise EngineError(E.ROUND_OVER, "the round is over")


def _require_player(s: State, seat: int) -> None:
    _require_round(s)
    if not s.seats[seat].active:
        raise EngineError(E.NOT_IN_ROUND, "you have left this game")


def _usual_turn_seat(s: State, action: Action, phase: str) -> int | None:
    """The action's seat when it is the current seat, in the round, and the phase is ``phase``
    (the usual case: _turn_seat would accept it), else None: then _turn_seat decides."""
    seat = action.seat
    if (
        s.phase == phase
        and seat is not None
        and seat == s.current
        and 0 <= seat < len(s.seats)
        and s.seats[seat].active
    ):
        return seat
    return None


def _turn_seat(s: State, action: Action) -> int:
    """The seat taking a turn action: _seat_of and _require_player inlined, then the turn."""
    seat = action.seat
    if seat is None or not 0 <= seat < len(s.seats):
        raise EngineError(E.INVALID_ACTION, "the action needs the seat that takes it")
    phase = s.phase
    if phase == MATCH_OVER:
        raise EngineError(E.GAME_OVER, "the match is over")
    if phase == ROUND_OVER:
        raise EngineError(E.ROUND_OVER, "the round is over")
    if not s.seats[seat].active:
        raise EngineError(E.NOT_IN_ROUND, "you have left this game")
    if seat != s.current:
        raise EngineError(E.NOT_YOUR_TURN, f"it is seat {s.current}'s turn")
    if phase == CHOOSE:
        raise EngineError(E.CHOICE_PENDING, "choose a target for the card on the table first")
    return seat


def _check_target(s: State, seat: int, kind: str, target: int | None, going_out: bool) -> None:
    allowed = _targets(s, seat, kind, going_out)
    if allowed == [None]:
        if target is not None and not going_out and _protected(s, kind, target, seat):
            raise EngineError(
                E.TARGET_PROTECTED, "a player holding one card cannot be swapped with"
            )
        if target is not None:
            why = "it is your last card and fizzles" if going_out else "it takes no target"
            raise EngineError(E.TARGET_NOT_ALLOWED, f"{kind} takes no target here: {why}")
        return
    if target is None:
        raise EngineError(E.TARGET_REQUIRED, f"{kind} needs a target: another player's seat")
    if target in allowed:
        return
    if target == seat:
        raise EngineError(E.INVALID_TARGET, "you cannot target yourself")
    if _protected(s, kind, target, seat):
        raise EngineError(E.TARGET_PROTECTED, "a player holding one card cannot be swapped with")
    raise EngineError(E.INVALID_TARGET, f"seat {target} is not a player you can target")


def _protected(s: State, kind: str, target: int, seat: int) -> bool:
    """Force Swap protection shields ``target`` (another active seat holding one card)."""
    return (
        kind == FORCE_SWAP
        and s.option("force_swap_protection")
        and target != seat
        and 0 <= target < len(s.seats)
        and s.seats[target].active
        and len(s.seats[target].hand) == 1
    )


def _do_play(state: State, a: Action, rng: RNG, ev: list[Event]) -> State:
    phase = state.phase
    seat = a.seat
    seats = state.seats
    # The usual play (the current seat in phase play) passes every check of _turn_seat and the
    # phase checks below: decided here without the call. Anything else goes through them all.
    if not (
        phase == PLAY
        and seat is not None
        and seat == state.current
        and 0 <= seat < len(seats)
        and seats[seat].active
    ):
        seat = _turn_seat(state, a)
    if phase == DRAWN:
        raise EngineError(
            E.MUST_PLAY_DRAWN_CARD_OR_PASS, "you drew: play the drawn card (play_drawn) or pass"
        )
    card = a.card
    if state.house:
        _check_house_play(state, card)
    if card is None or card not in seats[seat].hand:
        raise EngineError(E.CARD_NOT_IN_HAND, f"{card!r} is not in your hand")
    return _play_card(state, seat, card, a.target, a.uno, rng, ev)


def _check_house_play(state: State, card: str | None) -> None:
    """A card chosen by id: refused under blind play, and in a stack unless it stacks."""
    if state.options.get("blind_play"):
        raise EngineError(E.HAND_FACE_DOWN, "your hand is face down: play its top card (play_top)")
    if (
        state.phase == STACK
        and card is not None
        and card in state.seats[state.current].hand
        and _kind(card) not in stackable_types(state)
    ):
        raise EngineError(E.NOT_STACKABLE, _not_stackable_message(state))


def _not_stackable_message(s: State) -> str:
    allowed = " or a ".join(stackable_types(s)).replace("draw", "Draw ")
    return f"{s.stack} cards are owed: stack a {allowed} on them, or take them (take_stack)"


def _do_play_drawn_blind(state: State, seat: int, a: Action, rng: RNG, ev: list[Event]) -> State:
    if a.target is not None:
        raise EngineError(
            E.TARGET_NOT_ALLOWED, "under blind play a target is chosen after the card is revealed"
        )
    assert state.drawn_card is not None
    return _play_blind(state, seat, state.drawn_card, a.uno, rng, ev)


def _house_play_seat(state: State, a: Action) -> int:
    """The seat playing a pair or a top card: its turn, and not after a voluntary draw. (_do_play
    makes the same checks inline: it is the hot path.)"""
    seat = _turn_seat(state, a)
    if state.phase == DRAWN:
        raise EngineError(
            E.MUST_PLAY_DRAWN_CARD_OR_PASS, "you drew: play the drawn card (play_drawn) or pass"
        )
    return seat


def _do_play_top(state: State, a: Action, rng: RNG, ev: list[Event]) -> State:
    """Blind play: the top card of the face-down hand, revealed as it is played."""
    if not state.options.get("blind_play"):
        raise EngineError(E.HOUSE_RULE_OFF, "blind play is not a house rule of this game")
    seat = _house_play_seat(state, a)
    if a.card is not None or a.target is not None:
        raise EngineError(
            E.INVALID_ACTION, "play_top takes no card and no target: the top card is played"
        )
    card = state.seats[seat].hand[0]
    if state.phase == STACK and _kind(card) not in stackable_types(state):
        # Shown to everyone, it goes back on top of the hand and the stack is taken.
        s = copy_state(state, False)
        ev.append({"type": "not_stackable", "seat": seat, "card": card, "card_type": _kind(card)})
        _take_stack(s, seat, rng, ev)
        return s
    return _play_blind(state, seat, card, a.uno, rng, ev)


def _play_blind(state: State, seat: int, card: str, uno: bool, rng: RNG, ev: list[Event]) -> State:
    """Play ``card`` unseen: a target it needs becomes a pending choice once it is revealed."""
    kind = _kind(card)
    going_out = len(state.seats[seat].hand) == 1
    if _targets(state, seat, kind, going_out) == [None]:
        return _play_card(state, seat, card, None, uno, rng, ev)
    s = copy_state(state, False)  # a turn action closes every catch window
    me = s.seats[seat]
    me.hand.remove(card)
    s.discard_pile.insert(0, card)
    s.drawn_card = None
    ev.append({"type": "play", "seat": seat, "card": card, "card_type": kind})
    _hand_changed(s, seat)
    s.phase = CHOOSE
    s.pending = {"seat": seat, "card": card, "effect": kind, "reason": "blind", "uno": uno}
    return s


def _do_play_drawn(state: State, a: Action, rng: RNG, ev: list[Event]) -> State:
    seat = _usual_turn_seat(state, a, DRAWN)
    if seat is None:
        seat = _turn_seat(state, a)
    if state.phase != DRAWN or state.drawn_card is None:
        raise EngineError(E.NOTHING_DRAWN, "you have not drawn a card this turn")
    if a.card is not None and a.card != state.drawn_card:
        raise EngineError(E.MUST_PLAY_DRAWN_CARD_OR_PASS, "only the drawn card may be played")
    if state.house and state.options.get("blind_play"):
        return _do_play_drawn_blind(state, seat, a, rng, ev)
    return _play_card(state, seat, state.drawn_card, a.target, a.uno, rng, ev)


def _play_card(
    state: State, seat: int, card: str, target: int | None, uno: bool, rng: RNG, ev: list[Event]
) -> State:
    kind = TYPE_OF.get(card) or card_type(card)
    seats = state.seats
    going_out = len(seats[seat].hand) == 1
    if target is None:
        # A card that takes no target always passes _check_target without one: skip the call.
        if kind == TARGETED_DRAW2 or (kind == FORCE_SWAP and not going_out):
            _check_target(state, seat, kind, None, going_out)
    elif not (
        # _check_target accepts an int target at once when it is another active seat, for a
        # Targeted Draw 2, or for a Force Swap that is not the last card and that protection
        # does not stop (it is then in _targets' list). Anything else goes through it.
        type(target) is int
        and target != seat
        and 0 <= target < len(seats)
        and seats[target].active
        and (
            kind == TARGETED_DRAW2
            or (
                kind == FORCE_SWAP
                and not going_out
                and not (state.option("force_swap_protection") and len(seats[target].hand) == 1)
            )
        )
    ):
        _check_target(state, seat, kind, target, going_out)
    # A turn action closes every catch window (False). Hands and piles are shared with ``state``
    # (False): from here on a changed hand or pile is a new list, never changed in place.
    s = copy_state(state, False, False)
    me = s.seats[seat]
    hand = me.hand.copy()
    hand.remove(card)
    me.hand = hand
    s.discard_pile = [card, *s.discard_pile]
    s.drawn_card = None
    s.phase = PLAY
    event: Event = {"type": "play", "seat": seat, "card": card, "card_type": kind}
    if target is not None:
        event["target"] = target
    ev.append(event)
    # _hand_changed, inlined
    me.uno = False
    me.exposed = len(hand) == 1
    if me.mercy_used and len(hand) < MERCY_MIN:
        me.mercy_used = False
    if kind in DRAW_AMOUNT:  # _effect's first branch, called directly
        _draw_effect(s, seat, kind, DRAW_AMOUNT[kind], going_out, rng, ev)
    elif kind != WILD:  # a plain Wild has no effect
        _effect(s, seat, kind, target, going_out, rng, ev)
    # _finish_play, inlined
    if not me.hand:
        _end_round(s, seat, ev)
        return s
    if uno:
        _say_uno(s, seat, ev)
    if s.house and s.phase == STACK:  # a stacked draw card hands the turn to the one answering
        return s
    # _advance, inlined for its usual case: the neighbour is in the round and owes no turn
    seats = s.seats
    nxt = (s.current + s.direction) % len(seats)
    neighbour = seats[nxt]
    if neighbour.active and not neighbour.skips > 0:
        s.current = nxt
        s.phase = PLAY
        s.drawn_card = None
    else:
        _advance(s, ev)
    return s


def _effect(
    s: State,
    seat: int,
    kind: str,
    target: int | None,
    going_out: bool,
    rng: RNG,
    ev: list[Event],
) -> None:
    if kind in DRAW_AMOUNT:
        if s.house:
            _draw_effect(s, seat, kind, DRAW_AMOUNT[kind], going_out, rng, ev)
        else:  # the official rule, inlined: _draw_effect without stacking
            victim = _next_active(s, seat, s.direction)
            _draw(s, victim, DRAW_AMOUNT[kind], rng, ev, kind)
            _lose_turns(s, victim, 1, ev)
    elif kind == SKIP:
        _lose_turns(s, _next_active(s, seat, s.direction), 1, ev)
    elif kind == REVERSE:
        s.direction = -s.direction
        ev.append({"type": "direction", "direction": _direction_name(s.direction)})
        if _active_count(s) == 2:
            _lose_turns(s, _next_active(s, seat, s.direction), 1, ev)
    elif kind == SKIP_TWO:
        # The next two turns that belong to *other* players: with 2 players, the opponent twice.
        first = _next_active(s, seat, s.direction)
        second = _next_active(s, first, s.direction)
        if second == seat:
            second = first
        _lose_turns(s, first, 1, ev)
        _lose_turns(s, second, 1, ev)
    elif kind == TARGETED_DRAW2:
        assert target is not None
        _draw(s, target, 2, rng, ev, kind)
    elif kind == FORCE_SWAP:
        if going_out:
            ev.append({"type": "fizzled", "seat": seat, "card_type": kind})
        elif target is not None:
            _swap(s, seat, target, ev)
        else:
            ev.append({"type": "no_effect", "seat": seat, "card_type": kind})
    elif kind == SHUFFLE_HANDS:
        if going_out:
            ev.append({"type": "fizzled", "seat": seat, "card_type": kind})
        else:
            _pass_hands(s, s.direction, ev, seat)


def _draw_effect(
    s: State, seat: int, kind: str, amount: int, going_out: bool, rng: RNG, ev: list[Event]
) -> None:
    """The next player draws ``amount`` and loses a turn; under stacking they may answer first
    (not when the card was the player's last: the round is over, they draw the total)."""
    # victim = _next_active(s, seat, s.direction), with its usual answer (the neighbour) inlined
    seats = s.seats
    victim = (seat + s.direction) % len(seats)
    if not seats[victim].active:
        victim = _next_active(s, seat, s.direction)
    if s.house and s.options.get("stacking"):
        total = s.stack + amount
        s.stack = 0
        if not going_out:
            s.stack = total
            s.phase = STACK
            s.current = victim
            ev.append({"type": "stacked", "seat": victim, "total": total})
            return
        _draw(s, victim, total, rng, ev, "stack" if total != amount else kind)
    else:
        _draw(s, victim, amount, rng, ev, kind)
    # _lose_turns(s, victim, 1, ev), inlined
    seats[victim].skips += 1
    ev.append({"type": "loses_turn", "seat": victim, "count": 1})


def _take_stack(s: State, seat: int, rng: RNG, ev: list[Event]) -> None:
    """The seat that does not stack draws the total and loses this turn."""
    total = s.stack
    s.stack = 0
    _draw(s, seat, total, rng, ev, "stack")
    ev.append({"type": "skipped", "seat": seat})
    _advance(s, ev)


def _do_take_stack(state: State, a: Action, rng: RNG, ev: list[Event]) -> State:
    seat = _turn_seat(state, a)
    if state.phase != STACK:
        raise EngineError(E.NO_STACK, "no stack is owed: there are no cards to take")
    s = copy_state(state, False)  # a stack answer is a turn action: it closes catch windows
    _take_stack(s, seat, rng, ev)
    return s


def _do_play_pair(state: State, a: Action, rng: RNG, ev: list[Event]) -> State:
    """Double down: two identical cards at once, both effects in order."""
    if not state.options.get("double_down"):
        raise EngineError(E.HOUSE_RULE_OFF, "double down is not a house rule of this game")
    seat = _house_play_seat(state, a)
    phase = state.phase
    if state.options.get("blind_play"):
        raise EngineError(E.HAND_FACE_DOWN, "your hand is face down: you cannot pick a pair")
    if a.card is not None or a.target is not None:
        raise EngineError(E.INVALID_ACTION, "play_pair takes cards and targets (lists)")
    cards = a.cards
    if cards is None or len(cards) != 2:
        raise EngineError(E.WRONG_CARD_COUNT, "double down plays exactly two cards")
    hand = state.seats[seat].hand
    for card in cards:
        if card not in hand:
            raise EngineError(E.CARD_NOT_IN_HAND, f"{card!r} is not in your hand")
    first, second = cards
    kind = _kind(first)
    if first == second or _kind(second) != kind:
        raise EngineError(E.NOT_A_PAIR, "double down plays two different cards of one type")
    if phase == STACK and kind not in stackable_types(state):
        raise EngineError(E.NOT_STACKABLE, _not_stackable_message(state))
    going_out = len(hand) == 2
    allowed = _pair_targets(state, seat, kind, going_out)
    targets = a.targets
    if allowed is None:
        if targets is not None:
            _check_target(state, seat, kind, targets[0] if targets else -1, going_out)
            raise EngineError(E.TARGET_NOT_ALLOWED, f"a pair of {kind} takes no targets here")
    else:
        if targets is None or len(targets) != 2:
            raise EngineError(E.TARGET_REQUIRED, f"a pair of {kind} needs two targets, one each")
        for target in targets:
            _check_target(state, seat, kind, target, going_out)
    s = copy_state(state, False)  # a turn action closes every catch window
    me = s.seats[seat]
    for card in cards:
        me.hand.remove(card)
        s.discard_pile.insert(0, card)
    s.drawn_card = None
    s.phase = PLAY
    event: Event = {"type": "play_pair", "seat": seat, "cards": list(cards), "card_type": kind}
    if targets is not None:
        event["targets"] = list(targets)
    ev.append(event)
    _hand_changed(s, seat)
    if kind in DRAW_AMOUNT:
        # Two Draw 2s: the next player draws 4 and loses one turn (RULES.md, Double down).
        _draw_effect(s, seat, kind, 2 * DRAW_AMOUNT[kind], going_out, rng, ev)
    elif kind == SKIP:
        # Two players skipped: the next two turns that belong to other players, as Skip Two.
        _effect(s, seat, SKIP_TWO, None, going_out, rng, ev)
    elif kind != WILD:
        pair_targets: tuple[int | None, ...] = targets or (None, None)
        for each in pair_targets:
            _effect(s, seat, kind, each, going_out, rng, ev)
    _finish_play(s, seat, a.uno, rng, ev)
    return s


def _finish_play(s: State, seat: int, uno: bool, rng: RNG, ev: list[Event]) -> None:
    me = s.seats[seat]
    if not me.hand:
        _end_round(s, seat, ev)
        return
    if uno:
        _say_uno(s, seat, ev)
    if s.phase != STACK:
        _advance(s, ev)


def _say_uno(s: State, seat: int, ev: list[Event]) -> None:
    """UNO said with a play counts only when the seat holds one card after the effect."""
    me = s.seats[seat]
    if len(me.hand) == 1 and not me.uno:
        me.uno = True
        me.exposed = False
        ev.append({"type": "uno", "seat": seat})


def _do_draw(state: State, a: Action, rng: RNG, ev: list[Event]) -> State:
    seat = _usual_turn_seat(state, a, PLAY)
    if seat is None:
        seat = _turn_seat(state, a)
        if state.phase == DRAWN:
            raise EngineError(E.MUST_PLAY_DRAWN_CARD_OR_PASS, "you already drew: play it or pass")
        if state.house and state.phase == STACK:
            raise EngineError(E.STACK_PENDING, _not_stackable_message(state))
    # _draw_refusal(state, seat) is None, with the common case (a pile to draw from, no 2021
    # restriction) decided without the call, as in legal_actions.
    if not (
        (state.draw_pile or len(state.discard_pile) > 1) and not _DRAW_RESTRICTED[state.preset]
    ):
        refusal = _draw_refusal(state, seat)
        if refusal:
            raise EngineError(*refusal)
    # A turn action closes every catch window (False); hands and piles are shared (False):
    # _draw assigns new lists.
    s = copy_state(state, False, False)
    drawn = _draw(s, seat, 1, rng, ev, "voluntary")
    s.phase = DRAWN
    s.drawn_card = drawn[0]
    return s


def _do_pass(state: State, a: Action, rng: RNG, ev: list[Event]) -> State:
    seat = _usual_turn_seat(state, a, DRAWN)
    if seat is None:
        seat = _turn_seat(state, a)
        if state.phase != DRAWN:
            raise EngineError(E.PASS_NOT_ALLOWED, "you may pass only after drawing a card")
    s = copy_state(state, True, False)  # passing changes no hand and no pile: share them
    ev.append({"type": "pass", "seat": seat})
    _advance(s, ev)
    return s


def _do_choose(s: State, a: Action, rng: RNG, ev: list[Event]) -> None:
    seat = _seat_of(s, a)
    _require_player(s, seat)
    if s.phase != CHOOSE or not s.pending:
        raise EngineError(E.NO_CHOICE_PENDING, "there is no target to choose")
    if s.pending["seat"] != seat:
        raise EngineError(E.NOT_YOUR_TURN, f"seat {s.pending['seat']} chooses the target")
    _check_target(s, seat, s.pending["effect"], a.target, False)
    _resolve_choice(s, a.target, rng, ev)


def _resolve_choice(s: State, target: int | None, rng: RNG, ev: list[Event]) -> None:
    pending = s.pending
    assert pending is not None
    seat = pending["seat"]
    s.pending = None
    s.phase = PLAY
    ev.append({"type": "target_chosen", "seat": seat, "target": target})
    me = s.seats[seat]
    # A blind-played last card: a Targeted Draw 2 still hits, a Force Swap fizzles.
    going_out = pending["reason"] == "blind" and not me.hand
    _effect(s, seat, pending["effect"], target, going_out, rng, ev)
    if pending["reason"] != "opening":
        _finish_play(s, seat, pending["uno"], rng, ev)


def _do_uno(s: State, a: Action, rng: RNG, ev: list[Event]) -> None:
    seat = _seat_of(s, a)
    _require_player(s, seat)
    me = s.seats[seat]
    if len(me.hand) != 1 or me.uno:
        why = "you already said it" if me.uno else "you do not hold exactly one card"
        raise EngineError(E.UNO_NOT_ALLOWED, f"UNO not allowed: {why}")
    _say_uno(s, seat, ev)


def _do_catch(s: State, a: Action, rng: RNG, ev: list[Event]) -> None:
    seat = _seat_of(s, a)
    _require_player(s, seat)
    target = a.target
    if target is None:
        raise EngineError(E.TARGET_REQUIRED, "name the seat you catch")
    if target == seat or not 0 <= target < len(s.seats):
        raise EngineError(E.INVALID_TARGET, "you can catch another player only")
    if target not in catchable_seats(s):
        raise EngineError(
            E.NOTHING_TO_CATCH,
            f"seat {target} cannot be caught: they said UNO, do not hold exactly one card,"
            " or the chance to catch them has passed",
        )
    ev.append({"type": "caught", "seat": seat, "target": target})
    _draw(s, target, 2, rng, ev, "caught")
    s.seats[target].exposed = False  # settles this one-card stint, even if nothing was drawn


def _do_timeout(s: State, a: Action, rng: RNG, ev: list[Event]) -> None:
    seat = _seat_of(s, a)
    _require_player(s, seat)
    if seat != s.current:
        raise EngineError(E.NOT_YOUR_TURN, f"it is seat {s.current}'s turn, not {seat}'s")
    _close_catch_windows(s)
    ev.append({"type": "timeout", "seat": seat})
    if s.phase == STACK:  # a stack is owed: the total is drawn, not one card
        _take_stack(s, seat, rng, ev)
        return
    if s.phase == CHOOSE and s.pending:
        options = _targets(s, seat, s.pending["effect"], False)
        target = _choice(rng, options, ev) if options != [None] else None
        _resolve_choice(s, target, rng, ev)
        if s.phase != PLAY or s.current != seat:  # a blind-played card ended the turn
            return
    if s.phase == PLAY:
        _draw(s, seat, 1, rng, ev, "timeout")
    _advance(s, ev)


def _do_leave(s: State, a: Action, rng: RNG, ev: list[Event]) -> None:
    seat = _seat_of(s, a)
    if s.phase == MATCH_OVER:
        raise EngineError(E.GAME_OVER, "the match is over")
    me = s.seats[seat]
    if not me.active:
        raise EngineError(E.NOT_IN_ROUND, "that seat has already left")
    had_turn = s.phase in (PLAY, DRAWN, CHOOSE, STACK) and s.current == seat
    # Their hand goes face down under the draw pile: its order is nobody's business.
    s.draw_pile.extend(me.hand)
    ev.append(
        {
            "type": "left",
            "seat": seat,
            "count": len(me.hand),
            "secret": {"cards": list(me.hand)},
            "to": None,
        }
    )
    me.hand = []
    me.active = False
    me.uno = me.exposed = False
    me.skips = 0
    if s.pending and s.pending["seat"] == seat:
        s.pending = None
        if s.phase == CHOOSE:
            s.phase = PLAY
    if had_turn and s.phase == STACK:
        # A stack owed by the player who left is cancelled (RULES.md, Leaving).
        ev.append({"type": "stack_cancelled", "seat": seat, "total": s.stack})
        s.stack = 0
        s.phase = PLAY
    remaining = s.active_seats()
    if len(remaining) == 1:
        s.winner = remaining[0]
        s.phase = MATCH_OVER
        s.drawn_card = None
        s.pending = None
        s.stack = 0
        _close_catch_windows(s)
        ev.append({"type": "match_over", "winner": s.winner, "reason": "last_player_left"})
        return
    if had_turn:
        _advance(s, ev)


def _do_mercy(s: State, a: Action, rng: RNG, ev: list[Event]) -> None:
    """Mercy: a free action (no turn used, catch windows stay open)."""
    if not s.options.get("mercy"):
        raise EngineError(E.HOUSE_RULE_OFF, "mercy is not a house rule of this game")
    seat = _seat_of(s, a)
    _require_player(s, seat)
    refusal = _mercy_refusal(s, seat)
    if refusal:
        raise EngineError(*refusal)
    me = s.seats[seat]
    if a.card is not None or a.target is not None or a.targets is not None:
        raise EngineError(E.INVALID_ACTION, f"mercy takes {MERCY_COUNT} cards (a list), no target")
    if s.options.get("blind_play"):
        if a.cards is not None:
            raise EngineError(E.HAND_FACE_DOWN, "your hand is face down: its top five cards go")
        cards: tuple[str, ...] = tuple(me.hand[:MERCY_COUNT])
    else:
        if a.cards is None or len(a.cards) != MERCY_COUNT or len(set(a.cards)) != MERCY_COUNT:
            raise EngineError(E.WRONG_CARD_COUNT, f"mercy discards {MERCY_COUNT} different cards")
        for card in a.cards:
            if card not in me.hand:
                raise EngineError(E.CARD_NOT_IN_HAND, f"{card!r} is not in your hand")
        cards = a.cards
    for card in cards:
        me.hand.remove(card)
    s.discard_pile[1:1] = cards  # under the top discard, which stays in play
    ev.append({"type": "mercy", "seat": seat, "cards": list(cards)})
    me.mercy_used = True
    _hand_changed(s, seat)  # clears the right again at once if the hand is now below 15


def _do_next_round(s: State, a: Action, rng: RNG, ev: list[Event]) -> None:
    if s.phase == MATCH_OVER:
        raise EngineError(E.GAME_OVER, "the match is over")
    if s.phase != ROUND_OVER:
        raise EngineError(E.ROUND_IN_PROGRESS, "the round is still being played")
    _deal(s, rng, ev)


_HANDLERS: dict[str, Handler] = {
    A.PLAY: _do_play,
    A.PLAY_DRAWN: _do_play_drawn,
    A.DRAW: _do_draw,
    A.PASS: _do_pass,
    A.CHOOSE_TARGET: _on_copy(_do_choose),
    A.UNO: _on_copy(_do_uno),
    A.CATCH: _on_copy(_do_catch),
    A.TIMEOUT: _on_copy(_do_timeout),
    A.LEAVE: _on_copy(_do_leave),
    A.NEXT_ROUND: _on_copy(_do_next_round),
    A.TAKE_STACK: _do_take_stack,
    A.PLAY_PAIR: _do_play_pair,
    A.PLAY_TOP: _do_play_top,
    A.MERCY: _on_copy(_do_mercy),
}


# ---------------------------------------------------------------------------------------------
# Mechanics


def _direction_name(direction: int) -> str:
    return "clockwise" if direction == CLOCKWISE else "counterclockwise"


def _next_active(s: State, seat: int, direction: int) -> int:
    seats = s.seats
    n = len(seats)
    i = (seat + direction) % n
    if seats[i].active:  # nearly always: try the neighbour before setting up the loop
        return i
    for _ in range(n - 1):
        i = (i + direction) % n
        if seats[i].active:
            return i
    return seat  # pragma: no cover - a round always has two active seats


def _active_count(s: State) -> int:
    count = 0
    for seat in s.seats:
        if seat.active:
            count += 1
    return count


def _seats_from(s: State, start: int, direction: int) -> list[int]:
    """Active seats in turn order starting with ``start``."""
    order = [start]
    i = _next_active(s, start, direction)
    while i != start:
        order.append(i)
        i = _next_active(s, i, direction)
    return order


def _advance(s: State, ev: list[Event]) -> None:
    """Pass the turn to the next seat in the current direction that owes no lost turn."""
    seats = s.seats
    n = len(seats)
    direction = s.direction
    seat = s.current
    while True:
        # seat = _next_active(s, seat, direction), with its usual answer (the neighbour) inlined
        nxt = (seat + direction) % n
        seat = nxt if seats[nxt].active else _next_active(s, seat, direction)
        owes = seats[seat]
        if not owes.skips > 0:
            break
        owes.skips -= 1
        ev.append({"type": "skipped", "seat": seat})
    s.current = seat
    s.phase = PLAY
    s.drawn_card = None


def _lose_turns(s: State, seat: int, count: int, ev: list[Event]) -> None:
    s.seats[seat].skips += count
    ev.append({"type": "loses_turn", "seat": seat, "count": count})


def _close_catch_windows(s: State) -> None:
    for seat in s.seats:
        seat.exposed = False


def _hand_changed(s: State, seat: int) -> None:
    """Any change to a hand cancels an earlier UNO; one card left opens the catch window."""
    me = s.seats[seat]
    me.uno = False
    me.exposed = len(me.hand) == 1
    if me.mercy_used and len(me.hand) < MERCY_MIN:
        me.mercy_used = False  # the mercy right returns once the hand is below 15


def _draw(s: State, seat: int, count: int, rng: RNG, ev: list[Event], reason: str) -> list[str]:
    """Draw up to ``count`` cards, reshuffling the discards when the pile runs out.

    Assigns a new hand and new pile lists rather than changing the old ones, which may be shared
    with the state apply() was given (see copy_state).
    """
    pile = s.draw_pile
    if len(pile) >= count:  # no reshuffle needed: take the top cards in one slice
        drawn = pile[:count]
        s.draw_pile = pile[count:]
    else:
        pile = s.draw_pile = pile.copy()  # a list of its own, changed in place below
        drawn = []
        for _ in range(count):
            if not pile:
                if len(s.discard_pile) <= 1:
                    break
                _reshuffle(s, rng, ev)  # refills s.draw_pile (this list) in place
            drawn.append(pile.pop(0))
    me = s.seats[seat]
    # Each drawn card goes on top of the hand.
    if count == 1 and drawn:
        me.hand = [drawn[0], *me.hand]
    else:
        me.hand = drawn[::-1] + me.hand
    ev.append(
        {
            "type": "draw",
            "seat": seat,
            "count": len(drawn),
            "wanted": count,
            "reason": reason,
            # Under blind play the cards stay face down for the drawer too.
            "to": None if s.house and s.options.get("blind_play") else seat,
            "secret": {"cards": drawn},
        }
    )
    if drawn:  # _hand_changed, inlined
        me.uno = False
        me.exposed = len(me.hand) == 1
    return drawn


def _reshuffle(s: State, rng: RNG, ev: list[Event]) -> None:
    pile = s.discard_pile[1:]
    s.discard_pile = s.discard_pile[:1]  # a new list: the old one may be shared
    _shuffle(rng, pile, ev)
    s.draw_pile.extend(pile)
    ev.append({"type": "reshuffled", "count": len(pile)})


def _swap(s: State, seat: int, target: int, ev: list[Event]) -> None:
    a, b = s.seats[seat], s.seats[target]
    a.hand, b.hand = b.hand, a.hand
    ev.append({"type": "swap", "seat": seat, "target": target})
    _hand_changed(s, seat)
    _hand_changed(s, target)


def _pass_hands(s: State, direction: int, ev: list[Event], seat: int) -> None:
    """Every active seat passes its whole hand to the next active seat in ``direction``."""
    order = _seats_from(s, seat, direction)
    hands = [s.seats[i].hand for i in order]
    for k, i in enumerate(order):
        s.seats[i].hand = hands[k - 1]  # seat i receives from the seat before it
    ev.append({"type": "hands_passed", "direction": _direction_name(direction)})
    for i in order:
        _hand_changed(s, i)


def _end_round(s: State, winner: int, ev: list[Event]) -> None:
    points_table = PRESETS[s.preset].points
    hands = {str(i): list(seat.hand) for i, seat in enumerate(s.seats) if seat.active}
    points = sum(
        points_table[card_type(c)]
        for i, seat in enumerate(s.seats)
        for c in seat.hand
        if i != winner
    )
    s.seats[winner].score += points
    _close_catch_windows(s)
    s.drawn_card = None
    s.pending = None
    s.stack = 0
    result = {
        "round": s.round,
        "winner": winner,
        "points": points,
        "hands": hands,
        "scores": [seat.score for seat in s.seats],
    }
    s.round_results = [*s.round_results, result]
    ev.append({"type": "round_over", **result})
    if s.target_score == 0 or s.seats[winner].score >= s.target_score:
        s.phase = MATCH_OVER
        s.winner = winner
        ev.append({"type": "match_over", "winner": winner, "reason": "target_reached"})
    else:
        s.phase = ROUND_OVER


# ---------------------------------------------------------------------------------------------
# Chance: every outcome is logged so a game replays without an RNG.


def _shuffle(rng: RNG, cards: list[str], ev: list[Event]) -> None:
    if type(rng) is Random and _SHUFFLE_INLINE:
        _random_shuffle(rng, cards)
    else:
        rng.shuffle(cards)
    ev.append({"type": "chance", "kind": "shuffle", "order": list(cards)})


def _random_shuffle(rng: Random, x: list[Any]) -> None:
    """``rng.shuffle(x)`` for a plain ``random.Random``: CPython's own algorithm with its
    ``_randbelow`` inlined, so the same ``getrandbits`` calls give the same order.

    The deal shuffles 112 cards every round, and the Python call per card into ``_randbelow``
    was most of the deal's time. Used only when _check_shuffle found it identical to
    ``Random.shuffle`` (a seeded Random: tests, bots, the benchmark); any other RNG
    (``SystemRandom`` in production, replays) shuffles itself.
    """
    getrandbits = rng.getrandbits
    steps = _SHUFFLE_STEPS.get(len(x)) or _shuffle_steps(len(x))
    for i, n, k in steps:
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


# List length -> the steps of its shuffle: (position i, i + 1, the bits of i + 1), worked out once
_SHUFFLE_STEPS: dict[int, tuple[tuple[int, int, int], ...]] = {}


def _shuffle_steps(size: int) -> tuple[tuple[int, int, int], ...]:
    steps = tuple((i, i + 1, (i + 1).bit_length()) for i in range(size - 1, 0, -1))
    if size <= 2 * DECK_SIZE:  # the deck, reshuffled discards: a bounded cache
        _SHUFFLE_STEPS[size] = steps
    return steps


def _check_shuffle() -> bool:
    """Whether _random_shuffle gives Random.shuffle's orders and leaves the generator where
    Random.shuffle does (checked at import: another Python version may shuffle otherwise)."""
    for seed in range(20):
        for size in (0, 1, 2, 3, 7, 112):
            ours, theirs = Random(seed), Random(seed)
            a, b = list(range(size)), list(range(size))
            _random_shuffle(ours, a)
            theirs.shuffle(b)
            if a != b or ours.getstate() != theirs.getstate():
                return False
    return True


_SHUFFLE_INLINE = _check_shuffle()


def _choice(rng: RNG, options: list[Any], ev: list[Event]) -> Any:
    value = rng.choice(options)
    ev.append({"type": "chance", "kind": "choice", "options": list(options), "value": value})
    return value
