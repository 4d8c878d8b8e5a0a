"""Uno All Wild (the default game): its table, its action requests (the Uno family's base
shapes, games.kinds.uno) and their examples (docs/rules.md)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

from games.engine.uno.allwild.cards import CARD_TYPES, DRAW_AMOUNT
from games.engine.uno.allwild.game import ALL_WILD
from games.engine.uno.state import PHASES
from games.kinds import uno, uno_log
from games.kinds.base import Adapter
from games.kinds.log import card, event, seat
from games.kinds.shared import GameTableSerializer, example, legal_actions_field


class CardSerializer(serializers.Serializer):
    id = serializers.CharField(help_text="Stable card id, e.g. draw4-3.")
    type = serializers.ChoiceField(choices=CARD_TYPES)


class PendingChoiceSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    card = CardSerializer()
    effect = serializers.CharField()
    reason = serializers.CharField(
        help_text="`opening` (the opening card) or `blind` (a card revealed by blind play)."
    )


class StackSerializer(serializers.Serializer):
    total = serializers.IntegerField(help_text="Cards owed: the sum of the stacked draw cards.")
    seat = serializers.IntegerField(help_text="Who must stack on it or take the cards.")
    stackable = serializers.ListField(
        child=serializers.ChoiceField(choices=sorted(DRAW_AMOUNT)),
        help_text="The card types that may be stacked on it now.",
    )


LegalActionsField = legal_actions_field(
    "LegalAction", lambda: ADAPTER.listed, "What the seat may do now in Uno All Wild."
)


@extend_schema_serializer(component_name="UnoAllWildTable")
class TableSerializer(GameTableSerializer):
    """Uno All Wild's view for the caller's seat."""

    game = serializers.ChoiceField(choices=[ALL_WILD.kind])
    preset = serializers.CharField()
    options = serializers.DictField(child=serializers.BooleanField())
    target_score = serializers.IntegerField()
    round = serializers.IntegerField()
    phase = serializers.ChoiceField(choices=PHASES)
    current_seat = serializers.IntegerField()
    direction = serializers.ChoiceField(choices=["clockwise", "counterclockwise"])
    dealer = serializers.IntegerField()
    seats = uno.TableSeatSerializer(many=True)
    discard_top = CardSerializer(allow_null=True)
    discard_pile = CardSerializer(many=True, help_text="Face-up discards, top first.")
    draw_size = serializers.IntegerField()
    points = serializers.DictField(child=serializers.IntegerField())
    round_results = uno.RoundResultSerializer(many=True)
    winner = serializers.IntegerField(allow_null=True)
    you = serializers.IntegerField()
    hand = CardSerializer(
        many=True,
        allow_null=True,
        help_text="Your cards, top first; null under blind play (its size is in `seats`).",
    )
    hand_hidden = serializers.BooleanField(help_text="Blind play: your hand is face down.")
    drawn_card = CardSerializer(allow_null=True)
    pending_choice = PendingChoiceSerializer(allow_null=True)
    stack = StackSerializer(allow_null=True, help_text="Stacking: the cards owed, if any.")
    legal_actions = LegalActionsField(
        help_text="What you may do now, each in the shape of its request: send one back as it "
        "is (with `expected_version`), except a template (`choose`), which needs its choices.",
    )


def _card_type() -> serializers.ChoiceField:
    return serializers.ChoiceField(choices=CARD_TYPES)


EVENTS = {
    **uno_log.pick(*uno_log.COMMON, "pass", "swap", "hands_passed", "mercy", "play_pair"),
    "target_chosen": event(
        "UnoAllWild",
        "target_chosen",
        "The target of a card on the table chosen (the opening card, or one played blind).",
        seat=seat("Who chose."),
        target=seat("The seat chosen."),
    ),
    "fizzled": event(
        "UnoAllWild",
        "fizzled",
        "A card played as the last one had no effect (a Force Swap, Shuffle Hands).",
        seat=seat("Who played it."),
        card_type=_card_type(),
    ),
    "no_effect": event(
        "UnoAllWild",
        "no_effect",
        "A Force Swap with every other player protected: no effect.",
        seat=seat("Who played it."),
        card_type=_card_type(),
    ),
    "not_stackable": event(
        "UnoAllWild",
        "not_stackable",
        "Blind play under a stack: the revealed card cannot be stacked; the seat takes the stack.",
        seat=seat(),
        card=card("The card revealed."),
        card_type=_card_type(),
    ),
}

# The house rules' last.
EXAMPLES = [
    example("Play a card", type="play", card="wild-4", expected_version=12),
    example(
        "Play a Force Swap on seat 2 and say UNO",
        type="play",
        card="force_swap-3",
        target=2,
        uno=True,
        expected_version=12,
    ),
    example("Draw", type="draw", expected_version=12),
    example("Play the card just drawn", type="play_drawn", expected_version=13),
    example("Pass after drawing", type="pass", expected_version=13),
    example("Say UNO", type="uno", expected_version=14),
    example("Catch seat 1 without UNO", type="catch", target=1, expected_version=14),
    example(
        "Choose the target of the opening card", type="choose_target", target=2, expected_version=1
    ),
    example("Stacking: take the cards owed", type="take_stack", expected_version=15),
    example(
        "Double down: two Targeted Draw 2s, at seats 1 and 2",
        type="play_pair",
        cards=["targeted_draw2-3", "targeted_draw2-9"],
        targets=[1, 2],
        expected_version=15,
    ),
    example("Blind play: play the top card of your hand", type="play_top", expected_version=15),
    example(
        "Mercy: discard five cards",
        type="mercy",
        cards=["draw4-1", "draw4-2", "wild-3", "wild-7", "skip-2"],
        expected_version=15,
    ),
]

ADAPTER = Adapter(
    game=ALL_WILD,
    actions=uno.ACTIONS,
    table=TableSerializer,
    listed_as=uno.TEMPLATES,
    examples=EXAMPLES,
    bots=True,
    events=EVENTS,
    enum_names={
        **uno.ENUM_NAMES,
        "UnoAllWildKindEnum": [ALL_WILD.kind],
        "StackableEnum": sorted(DRAW_AMOUNT),
        "CardTypeEnum": list(CARD_TYPES),
        # A pair and a mercy are listed as templates (legal_actions) and sent as actions: one
        # `type` enum for both shapes.
        "PlayPairActionTypeEnum": ["play_pair"],
        "MercyActionTypeEnum": ["mercy"],
        # Uno Splash with stacking has All Wild's phases: one enum, All Wild's name kept.
        "UnoAllWildTablePhaseEnum": list(PHASES),
    },
)
