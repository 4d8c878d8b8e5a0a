"""Game words in the moderator's language: a game's status, and the replay's card names, moves
and events, the table's phase and direction.

The engine names cards and logs moves in English (``Game.card_name``, the action and event
``type``); the panel translates the words it knows and shows any other as it is, so a card or
move a game adds later still reads, in English, until the catalogue has it.
"""

from __future__ import annotations

import re

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.models import Game

# The games app names its statuses in English; the panel says them in the moderator's language.
GAME_STATUSES = {
    Game.LOBBY: _("Waiting for players"),
    Game.ACTIVE: _("In progress"),
    Game.FINISHED: _("Finished"),
    Game.ABORTED: _("Aborted"),
    Game.EXPIRED: _("Expired"),
}
VISIBILITIES = {Game.PUBLIC: _("Public"), Game.PRIVATE: _("Private")}

COLOURS = {
    "red": pgettext_lazy("card colour", "Red"),
    "yellow": pgettext_lazy("card colour", "Yellow"),
    "green": pgettext_lazy("card colour", "Green"),
    "blue": pgettext_lazy("card colour", "Blue"),
}

# Every card name (without its colour) the games give, English as on the cards.
CARD_NAMES = {
    "Wild": pgettext_lazy("card", "Wild"),
    "Draw 2": pgettext_lazy("card", "Draw 2"),
    "Draw 4": pgettext_lazy("card", "Draw 4"),
    "Reverse": pgettext_lazy("card", "Reverse"),
    "Skip": pgettext_lazy("card", "Skip"),
    "Skip Two": pgettext_lazy("card", "Skip Two"),
    "Targeted Draw 2": pgettext_lazy("card", "Targeted Draw 2"),
    "Force Swap": pgettext_lazy("card", "Force Swap"),
    "Shuffle Hands": pgettext_lazy("card", "Shuffle Hands"),
    "Draw Two": pgettext_lazy("card", "Draw Two"),
    "Draw Four": pgettext_lazy("card", "Draw Four"),
    "Wild Draw Four": pgettext_lazy("card", "Wild Draw Four"),
    "Discard All": pgettext_lazy("card", "Discard All"),
    "Skip Everyone": pgettext_lazy("card", "Skip Everyone"),
    "Wild Reverse Draw Four": pgettext_lazy("card", "Wild Reverse Draw Four"),
    "Wild Draw Six": pgettext_lazy("card", "Wild Draw Six"),
    "Wild Draw Ten": pgettext_lazy("card", "Wild Draw Ten"),
    "Wild Color Roulette": pgettext_lazy("card", "Wild Color Roulette"),
}

# Gin Rummy: "10 of hearts", "Ace of spades".
_PLAYING_CARD = re.compile(r"^(?P<rank>\w+) of (?P<suit>\w+)$")
RANKS = {
    "Ace": pgettext_lazy("playing card", "Ace"),
    "Jack": pgettext_lazy("playing card", "Jack"),
    "Queen": pgettext_lazy("playing card", "Queen"),
    "King": pgettext_lazy("playing card", "King"),
}
SUITS = {
    "spades": pgettext_lazy("playing card", "spades"),
    "hearts": pgettext_lazy("playing card", "hearts"),
    "diamonds": pgettext_lazy("playing card", "diamonds"),
    "clubs": pgettext_lazy("playing card", "clubs"),
}

