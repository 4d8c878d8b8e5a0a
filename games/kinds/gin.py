"""Gin Rummy: draw from the stock or the discard pile, discard, knock (docs/gin_rummy.md)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

from config.fields import StrictCharField
from games.engine.gin.game import GIN_RUMMY
from games.kinds import uno
from games.kinds.base import Adapter
from games.kinds.log import CHANCE, TIMEOUT, cards, event, seat
from games.kinds.shared import (
    DrawActionSerializer,
    GameTableSerializer,
    example,
    game_action,
    legal_actions_field,
)


def _card(help_text: str) -> StrictCharField:
    return StrictCharField(max_length=2, help_text=help_text)


ACTIONS: dict[str, type[serializers.Serializer]] = {
    "take_upcard": game_action(
        "GinRummy",
        "take_upcard",
        "Gin Rummy, the first turn: take the upcard (that is your draw; then discard another "
        "card or knock).",
    ),
    # The same request as Uno's pass (no field): in Gin Rummy it passes the upcard.
    "pass": uno.ACTIONS["pass"],
    "draw": DrawActionSerializer,
    "discard": game_action(
        "GinRummy",
        "discard",
        "Gin Rummy: discard a card face up (never the card just taken from the discard pile); "
        "your turn ends.",
        card=_card("The card, e.g. 7h (ranks A 2-9 T J Q K, suits s h d c)."),
    ),
    "knock": game_action(
        "GinRummy",
        "knock",
        "Gin Rummy: discard a card face down and end the round; the ten cards you keep must "
        "leave 10 deadwood or less. Gin when they all meld. Melds are laid out for you.",
        card=_card("The knock discard, e.g. Kc."),
    ),
    "big_gin": game_action(
        "GinRummy", "big_gin", "Gin Rummy: all eleven cards meld; end the round without a discard."
    ),
}


LegalActionsField = legal_actions_field(
    "GinRummyLegalAction",
    lambda: ADAPTER.listed,
    "What the seat may do now in Gin Rummy: a union discriminated by ``type``.",
)


class GinCardSerializer(serializers.Serializer):
    id = serializers.CharField(help_text="Rank then suit: As, Th, Kc.")
    rank = serializers.ChoiceField(choices=list("A23456789TJQK"))
    suit = serializers.ChoiceField(choices=list("shdc"))
    value = serializers.IntegerField(help_text="Deadwood value: A 1, 2-10 face value, J Q K 10.")


class GinSeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    hand_size = serializers.IntegerField()
    score = serializers.IntegerField()
    rounds_won = serializers.IntegerField()
    active = serializers.BooleanField()


class GinTakeSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    card = serializers.CharField()


class GinLayoffSerializer(serializers.Serializer):
    card = serializers.CharField()
    meld = serializers.IntegerField(help_text="Index in the knocker's `melds`.")


class GinLayoutSerializer(serializers.Serializer):
    melds = serializers.ListField(child=serializers.ListField(child=serializers.CharField()))
    layoffs = GinLayoffSerializer(many=True, help_text="The defender's, in the order laid.")
    deadwood = serializers.ListField(child=serializers.CharField())
    count = serializers.IntegerField(help_text="Deadwood count.")


class GinRoundResultSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    winner = serializers.IntegerField(allow_null=True, help_text="Null after the wall (a draw).")
    points = serializers.IntegerField()
    how = serializers.ChoiceField(choices=["knock", "undercut", "gin", "big_gin", "wall"])
    knocker = serializers.IntegerField(allow_null=True)
    knock_discard = serializers.CharField(allow_null=True, help_text="Face down until now.")
    knocker_count = serializers.IntegerField(allow_null=True)
    defender_count = serializers.IntegerField(allow_null=True)
    layouts = serializers.DictField(child=GinLayoutSerializer(), help_text="By seat.")
    hands = serializers.DictField(child=serializers.ListField(child=serializers.CharField()))
    scores = serializers.ListField(child=serializers.IntegerField())
    rounds_won = serializers.ListField(child=serializers.IntegerField())
    next_dealer = serializers.IntegerField()
    bonuses = serializers.ListField(
        child=serializers.IntegerField(), required=False, help_text="Game and line bonuses."
    )
    final_scores = serializers.ListField(child=serializers.IntegerField(), required=False)


class GinRoundOverEventSerializer(GinRoundResultSerializer):
    """The round is over: its result (as in the table's `round_results`), both hands revealed
    and laid out."""

    type = serializers.ChoiceField(choices=["round_over"])


def _card(help_text: str = "The card, e.g. 7h.") -> serializers.CharField:
    return serializers.CharField(help_text=help_text)


EVENTS = {
    "chance": CHANCE,
    "deal": event(
        "GinRummy",
        "deal",
        "A round dealt: ten cards each, the upcard turned.",
        round=serializers.IntegerField(),
        dealer=seat("The dealer."),
        upcard=_card("The upcard, face up."),
    ),
    "hand": event(
        "GinRummy",
        "hand",
        "A seat's dealt hand: its cards to that seat only.",
        seat=seat(),
        cards=cards("The ten cards: to their owner only.", required=False),
    ),
    "pass": event("GinRummy", "pass", "The seat passed the upcard.", seat=seat()),
    "take_upcard": event(
        "GinRummy", "take_upcard", "The seat took the upcard.", seat=seat(), card=_card()
    ),
    "draw": event(
        "GinRummy",
        "draw",
        "The seat drew: from the discard pile (the card shown), or from the stock (the card to "
        "the drawer only).",
        seat=seat(),
        source=serializers.ChoiceField(choices=["stock", "discard"]),
        card=serializers.CharField(
            required=False, help_text="The card drawn (from the stock: to the drawer only)."
        ),
    ),
    "discard": event("GinRummy", "discard", "A card discarded face up.", seat=seat(), card=_card()),
    "knock": event("GinRummy", "knock", "The seat knocked.", seat=seat()),
    "big_gin": event("GinRummy", "big_gin", "The seat went big gin.", seat=seat()),
    "timeout": TIMEOUT,
    "left": event("GinRummy", "left", "The seat left: it forfeits the match.", seat=seat()),
    "round_over": GinRoundOverEventSerializer,
    "match_over": event(
        "GinRummy",
        "match_over",
        "The match is over.",
        winner=seat("The winner."),
        reason=serializers.ChoiceField(choices=["target_reached", "forfeit"]),
    ),
}


@extend_schema_serializer(component_name="GinRummyTable")
class TableSerializer(GameTableSerializer):
    """Gin Rummy's view for the caller's seat (docs/gin_rummy.md)."""

    game = serializers.ChoiceField(choices=[GIN_RUMMY.kind])
    preset = serializers.ChoiceField(choices=["standard"])
    options = serializers.DictField(child=serializers.BooleanField())
    target_score = serializers.IntegerField()
    round = serializers.IntegerField()
    phase = serializers.ChoiceField(
        choices=["offer", "draw", "discard", "round_over", "match_over"],
        help_text="`offer`: the upcard is offered; `draw`, then `discard` (or knock).",
    )
    current_seat = serializers.IntegerField(allow_null=True)
    dealer = serializers.IntegerField()
    seats = GinSeatSerializer(many=True)
    upcard_passes = serializers.IntegerField()
    stock_size = serializers.IntegerField()
    discard_top = GinCardSerializer(allow_null=True)
    discard_pile = GinCardSerializer(many=True, help_text="Face-up discards, top first.")
    taken = serializers.CharField(allow_null=True, help_text="Taken from the discard pile now.")
    takes = GinTakeSerializer(many=True, help_text="This round's takes from the discard pile.")
    round_results = GinRoundResultSerializer(many=True)
    winner = serializers.IntegerField(allow_null=True)
    you = serializers.IntegerField()
    hand = GinCardSerializer(many=True)
    melds = serializers.ListField(
        child=serializers.ListField(child=serializers.CharField()),
        help_text="Your hand's least-deadwood melds.",
    )
    deadwood = serializers.ListField(child=serializers.CharField())
    deadwood_count = serializers.IntegerField()
    legal_actions = LegalActionsField(
        help_text="What you may do now, each in the shape of its request: send one back as it is."
    )


EXAMPLES = [
    example("Gin Rummy: take the upcard", type="take_upcard", expected_version=1),
    example(
        "Gin Rummy: draw from the discard pile", type="draw", source="discard", expected_version=6
    ),
    example("Gin Rummy: discard the king of clubs", type="discard", card="Kc", expected_version=7),
    example(
        "Gin Rummy: knock, the 4 of hearts face down", type="knock", card="4h", expected_version=9
    ),
    example("Gin Rummy: big gin", type="big_gin", expected_version=9),
]

ADAPTER = Adapter(
    game=GIN_RUMMY,
    actions=ACTIONS,
    table=TableSerializer,
    examples=EXAMPLES,
    bots=True,
    events=EVENTS,
    enum_names={"GinRummyKindEnum": [GIN_RUMMY.kind]},
)
