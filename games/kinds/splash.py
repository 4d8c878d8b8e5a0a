"""Uno Splash (classic UNO): its cards have colours, a wild names one, a Wild Draw Four is
answered (docs/rules-uno-splash.md)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

from config.fields import StrictCharField
from games.engine.uno.actions import COLOURS
from games.engine.uno.splash.cards import PRESETS, RANK_OF
from games.engine.uno.splash.game import SPLASH
from games.kinds import uno, uno_log
from games.kinds.base import Adapter
from games.kinds.log import card, cards, event, seat
from games.kinds.shared import (
    DrawActionSerializer,
    GameTableSerializer,
    action,
    example,
    game_action,
    legal_actions_field,
)


def _card_id() -> StrictCharField:
    return StrictCharField(max_length=64, help_text="Card id from your hand, e.g. red-7-b.")


ACTIONS: dict[str, type[serializers.Serializer]] = {
    "play": game_action(
        "UnoSplash",
        "play",
        "Uno Splash: play a playable card from your hand; a wild names its colour.",
        card=_card_id(),
        colour=uno.colour(help_text="Required with a Wild or Wild Draw Four, refused otherwise."),
        uno=uno.say_uno(),
    ),
    "draw": DrawActionSerializer,
    "play_drawn": game_action(
        "UnoSplash",
        "play_drawn",
        "Uno Splash: play the playable card you just drew (a wild names its colour).",
        colour=uno.colour(help_text="Required when the drawn card is a wild, refused otherwise."),
        uno=uno.say_uno(),
    ),
    "pass": uno.ACTIONS["pass"],
    "choose_colour": uno.CHOOSE_COLOUR,
    "accept": action(
        "accept", "Uno Splash: accept the Wild Draw Four played on you: draw 4, lose the turn."
    ),
    "challenge": action(
        "challenge",
        "Uno Splash: challenge the Wild Draw Four played on you (only its next player may). "
        "You see the hand it was played from; illegal: its player draws 4 and you play, legal: "
        "you draw 6 and lose the turn.",
    ),
    "uno": uno.ACTIONS["uno"],
    "catch": uno.ACTIONS["catch"],
    "mercy": uno.ACTIONS["mercy"],
    "play_pair": uno.ACTIONS["play_pair"],
    "take_stack": game_action(
        "UnoSplash",
        "take_stack",
        "Uno Splash, stacking: take the total owed instead of stacking (or challenging the Wild "
        "Draw Four on top) and lose the turn.",
    ),
}


EVENTS = {
    **uno_log.pick(*uno_log.COMMON, "pass", "colour_chosen", "mercy", "play_pair"),
    "opening_returned": event(
        "UnoSplash",
        "opening_returned",
        "An opening Wild Draw Four went back into the pile; the next card opens instead.",
        card=card("The card returned."),
        next=card("The new opening card."),
    ),
    "response_required": event(
        "UnoSplash",
        "response_required",
        "A Wild Draw Four played: the next player accepts it or challenges it.",
        seat=seat("Who answers."),
        owner=seat("Who played it."),
        card=card(),
    ),
    "accepted": event("UnoSplash", "accepted", "The Wild Draw Four accepted.", seat=seat()),
    "challenge": event(
        "UnoSplash",
        "challenge",
        "The Wild Draw Four challenged: whether it was played illegally.",
        seat=seat("Who challenged."),
        target=seat("Who played it."),
        succeeded=serializers.BooleanField(help_text="It was illegal: its player draws."),
        hand=cards("The hand it was played from: to the challenger only.", required=False),
    ),
    "response_cancelled": event(
        "UnoSplash",
        "response_cancelled",
        "The answer owed to a Wild Draw Four is cancelled (its player or answerer left).",
        seat=seat(),
        owner=seat("Who played it."),
    ),
}


LegalActionsField = legal_actions_field(
    "UnoSplashLegalAction",
    lambda: ADAPTER.listed,
    "What the seat may do now in Uno Splash: a union discriminated by ``type``.",
)


RANKS = sorted(set(RANK_OF.values()))


class SplashCardSerializer(serializers.Serializer):
    id = serializers.CharField(help_text="Stable card id: red-7-b, blue-skip-a, wild-3, wd4-1.")
    type = serializers.CharField(help_text="The id without its copy: red-7, blue-skip, wild, wd4.")
    colour = serializers.ChoiceField(
        choices=list(COLOURS), allow_null=True, help_text="Null for a Wild or Wild Draw Four."
    )
    rank = serializers.ChoiceField(
        choices=RANKS,
        help_text="0-9, skip, reverse, draw2, wild or wd4.",
    )


class SplashStackSerializer(serializers.Serializer):
    total = serializers.IntegerField(help_text="Cards owed: the sum of the stacked Draw cards.")
    seat = serializers.IntegerField(
        help_text="Who must stack on it or take the cards (and may first challenge a Wild Draw "
        "Four on top)."
    )
    stackable = serializers.ListField(
        child=serializers.ChoiceField(choices=["draw2", "wd4"]),
        help_text="The ranks that may be stacked on it now.",
    )


class SplashPendingChoiceSerializer(serializers.Serializer):
    seat = serializers.IntegerField(help_text="Who owes the choice: the colour, or the answer.")
    owner = serializers.IntegerField(help_text="Whose card waits: the Wild Draw Four's player.")
    card = SplashCardSerializer()
    effect = serializers.ChoiceField(choices=["colour", "wd4"])
    reason = serializers.ChoiceField(
        choices=["opening", "response"],
        help_text="`opening`: name the opening Wild's colour; `response`: accept or challenge "
        "(under stacking: challenge it, stack on it or take the total).",
    )


@extend_schema_serializer(component_name="UnoSplashTable")
class TableSerializer(GameTableSerializer):
    """Uno Splash's view for the caller's seat (docs/rules-uno-splash.md)."""

    game = serializers.ChoiceField(choices=[SPLASH.kind])
    preset = serializers.ChoiceField(choices=sorted(PRESETS))
    options = serializers.DictField(child=serializers.BooleanField())
    target_score = serializers.IntegerField()
    round = serializers.IntegerField()
    phase = serializers.ChoiceField(
        choices=["play", "drawn", "choose", "stack", "respond", "round_over", "match_over"],
        help_text="`choose`: the opening Wild's colour is owed; `respond`: a Wild Draw Four "
        "waits for its next player's answer; `stack` (stacking): a total is owed, stack on it "
        "or take it.",
    )
    current_seat = serializers.IntegerField()
    direction = serializers.ChoiceField(choices=["clockwise", "counterclockwise"])
    dealer = serializers.IntegerField()
    seats = uno.TableSeatSerializer(many=True)
    colour = serializers.ChoiceField(
        choices=list(COLOURS), allow_null=True, help_text="The colour in force."
    )
    stack = SplashStackSerializer(allow_null=True, help_text="Stacking: the total owed, if any.")
    discard_top = SplashCardSerializer(allow_null=True)
    discard_pile = SplashCardSerializer(many=True, help_text="Face-up discards, top first.")
    draw_size = serializers.IntegerField()
    points = serializers.DictField(
        child=serializers.IntegerField(), help_text="Points left in a hand, by card type."
    )
    round_results = uno.RoundResultSerializer(many=True)
    winner = serializers.IntegerField(allow_null=True)
    you = serializers.IntegerField()
    hand = SplashCardSerializer(many=True, help_text="Your cards, top first.")
    drawn_card = SplashCardSerializer(allow_null=True)
    pending_choice = SplashPendingChoiceSerializer(allow_null=True)
    legal_actions = LegalActionsField(
        help_text="What you may do now, each in the shape of its request: send one back as it "
        "is (with `expected_version`); a wild is listed once per colour.",
    )


EXAMPLES = [
    example(
        "Uno Splash Wild Draw Four naming green",
        type="play",
        card="wd4-2",
        colour="green",
        expected_version=7,
    ),
    example(
        "Uno Splash opening Wild colour", type="choose_colour", colour="blue", expected_version=1
    ),
    example("Uno Splash accept a Wild Draw Four", type="accept", expected_version=8),
    example("Uno Splash challenge a Wild Draw Four", type="challenge", expected_version=8),
]

ADAPTER = Adapter(
    game=SPLASH,
    actions=ACTIONS,
    table=TableSerializer,
    listed_as=uno.listed_as(ACTIONS),
    examples=EXAMPLES,
    bots=True,
    events=EVENTS,
    enum_names={
        **uno.ENUM_NAMES,
        "UnoSplashKindEnum": [SPLASH.kind],
        # Uno Splash's enums keep the names they had before No Mercy brought fields of the same
        # names; No Mercy's are named after it.
        "EffectEnum": ["colour", "wd4"],
        "PresetEnum": ["classic"],
        "RankEnum": RANKS,
        "SplashStackableEnum": ["draw2", "wd4"],
    },
)