# Moves and events by their logged ``type`` (and the few keys the replay names).
TYPES = {
    "start": _("start"),
    "play": _("play"),
    "draw": _("draw"),
    "play_drawn": _("play drawn"),
    "pass": _("pass"),
    "uno": _("uno"),
    "catch": _("catch"),
    "choose_target": _("choose target"),
    "choose_colour": _("choose colour"),
    "accept": _("accept"),
    "challenge": _("challenge"),
    "take_stack": _("take stack"),
    "play_pair": _("play pair"),
    "play_top": _("play top"),
    "mercy": _("mercy"),
    "timeout": _("timeout"),
    "leave": _("leave"),
    "next_round": _("next round"),
    "chance": _("chance"),
    "skipped": _("skipped"),
    "match_over": _("match over"),
    "direction": _("direction"),
    "opening_effect": _("opening effect"),
    "stack_cancelled": _("stack cancelled"),
    "round_over": _("round over"),
    "reshuffled": _("reshuffled"),
    "left": _("left"),
    "fizzled": _("fizzled"),
    "colour_chosen": _("colour chosen"),
    "target_chosen": _("target chosen"),
    "take_upcard": _("take upcard"),
    "swap": _("swap"),
    "stacked": _("stacked"),
    "round_started": _("round started"),
    "response_required": _("response required"),
    "response_cancelled": _("response cancelled"),
    "refused": _("refused"),
    "opening_returned": _("opening returned"),
    "not_stackable": _("not stackable"),
    "no_effect": _("no effect"),
    "loses_turn": _("loses turn"),
    "knocked_out": _("knocked out"),
    "knock": _("knock"),
    "hands_passed": _("hands passed"),
    "discarded_all": _("discarded all"),
    "discard": _("discard"),
    "deal": _("deal"),
    "caught": _("caught"),
    "bonus": _("bonus"),
    "big_gin": _("big gin"),
    "accepted": _("accepted"),
    "target": _("target"),
    "targets": _("targets"),
    "hand": _("hand"),
    "hand_sizes": _("hand sizes"),
    "hands": _("hands"),
    "wanted": _("wanted"),
    "stack": _("stack"),
    "how": _("how"),
    "knocker": _("knocker"),
    "knock_discard": _("knock discard"),
    "knocker_count": _("knocker count"),
    "defender_count": _("defender count"),
    "layouts": _("layouts"),
    "melds": _("melds"),
    "layoffs": _("layoffs"),
    "deadwood": _("deadwood"),
    "meld": _("meld"),
    "rounds_won": _("rounds won"),
    "next_dealer": _("next dealer"),
    "bonuses": _("bonuses"),
    "final_scores": _("final scores"),
    "undercut": _("undercut"),
    "gin": _("gin"),
    "wall": _("wall"),
    "forfeit": _("forfeit"),
    "target_reached": _("target reached"),
    "opening": _("opening"),
    "blind": _("blind"),
    "roulette": _("roulette"),
    "response": _("response"),
    "wd4": pgettext_lazy("card", "wd4"),
    "stock": _("stock"),
    "offer": _("offer"),
    "scores": _("scores"),
    "kind": _("kind"),
    "shuffle": _("shuffle"),
    "choice": _("choice"),
    "order": _("order"),
    "options": _("options"),
    "value": _("value"),
    "winner": _("winner"),
    "source": _("source"),
    "secret": _("secret"),
    "owner": _("owner"),
    "victim": _("victim"),
    "upcard": _("upcard"),
    "round": _("round"),
    "points": _("points"),
    "hand_points": _("hand points"),
    "next": _("next"),
    "description": _("description"),
    "default": _("default"),
    "dealer": _("dealer"),
    "code": _("code"),
    "by": _("by"),
    "action": _("action"),
    "succeeded": _("succeeded"),
    "legal": _("legal"),
    "colour": _("colour"),
    "count": _("count"),
    "cards": _("cards"),
    "card": _("card"),
    "reason": _("reason"),
    "from": _("from"),
    "to": _("to"),
    "total": _("total"),
    "yes": _("yes"),
    "no": _("no"),
}

# House rules by their option key (the games' own names are the English start of each option's
# description).
HOUSE_RULES = {
    "stacking": _("Stacking"),
    "speed_mode": _("Speed mode"),
    "blind_play": _("Blind play"),
    "double_down": _("Double down"),
    "force_swap_protection": _("Force Swap protection"),
    "mercy": _("Mercy"),
}

PHASES = {
    "play": pgettext_lazy("table phase", "play"),
    "offer": pgettext_lazy("table phase", "offer"),
    "draw": pgettext_lazy("table phase", "draw"),
    "discard": pgettext_lazy("table phase", "discard"),
    "drawn": pgettext_lazy("table phase", "drawn"),
    "choose": pgettext_lazy("table phase", "choose"),
    "stack": pgettext_lazy("table phase", "stack"),
    "respond": pgettext_lazy("table phase", "respond"),
    "round_over": pgettext_lazy("table phase", "round over"),
    "match_over": pgettext_lazy("table phase", "match over"),
}

DIRECTIONS = {"clockwise": _("clockwise"), "counterclockwise": _("counterclockwise")}


def status(value: str) -> str:
    label = GAME_STATUSES.get(value)
    return str(label) if label is not None else value


def house_rule(key: str, name: str) -> str:
    """A house rule's name in the moderator's language; ``name`` (the game's English) when the
    catalogue does not know the rule."""
    label = HOUSE_RULES.get(key)
    return str(label) if label is not None else name


def card(name: str) -> str:
    """An English card name from ``Game.card_name`` in the moderator's language."""
    if name in CARD_NAMES:
        return str(CARD_NAMES[name])
    colour, _space, rest = name.partition(" ")
    if colour.lower() in COLOURS and rest:
        return f"{COLOURS[colour.lower()]} {CARD_NAMES.get(rest, rest)}"
    match = _PLAYING_CARD.match(name)
    if match:
        rank, suit = match["rank"], match["suit"]
        return str(_("%(rank)s of %(suit)s")) % {
            "rank": RANKS.get(rank, rank),
            "suit": SUITS.get(suit, suit),
        }
    return name


def word(key: str) -> str:
    """A move's or event's type, or a key, in words ("play_drawn" -> "play the drawn card")."""
    label = TYPES.get(key)
    return str(label) if label is not None else key.replace("_", " ")


def colour(value: str) -> str:
    label = COLOURS.get(value)
    return str(label).lower() if label is not None else value


def known(text: str) -> bool:
    """Whether ``text`` is a colour, direction or logged word the catalogue has."""
    return text in COLOURS or text in DIRECTIONS or text in TYPES


def value(text: str) -> str:
    """A logged value in words: a colour, a direction or a logged type the catalogue knows
    ("counterclockwise" -> "mod uret"), anything else (a name, a number) as it is."""
    if text in COLOURS:
        return colour(text)
    label = DIRECTIONS.get(text) or TYPES.get(text)
    return str(label) if label is not None else text


def phase(value: str) -> str:
    label = PHASES.get(value)
    return str(label) if label is not None else value.replace("_", " ")


def direction(value: str) -> str:
    label = DIRECTIONS.get(value)
    return str(label) if label is not None else value.replace("_", " ")
