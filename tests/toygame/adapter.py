"""The toy game's adapter (games.kinds.base.Adapter): what the API says about it beyond its
rules, declared once."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

from config.fields import StrictCharField
from games.kinds.base import Adapter
from games.kinds.log import CHANCE, TIMEOUT, event, seat
from games.kinds.shared import GameTableSerializer, example, game_action, legal_actions_field
from tests.toygame.engine import CARDS, KIND, TOY

ACTIONS: dict[str, type[serializers.Serializer]] = {
    "discard": game_action(
        "Toy",
        "discard",
        "Draw and discard: discard a card from your hand.",
        card=StrictCharField(max_length=2, help_text="The card, c0 to c9."),
    ),
    "draw": game_action("Toy", "draw", "Draw and discard: draw a card from the pile."),
}

LegalActionsField = legal_actions_field(
    "ToyLegalAction", lambda: ADAPTER.listed, "What the seat may do now in Draw and discard."
)


@extend_schema_serializer(component_name="ToyTable")
class TableSerializer(GameTableSerializer):
    """Draw and discard's view for the caller's seat."""

    game = serializers.ChoiceField(choices=[KIND])
    you = serializers.IntegerField()
    hand = serializers.ListField(child=serializers.ChoiceField(choices=CARDS))
    hand_sizes = serializers.ListField(child=serializers.IntegerField())
    pile_size = serializers.IntegerField()
    current_seat = serializers.IntegerField()
    phase = serializers.ChoiceField(choices=["play", "round_over", "match_over"])
    round = serializers.IntegerField()
    scores = serializers.ListField(child=serializers.IntegerField())
    winner = serializers.IntegerField(allow_null=True)
    legal_actions = LegalActionsField(help_text="What you may do now: send one back as it is.")


def _card(**kwargs: bool) -> serializers.ChoiceField:
    return serializers.ChoiceField(choices=CARDS, **kwargs)


EVENTS = {
    "chance": CHANCE,
    "round_started": event(
        "Toy", "round_started", "Draw and discard: a round dealt.", round=serializers.IntegerField()
    ),
    "discard": event("Toy", "discard", "A card discarded.", seat=seat(), card=_card()),
    "draw": event(
        "Toy",
        "draw",
        "A card drawn: which one to the drawer only.",
        seat=seat(),
        card=_card(required=False),
    ),
    "timeout": TIMEOUT,
    "left": event("Toy", "left", "The seat left: it loses.", seat=seat()),
    "round_over": event(
        "Toy",
        "round_over",
        "The round is over; the hands are shown.",
        round=serializers.IntegerField(),
        winner=seat(),
        points=serializers.IntegerField(),
        hands=serializers.DictField(child=serializers.ListField(child=_card())),
        scores=serializers.ListField(child=serializers.IntegerField()),
    ),
    "match_over": event("Toy", "match_over", "The match is over.", winner=seat()),
}

ADAPTER = Adapter(
    game=TOY,
    actions=ACTIONS,
    table=TableSerializer,
    examples=[example("Draw and discard: discard c3", type="discard", card="c3")],
    events=EVENTS,
    enum_names={
        "ToyKindEnum": [KIND],
        "ToyCardEnum": CARDS,
        "ToyPhaseEnum": ["play", "round_over", "match_over"],
    },
)
