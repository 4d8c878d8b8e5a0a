"""Uno Show 'Em No Mercy: colours as Uno Splash, official stacking, knockouts, 7 swaps, the
roulette (docs/rules-uno-no-mercy.md)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

from config.fields import StrictCharField
from games.engine.uno.actions import COLOURS
from games.engine.uno.nomercy.cards import DRAW_VALUE, PRESETS, RANK_OF
from games.engine.uno.nomercy.game import NO_MERCY
from games.kinds import uno, uno_log
from games.kinds.base import Adapter
from games.kinds.log import cards, event, seat
from games.kinds.shared import GameTableSerializer, game_action, legal_actions_field

ACTIONS: dict[str, type[serializers.Serializer]] = {
    "play": game_action(
        "UnoNoMercy",
        "play",
        "Uno Show 'Em No Mercy: play a playable card (facing a stack: a Draw card the stack "
        "takes); a wild but the Roulette names its colour, a 7 the player you swap hands with.",
        card=StrictCharField(max_length=64, help_text="Card id from your hand, e.g. red-7-b."),
        colour=uno.colour(help_text="Required with a Wild Draw card, refused otherwise."),
        target=uno.target("Required with a 7: the player in the round you swap hands with."),
        uno=uno.say_uno(),
    ),
    "draw": game_action(
        "UnoNoMercy",
        "draw",
        "Uno Show 'Em No Mercy: holding nothing playable, draw until a playable card comes; you "
        "must then play it (play_drawn).",
    ),
    "play_drawn": game_action(
        "UnoNoMercy",
        "play_drawn",
        "Uno Show 'Em No Mercy: play the playable card your draw ended on (its only action).",
        colour=uno.colour(help_text="Required when the drawn card is a Wild Draw card."),
        target=uno.target("Required when the drawn card is a 7."),
        uno=uno.say_uno(),
    ),
    "take_stack": game_action(
        "UnoNoMercy",
        "take_stack",
        "Uno Show 'Em No Mercy: take the stack's total instead of stacking (one card at a time; "
        "25 cards knock you out of the round).",
    ),
    "choose_colour": game_action(
        "UnoNoMercy",
        "choose_colour",
        "Uno Show 'Em No Mercy: name a colour for a Wild Color Roulette played on you (then "
        "cards are revealed into your hand until it comes) or for an opening wild.",
        colour=uno.colour(required=True, help_text="The colour in play from now on."),
    ),
    "uno": uno.ACTIONS["uno"],
    "catch": uno.ACTIONS["catch"],
}


EVENTS = {
    **uno_log.pick(*uno_log.COMMON, "swap", "hands_passed", "colour_chosen"),
    "discarded_all": event(
        "UnoNoMercy",
        "discarded_all",
        "Discard All: every card of its colour discarded with it.",
        seat=seat(),
        colour=uno.colour(required=True, help_text="The colour discarded."),
        cards=cards("The cards discarded."),
    ),
    "knocked_out": event(
        "UnoNoMercy",
        "knocked_out",
        "Mercy rule: 25 cards or more in hand, the seat is out of the round.",
        seat=seat(),
        count=serializers.IntegerField(help_text="Cards it held."),
        by=seat("Who made it draw them, if anyone.", allow_null=True),
    ),
    "bonus": event(
        "UnoNoMercy",
        "bonus",
        "The 250 points for knocking a player out.",
        seat=seat("Who scores them."),
        points=serializers.IntegerField(),
        victim=seat("Who was knocked out."),
    ),
}


LegalActionsField = legal_actions_field(
    "UnoNoMercyLegalAction",
    lambda: ADAPTER.listed,
    "What the seat may do now in Uno Show 'Em No Mercy: a union discriminated by ``type``.",
)


RANKS = sorted(set(RANK_OF.values()))
DRAW_RANKS = sorted(DRAW_VALUE)


class NoMercyCardSerializer(serializers.Serializer):
    id = serializers.CharField(
        help_text="Stable card id: red-7-b, blue-draw4-a, green-skip_all-b, wd10-3, roulette-1."
    )
    type = serializers.CharField(help_text="The id without its copy: red-7, blue-draw4, wd10.")
    colour = serializers.ChoiceField(
        choices=list(COLOURS), allow_null=True, help_text="Null for a wild."
    )
    rank = serializers.ChoiceField(
        choices=RANKS,
        help_text="0-9, skip, reverse, draw2, draw4, discard_all, skip_all (Skip Everyone), "
        "wrd4 (Wild Reverse Draw 4), wd6, wd10 or roulette (Wild Color Roulette).",
    )


class NoMercyPendingChoiceSerializer(serializers.Serializer):
    seat = serializers.IntegerField(help_text="Who names the colour.")
    owner = serializers.IntegerField(help_text="The Roulette's player (the chooser when opening).")
    card = NoMercyCardSerializer()
    effect = serializers.ChoiceField(choices=["colour"])
    reason = serializers.ChoiceField(
        choices=["opening", "roulette"],
        help_text="`roulette`: a Wild Color Roulette was played on you; `opening`: the opening "
        "wild's colour.",
    )


class NoMercyStackSerializer(serializers.Serializer):
    total = serializers.IntegerField(help_text="Cards owed: the sum of the stacked Draw cards.")
    seat = serializers.IntegerField(help_text="Who must stack on it or take the cards.")
    by = serializers.IntegerField(
        allow_null=True, help_text="Who stacked last: paid 250 if the total knocks you out."
    )
    last = serializers.IntegerField(help_text="The last Draw card's value: stack at least this.")
    stackable = serializers.ListField(
        child=serializers.ChoiceField(choices=DRAW_RANKS),
        help_text="The ranks that may be stacked on it now (none on a Wild Draw 10).",
    )


@extend_schema_serializer(component_name="UnoNoMercyTable")
class TableSerializer(GameTableSerializer):
    """Uno Show 'Em No Mercy's view for the caller's seat (docs/rules-uno-no-mercy.md)."""

    game = serializers.ChoiceField(choices=[NO_MERCY.kind])
    preset = serializers.ChoiceField(choices=sorted(PRESETS))
    options = serializers.DictField(child=serializers.BooleanField())
    target_score = serializers.IntegerField()
    round = serializers.IntegerField()
    phase = serializers.ChoiceField(
        choices=["play", "drawn", "choose", "stack", "round_over", "match_over"],
        help_text="`drawn`: play the card your draw ended on; `stack`: a stack is owed; "
        "`choose`: a colour is owed (a Roulette played on you, an opening wild).",
    )
    current_seat = serializers.IntegerField()
    direction = serializers.ChoiceField(choices=["clockwise", "counterclockwise"])
    dealer = serializers.IntegerField()
    seats = uno.TableSeatSerializer(many=True)
    colour = serializers.ChoiceField(
        choices=list(COLOURS), allow_null=True, help_text="The colour in play."
    )
    stack = NoMercyStackSerializer(allow_null=True, help_text="The stack owed, if any.")
    knocked_out = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="Seats knocked out of this round (25 cards), in order; dealt in next round.",
    )
    set_aside_size = serializers.IntegerField(
        help_text="Cards of knocked-out hands, face down until the next reshuffle."
    )
    discard_top = NoMercyCardSerializer(allow_null=True)
    discard_pile = NoMercyCardSerializer(many=True, help_text="Face-up discards, top first.")
    draw_size = serializers.IntegerField()
    points = serializers.DictField(
        child=serializers.IntegerField(), help_text="Points left in a hand, by card type."
    )
    round_results = uno.RoundResultSerializer(many=True)
    winner = serializers.IntegerField(allow_null=True)
    you = serializers.IntegerField()
    hand = NoMercyCardSerializer(many=True, help_text="Your cards, top first.")
    drawn_card = NoMercyCardSerializer(allow_null=True)
    pending_choice = NoMercyPendingChoiceSerializer(allow_null=True)
    legal_actions = LegalActionsField(
        help_text="What you may do now, each in the shape of its request: send one back as it "
        "is (with `expected_version`); a wild is listed once per colour, a 7 once per player.",
    )


# No examples of its own yet (the action endpoint's show All Wild's and Splash's shapes).
ADAPTER = Adapter(
    game=NO_MERCY,
    actions=ACTIONS,
    table=TableSerializer,
    listed_as=uno.listed_as(ACTIONS),
    bots=True,
    events=EVENTS,
    out_for_good=lambda state, seat: seat in state.knocked_out,
    enum_names={
        **uno.ENUM_NAMES,
        "UnoNoMercyKindEnum": [NO_MERCY.kind],
        "NoMercyRankEnum": RANKS,
        "NoMercyPresetEnum": ["standard"],
        "NoMercyEffectEnum": ["colour"],
        "NoMercyStackableEnum": DRAW_RANKS,
    },
)
