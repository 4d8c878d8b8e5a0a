"""The Uno family's wire formats the Uno games share: All Wild's action requests (the family's
base shapes, which Uno Splash and No Mercy reuse where their rules agree), the templates
``legal_actions`` lists for a pair and a mercy, a seat at the table, a round's result."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from config.fields import StrictBooleanField, StrictCharField, StrictIntegerField
from games.engine.uno.actions import COLOURS
from games.kinds.shared import DrawActionSerializer, action, template


def target(help_text: str, required: bool = False) -> StrictIntegerField:
    return StrictIntegerField(required=required, min_value=0, help_text=help_text)


def say_uno() -> StrictBooleanField:
    return StrictBooleanField(required=False, default=False, help_text="Say UNO with this play.")


def colour(required: bool = False, help_text: str = "") -> serializers.ChoiceField:
    return serializers.ChoiceField(
        choices=list(COLOURS),
        required=required,
        help_text=help_text
        or "Games with colours (Uno Splash): the colour a Wild or Wild Draw Four names; leave "
        "out for a coloured card.",
    )


# The schema's names of the enums every Uno game's fields share.
ENUM_NAMES = {"ColourEnum": list(COLOURS)}

ACTIONS: dict[str, type[serializers.Serializer]] = {
    "play": action(
        "play",
        "Play a card from your hand.",
        # Ids are short ("force_swap-3"): a longer one is no card, and is not echoed back.
        card=StrictCharField(max_length=64, help_text="Card id from your hand."),
        target=target("Seat to target (Targeted Draw 2, Force Swap)."),
        uno=say_uno(),
        colour=colour(),
    ),
    "draw": DrawActionSerializer,
    "play_drawn": action(
        "play_drawn",
        "Play the card you just drew.",
        target=target("Seat to target, if the card needs one."),
        uno=say_uno(),
        colour=colour(),
    ),
    "pass": action("pass", "End your turn after drawing."),
    "uno": action("uno", "Say UNO while holding one card."),
    "catch": action(
        "catch",
        "Catch a player holding one card who has not said UNO.",
        target=target("Seat to catch.", required=True),
    ),
    "choose_target": action(
        "choose_target",
        "Choose the target of a card on the table (opening card, or blind play's revealed card).",
        target=target("Seat to target.", required=True),
    ),
    # House rules
    "take_stack": action(
        "take_stack", "Stacking: take the cards owed instead of stacking (and lose the turn)."
    ),
    "play_pair": action(
        "play_pair",
        "Double down: play two identical cards at once (see the play_pair template in "
        "legal_actions).",
        cards=serializers.ListField(
            child=StrictCharField(max_length=64),
            min_length=2,
            max_length=2,
            help_text="The two card ids.",
        ),
        targets=serializers.ListField(
            child=StrictIntegerField(min_value=0),
            required=False,
            min_length=2,
            max_length=2,
            help_text="One seat per card, in order, for two Targeted Draw 2s or Force Swaps.",
        ),
        uno=say_uno(),
    ),
    "play_top": action(
        "play_top",
        "Blind play: play the top card of your face-down hand; a target it needs is chosen "
        "after it is revealed (choose_target).",
        uno=say_uno(),
    ),
    "mercy": action(
        "mercy",
        "Mercy: with 15 or more cards, discard five (a free action: it uses no turn).",
        cards=serializers.ListField(
            child=StrictCharField(max_length=64),
            required=False,
            max_length=5,
            help_text="The five card ids to discard; leave out under blind play (the top five go).",
        ),
    ),
}

# Naming the colour in force: Uno Splash's opening Wild; No Mercy's legal actions list it too.
CHOOSE_COLOUR = action(
    "choose_colour",
    "Uno Splash: name the colour of the opening Wild (the first player, before anything else).",
    colour=colour(required=True, help_text="The colour in force from now on."),
)


# `from` is a Python keyword: declare the fields through type().
PickSerializer = type(
    "PickSerializer",
    (serializers.Serializer,),
    {
        "__doc__": "What a template leaves you to choose: `count` cards out of `from` (and, "
        "when `targets` is given, that many seats out of `target_from`, one per card).",
        "count": serializers.IntegerField(),
        "from": serializers.ListField(child=serializers.CharField()),
        "targets": serializers.IntegerField(required=False),
        "target_from": serializers.ListField(child=serializers.IntegerField(), required=False),
    },
)

# What `legal_actions` lists for double down and mercy, which leave the cards to choose.
TEMPLATES: dict[str, type[serializers.Serializer]] = {
    "play_pair": template(
        "play_pair",
        "Double down, as listed: send `play_pair` with two of `choose.from` as `cards` (and "
        "`targets` when `choose.targets` is given).",
        choose=PickSerializer(help_text="The cards (and seats) to choose from."),
    ),
    "mercy": template(
        "mercy",
        "Mercy, as listed: send `mercy` with `choose.count` of `choose.from` as `cards` (under "
        "blind play it is listed without `choose`: send it as it is).",
        choose=PickSerializer(required=False, help_text="The cards to choose from."),
    ),
}


def listed_as(actions: dict[str, Any]) -> dict[str, type[serializers.Serializer]]:
    """How an Uno game's ``legal_actions`` lists its actions in the schema: each in the family's
    shape (All Wild's request, or its template) where the family has one."""
    family = {**ACTIONS, "choose_colour": CHOOSE_COLOUR, **TEMPLATES}
    return {name: family[name] for name in actions if name in family}


class TableSeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    hand_size = serializers.IntegerField()
    uno = serializers.BooleanField(help_text="Said UNO for the current one-card stint.")
    catchable = serializers.BooleanField(help_text="Holds one card without UNO: catch them!")
    active = serializers.BooleanField(help_text="False once the player left.")
    skips_owed = serializers.IntegerField()
    score = serializers.IntegerField()


class RoundResultSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    winner = serializers.IntegerField()
    points = serializers.IntegerField()
    hands = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()),
        help_text="Hands left at the end of the round, revealed as at a real table.",
    )
    hand_points = serializers.DictField(
        child=serializers.IntegerField(),
        required=False,
        help_text="What each hand left in the round counted, by seat (the winner's excepted): "
        "`points` is their sum. Absent from rounds that ended before it was recorded.",
    )
    scores = serializers.ListField(child=serializers.IntegerField())
