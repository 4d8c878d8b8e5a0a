"""The Uno family's events, as its games log them (``games.engine.uno``): each Uno game's
adapter picks those its rules emit (``pick``) and adds its own."""

from __future__ import annotations

from rest_framework import serializers

from games.engine.uno.actions import COLOURS
from games.kinds import log
from games.kinds.log import card, cards, event, seat
from games.kinds.uno import RoundResultSerializer


def _direction() -> serializers.ChoiceField:
    return serializers.ChoiceField(choices=["clockwise", "counterclockwise"])


def _colour(help_text: str, **kwargs: bool) -> serializers.ChoiceField:
    return serializers.ChoiceField(choices=list(COLOURS), help_text=help_text, **kwargs)


class RoundOverEventSerializer(RoundResultSerializer):
    """The round is over: its result (as in the table's `round_results`), with every hand left
    revealed, as at a real table."""

    type = serializers.ChoiceField(choices=["round_over"])


EVENTS: log.Shapes = {
    "chance": log.CHANCE,
    "round_started": event(
        "Uno",
        "round_started",
        "A round was dealt: its number, the dealer, each hand's size and the opening card.",
        round=serializers.IntegerField(),
        dealer=seat("The dealer."),
        hand_sizes=serializers.ListField(child=serializers.IntegerField(), help_text="By seat."),
        card=card("The opening card, face up."),
    ),
    "opening_effect": event(
        "Uno",
        "opening_effect",
        "The opening card acts on the first player.",
        card=card("The opening card."),
        seat=seat("The first player."),
    ),
    "play": event(
        "Uno",
        "play",
        "A card played.",
        seat=seat("Who played it."),
        card=card(),
        card_type=serializers.CharField(help_text="The card's type (its id without its copy)."),
        target=seat("The seat it targets, for a card that targets one.", required=False),
        colour=_colour("The colour a wild names (games with colours).", required=False),
    ),
    "draw": event(
        "Uno",
        "draw",
        "Cards drawn: how many, why, and (to the drawer only, or to all when drawn face up) which.",
        seat=seat("Who drew."),
        count=serializers.IntegerField(help_text="Cards drawn."),
        wanted=serializers.IntegerField(
            allow_null=True, help_text="Cards owed (fewer may be drawn when the piles run out)."
        ),
        reason=serializers.CharField(
            help_text="Why: `voluntary`, `timeout`, `caught`, `stack`, `opening`, a card's type "
            "(`draw4`, `targeted_draw2`, ...), `challenge`, ..."
        ),
        cards=cards(
            "The cards drawn: only for the drawer, or for all when face up.", required=False
        ),
    ),
    "pass": event("Uno", "pass", "The seat passed after drawing.", seat=seat()),
    "uno": event("Uno", "uno", "The seat said UNO.", seat=seat()),
    "caught": event(
        "Uno",
        "caught",
        "A seat caught another without UNO (the caught one draws).",
        seat=seat("Who caught."),
        target=seat("Who was caught."),
    ),
    "skipped": event("Uno", "skipped", "The seat lost its turn.", seat=seat()),
    "loses_turn": event(
        "Uno",
        "loses_turn",
        "The seat will lose its next turns.",
        seat=seat(),
        count=serializers.IntegerField(help_text="Turns it will lose."),
    ),
    "direction": event(
        "Uno", "direction", "The direction of play changed.", direction=_direction()
    ),
    "reshuffled": event(
        "Uno",
        "reshuffled",
        "The discards were shuffled into a new draw pile.",
        count=serializers.IntegerField(help_text="Cards in it."),
    ),
    "stacked": event(
        "Uno",
        "stacked",
        "Stacking: a draw card added to the stack; the seat must stack on it or take it.",
        seat=seat("Who owes the stack."),
        total=serializers.IntegerField(help_text="Cards owed."),
    ),
    "stack_cancelled": event(
        "Uno",
        "stack_cancelled",
        "The stack owed by a seat that left was cancelled.",
        seat=seat(),
        total=serializers.IntegerField(),
    ),
    "swap": event(
        "Uno",
        "swap",
        "Two seats swapped hands.",
        seat=seat("Who swapped."),
        target=seat("With whom."),
    ),
    "hands_passed": event(
        "Uno", "hands_passed", "Every hand passed to the next seat.", direction=_direction()
    ),
    "colour_chosen": event(
        "Uno",
        "colour_chosen",
        "A colour named (games with colours).",
        seat=seat("Who named it."),
        colour=_colour("The colour in force."),
    ),
    "mercy": event(
        "Uno", "mercy", "Mercy: five cards discarded.", seat=seat(), cards=cards("The cards.")
    ),
    "play_pair": event(
        "Uno",
        "play_pair",
        "Double down: two identical cards played at once.",
        seat=seat(),
        cards=cards("The two cards."),
        card_type=serializers.CharField(),
        targets=serializers.ListField(
            child=serializers.IntegerField(), required=False, help_text="One seat per card."
        ),
    ),
    "timeout": log.TIMEOUT,
    "left": event(
        "Uno",
        "left",
        "The seat left: its hand goes face down under the draw pile.",
        seat=seat(),
        count=serializers.IntegerField(help_text="Cards in its hand."),
        cards=cards("Its cards: moderators and game records only.", required=False),
    ),
    "round_over": RoundOverEventSerializer,
    "match_over": event(
        "Uno",
        "match_over",
        "The match is over.",
        winner=seat("The winner."),
        reason=serializers.ChoiceField(choices=["target_reached", "last_player_left"]),
    ),
}


def pick(*names: str) -> log.Shapes:
    """The family's events ``names``, in that order."""
    return {name: EVENTS[name] for name in names}


# What every Uno game logs.
COMMON = (
    "chance",
    "round_started",
    "opening_effect",
    "play",
    "draw",
    "uno",
    "caught",
    "skipped",
    "loses_turn",
    "direction",
    "reshuffled",
    "stacked",
    "stack_cancelled",
    "timeout",
    "left",
    "round_over",
    "match_over",
)
