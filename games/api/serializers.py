"""Request and response shapes of the games API. Responses are rendered through these
serializers so the OpenAPI schema and what the server sends cannot drift apart."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from drf_spectacular.utils import (
    PolymorphicProxySerializer,
    extend_schema_field,
    extend_schema_serializer,
)
from rest_framework import serializers

from config import error_codes as codes
from config.errors import ServiceError
from config.fields import (
    StrictBooleanField,
    StrictCharField,
    StrictFloatField,
    StrictIntegerField,
)
from config.serializers import StrictFieldsMixin, StrictSerializer
from games.bots import DEFAULT_LEVEL
from games.bots import LEVELS as BOT_LEVELS
from games.engine import EngineError, registry
from games.engine.gin import actions as gin_actions
from games.engine.uno.actions import COLOURS
from games.engine.uno.allwild.cards import CARD_TYPES, DRAW_AMOUNT
from games.engine.uno.allwild.house_rules import HOUSE_RULES
from games.engine.uno.nomercy import rules as no_mercy_rules
from games.engine.uno.nomercy.cards import DRAW_VALUE as NO_MERCY_DRAW_VALUE
from games.engine.uno.nomercy.cards import PRESETS as NO_MERCY_PRESETS
from games.engine.uno.nomercy.cards import RANK_OF as NO_MERCY_RANK_OF
from games.engine.uno.splash import rules as splash_rules
from games.engine.uno.splash.cards import PRESETS as SPLASH_PRESETS
from games.engine.uno.splash.cards import RANK_OF as SPLASH_RANK_OF
from games.engine.uno.state import PHASES
from games.models import Game
from games.services import (
    DEFAULT_SPEED_SECONDS,
    DEFAULT_TURN_SECONDS,
    MAX_BOTS,
    MAX_SPEED_SECONDS,
    MAX_TURN_SECONDS,
    MIN_SPEED_SECONDS,
    MIN_TURN_SECONDS,
    default_seats,
)

# ---------------------------------------------------------------------------------------------
# Errors


# ---------------------------------------------------------------------------------------------
# Creating and listing games


def options_serializer(kind: str) -> type[serializers.Serializer]:
    """The serializer of a game's house rules, built from the game's own ``options_schema()``
    (an object of booleans, each off by default unless the schema says otherwise). Their help
    texts are the game's, written for players: a client may show them as they are."""
    schema = registry.get_game(kind).options_schema()
    fields: dict[str, Any] = {
        name: StrictBooleanField(
            default=prop.get("default", False), help_text=prop.get("description", "")
        )
        for name, prop in schema.get("properties", {}).items()
    }
    doc = "House rules, each off by default; the texts are written for players."
    return type("HouseRulesSerializer", (serializers.Serializer,), {"__doc__": doc, **fields})


# Uno All Wild's house rules: the `options` of a create-game request in the schema.
HouseRulesSerializer = options_serializer(registry.DEFAULT_KIND)
_OPTIONS_SERIALIZERS: dict[str, type[serializers.Serializer]] = {
    registry.DEFAULT_KIND: HouseRulesSerializer
}


@extend_schema_field(HouseRulesSerializer)
class OptionsField(serializers.DictField):
    """A game's house rules: checked by the game named in the request (``validate``)."""


def _rules_of(kind: str) -> Any:
    try:
        return registry.get_game(kind)
    except EngineError as exc:
        raise ServiceError(codes.INVALID_SETUP, f"Unknown game {kind!r}.") from exc


class CreateGameSerializer(StrictSerializer):
    game = serializers.ChoiceField(
        choices=registry.kinds(),
        default=registry.DEFAULT_KIND,
        help_text="The game to play (`games_options_retrieve` lists them).",
    )
    preset = StrictCharField(
        required=False,
        help_text="One of the game's presets; its default preset when left out.",
    )
    max_players = StrictIntegerField(
        min_value=2,
        max_value=10,
        required=False,
        help_text="Seats; the game's own default (`default_players` in "
        "`games_options_retrieve`) when left out.",
    )
    target_score = StrictIntegerField(
        min_value=0,
        max_value=100_000,
        required=False,
        help_text="Points to win; 0 = one round. The game's default target when left out.",
    )
    turn_seconds = StrictIntegerField(
        min_value=MIN_TURN_SECONDS, max_value=MAX_TURN_SECONDS, default=DEFAULT_TURN_SECONDS
    )
    speed_seconds = StrictIntegerField(
        min_value=MIN_SPEED_SECONDS,
        max_value=MAX_SPEED_SECONDS,
        default=DEFAULT_SPEED_SECONDS,
        help_text="Speed mode's turn limit in seconds; used instead of turn_seconds when "
        "options.speed_mode is on.",
    )
    visibility = serializers.ChoiceField(choices=[Game.PUBLIC, Game.PRIVATE], default=Game.PRIVATE)
    options = OptionsField(required=False, help_text="House rules, all off by default.")
    rated = StrictBooleanField(
        required=False,
        help_text="A rated game changes its players' ratings (docs/ratings.md). Allowed with the "
        "game's default preset and no house rules (else `rated_not_allowed`), and the default "
        "then. Adding a bot makes a lobby unrated.",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Games may be registered after this module is imported (tests register a toy).
        self.fields["game"].choices = registry.kinds()

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        """The preset and the house rules, by the schema of the game asked for."""
        kind = attrs.pop("game")
        rules = _rules_of(kind)
        preset = attrs.get("preset")
        if preset is not None and preset not in rules.presets:
            raise serializers.ValidationError({"preset": [f'"{preset}" is not a valid choice.']})
        raw = attrs.get("options")
        if raw is not None:
            # A typo in a house rule must not silently create a game without it.
            unknown = sorted(set(raw) - set(rules.options_schema().get("properties", {})))
            if unknown:
                raise ServiceError(
                    codes.INVALID_SETUP, f"Unknown house rules: {', '.join(unknown)}."
                )
            if kind not in _OPTIONS_SERIALIZERS:
                _OPTIONS_SERIALIZERS[kind] = options_serializer(kind)
            options = _OPTIONS_SERIALIZERS[kind](data=raw)
            if not options.is_valid():
                raise serializers.ValidationError({"options": options.errors})
            attrs["options"] = dict(options.validated_data)
        attrs["kind"] = kind
        return attrs


class CardSerializer(serializers.Serializer):
    id = serializers.CharField(help_text="Stable card id, e.g. draw4-3.")
    type = serializers.ChoiceField(choices=CARD_TYPES)


class PlayerSerializer(serializers.Serializer):
    seat = serializers.IntegerField(allow_null=True, help_text="Seat number once started.")
    seat_id = serializers.IntegerField(help_text="Names the seat, e.g. to remove a bot.")
    user_id = serializers.IntegerField(allow_null=True, help_text="Null for a bot's seat.")
    name = serializers.CharField()
    left = serializers.BooleanField()
    you = serializers.BooleanField()
    final_score = serializers.IntegerField(allow_null=True)
    place = serializers.IntegerField(allow_null=True)
    rating_change = serializers.IntegerField(
        allow_null=True,
        help_text="A rated game's change of the player's shown rating at its end (+14, -9).",
    )
    # A plain string rather than a second enum of the levels (the request's `level` is one).
    bot_level = serializers.CharField(
        allow_null=True,
        help_text="Set while a bot plays this seat (" + ", ".join(BOT_LEVELS) + "): a bot's own "
        "seat, or a player's seat taken over by a bot.",
    )
    taken_over = serializers.BooleanField(
        help_text="A player's seat that a bot plays (after timeouts, or by a moderator) until "
        "the player takes it back (`games_reclaim`, or by acting)."
    )


class TableSeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    hand_size = serializers.IntegerField()
    uno = serializers.BooleanField(help_text="Said UNO for the current one-card stint.")
    catchable = serializers.BooleanField(help_text="Holds one card without UNO: catch them!")
    active = serializers.BooleanField(help_text="False once the player left.")
    skips_owed = serializers.IntegerField()
    score = serializers.IntegerField()


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


class RoundResultSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    winner = serializers.IntegerField()
    points = serializers.IntegerField()
    hands = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()),
        help_text="Hands left at the end of the round, revealed as at a real table.",
    )
    scores = serializers.ListField(child=serializers.IntegerField())


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


def _legal_actions_field(
    component_name: str, variants: Callable[[], dict[str, type[serializers.Serializer]]], doc: str
) -> type[serializers.JSONField]:
    """A table's ``legal_actions``: what the seat may do now, a list whose items are a union of
    ``variants()`` (the game's action shapes, looked up when the schema is built) discriminated
    by ``type``, rendered as the engine listed them."""
    field = type(f"{component_name}sField", (serializers.JSONField,), {"__doc__": doc})
    return extend_schema_field(
        PolymorphicProxySerializer(
            component_name=component_name,
            serializers=variants,
            resource_type_field_name="type",
            many=True,
        )
    )(field)


LegalActionsField = _legal_actions_field(
    "LegalAction", lambda: LEGAL_ACTION_SERIALIZERS, "What the seat may do now in Uno All Wild."
)


@extend_schema_field(
    PolymorphicProxySerializer(
        component_name="Table",
        serializers=lambda: TABLE_SERIALIZERS,
        resource_type_field_name="game",
    )
)
class TableField(serializers.JSONField):
    """The game's own view for the caller's seat: a union of the games' tables, discriminated
    by the game's kind (``game``), rendered as the game made it."""


# Each game's table, by kind (a game added to the registry adds its view's serializer here).
TABLE_SERIALIZERS: dict[str, type[serializers.Serializer]] = {}

_Table = TypeVar("_Table", bound=type[serializers.Serializer])


def _table(kind: str, component_name: str) -> Callable[[_Table], _Table]:
    """Registers a game's table serializer under its kind, named ``component_name`` in the
    schema (a member of the ``Table`` union)."""

    def register(cls: _Table) -> _Table:
        TABLE_SERIALIZERS[kind] = extend_schema_serializer(component_name=component_name)(cls)
        return cls

    return register


class _GameTableSerializer(serializers.Serializer):
    """A game's view for the caller's seat: its fields document the view for the schema."""

    def to_representation(self, instance: dict[str, Any]) -> dict[str, Any]:
        """The game's view as it is: it already is what the fields would make of it, key order
        included (tests/games/test_table_view.py checks this over random games with every
        house rule), so copying it field by field would only cost time."""
        return instance


@_table(registry.DEFAULT_KIND, "UnoAllWildTable")
class TableSerializer(_GameTableSerializer):
    """Uno All Wild's view for the caller's seat."""

    game = serializers.ChoiceField(choices=[registry.DEFAULT_KIND])
    preset = serializers.CharField()
    options = serializers.DictField(child=serializers.BooleanField())
    target_score = serializers.IntegerField()
    round = serializers.IntegerField()
    phase = serializers.ChoiceField(choices=PHASES)
    current_seat = serializers.IntegerField()
    direction = serializers.ChoiceField(choices=["clockwise", "counterclockwise"])
    dealer = serializers.IntegerField()
    seats = TableSeatSerializer(many=True)
    discard_top = CardSerializer(allow_null=True)
    discard_pile = CardSerializer(many=True, help_text="Face-up discards, top first.")
    draw_size = serializers.IntegerField()
    points = serializers.DictField(child=serializers.IntegerField())
    round_results = RoundResultSerializer(many=True)
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


class GameSummarySerializer(serializers.Serializer):
    id = serializers.UUIDField()
    status = serializers.ChoiceField(choices=[s for s, _ in Game.STATUSES])
    version = serializers.IntegerField(help_text="Send back as expected_version.")
    game = serializers.CharField(help_text="The game's kind, e.g. `uno_all_wild`.")
    preset = serializers.CharField()
    options = serializers.DictField(child=serializers.BooleanField())
    max_players = serializers.IntegerField()
    target_score = serializers.IntegerField()
    turn_seconds = serializers.IntegerField()
    speed_seconds = serializers.IntegerField(help_text="The turn limit under speed mode.")
    visibility = serializers.CharField()
    rated = serializers.BooleanField(help_text="Whether the match end changes ratings.")
    host_id = serializers.IntegerField(allow_null=True)
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    turn_deadline = serializers.DateTimeField(allow_null=True)
    your_turn = serializers.BooleanField()
    your_seat = serializers.IntegerField(allow_null=True)
    invite_code = serializers.CharField(allow_null=True)
    invite_expires_at = serializers.DateTimeField(allow_null=True)
    rematch_of = serializers.UUIDField(allow_null=True)
    players = PlayerSerializer(many=True)

    def to_representation(self, instance: dict[str, Any]) -> dict[str, Any]:
        """``selectors.game_summary``'s (or ``game_view``'s) dict with its datetimes formatted by
        their fields. Every other value already is what its field would make of it, in the
        fields' order (tests/games/test_summary_view.py checks this byte for byte), and copying
        the dict field by field cost more than the rest of a view."""
        out = dict(instance)
        for name in _DATETIMES:
            if out[name] is not None:
                out[name] = self.fields[name].to_representation(out[name])
        return out


_DATETIMES = [
    name
    for name, field in GameSummarySerializer._declared_fields.items()
    if isinstance(field, serializers.DateTimeField)
]


# The kinds of the built-in games, as the schema's enum of them (tests may register more).
GAME_KINDS = list(registry.kinds())


class GameSerializer(GameSummarySerializer):
    table = TableField(
        allow_null=True,
        help_text="Null until the game starts; the game's own view, by its kind (`game`).",
    )


# ---------------------------------------------------------------------------------------------
# Actions: a union discriminated by `type`


class ExpectedVersionSerializer(serializers.Serializer):
    expected_version = StrictIntegerField(
        required=False,
        min_value=0,
        help_text="The game version you acted on; 409 version_conflict when it has moved on.",
    )


class _ActionBase(StrictFieldsMixin, ExpectedVersionSerializer):
    # Listed legal actions name the seat; in a request it is the caller's, whatever is sent.
    seat = StrictIntegerField(
        required=False, help_text="Your seat (in `legal_actions`; ignored in a request)."
    )


def _game_action(
    prefix: str, name: str, doc: str, **fields: serializers.Field
) -> type[serializers.Serializer]:
    """The request serializer of the action ``name``: its ``type``, then ``fields``. Its class
    is named ``<prefix><Name>ActionSerializer``, which names its schema component, so a game
    whose action shares a type with another's but not its fields gives its own ``prefix``."""
    attrs: dict[str, Any] = {"type": serializers.ChoiceField(choices=[name]), **fields}
    attrs["__doc__"] = doc
    return type(f"{prefix}{name.title().replace('_', '')}ActionSerializer", (_ActionBase,), attrs)


def _action(name: str, doc: str, **fields: serializers.Field) -> type[serializers.Serializer]:
    """An action request without a game's prefix: All Wild's, and those every game shares."""
    return _game_action("", name, doc, **fields)


# One draw request for every game: Uno's takes no field, Gin Rummy's names its ``source`` (each
# game's own rules refuse the other's shape).
# (Built by hand, not by ``_action``: its ``type`` is declared before ``source``, and DRF orders
# fields by declaration, the schema's property order with them.)
DrawActionSerializer = type(
    "DrawActionSerializer",
    (_ActionBase,),
    {
        "__doc__": "Uno: draw one card instead of playing (no `source`). Gin Rummy: draw the top "
        "card of `source`.",
        "type": serializers.ChoiceField(choices=["draw"]),
        "source": serializers.ChoiceField(
            choices=["stock", "discard"],
            required=False,
            help_text="Gin Rummy only, and required there: stock or discard.",
        ),
    },
)


def _target(help_text: str, required: bool = False) -> StrictIntegerField:
    return StrictIntegerField(required=required, min_value=0, help_text=help_text)


def _uno() -> StrictBooleanField:
    return StrictBooleanField(required=False, default=False, help_text="Say UNO with this play.")


def _colour(required: bool = False, help_text: str = "") -> serializers.ChoiceField:
    return serializers.ChoiceField(
        choices=list(COLOURS),
        required=required,
        help_text=help_text
        or "Games with colours (Uno Splash): the colour a Wild or Wild Draw Four names; leave "
        "out for a coloured card.",
    )


ACTION_SERIALIZERS: dict[str, type[serializers.Serializer]] = {
    "play": _action(
        "play",
        "Play a card from your hand.",
        # Ids are short ("force_swap-3"): a longer one is no card, and is not echoed back.
        card=StrictCharField(max_length=64, help_text="Card id from your hand."),
        target=_target("Seat to target (Targeted Draw 2, Force Swap)."),
        uno=_uno(),
        colour=_colour(),
    ),
    "draw": DrawActionSerializer,
    "play_drawn": _action(
        "play_drawn",
        "Play the card you just drew.",
        target=_target("Seat to target, if the card needs one."),
        uno=_uno(),
        colour=_colour(),
    ),
    "pass": _action("pass", "End your turn after drawing."),
    "uno": _action("uno", "Say UNO while holding one card."),
    "catch": _action(
        "catch",
        "Catch a player holding one card who has not said UNO.",
        target=_target("Seat to catch.", required=True),
    ),
    "choose_target": _action(
        "choose_target",
        "Choose the target of a card on the table (opening card, or blind play's revealed card).",
        target=_target("Seat to target.", required=True),
    ),
    # House rules
    "take_stack": _action(
        "take_stack", "Stacking: take the cards owed instead of stacking (and lose the turn)."
    ),
    "play_pair": _action(
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
        uno=_uno(),
    ),
    "play_top": _action(
        "play_top",
        "Blind play: play the top card of your face-down hand; a target it needs is chosen "
        "after it is revealed (choose_target).",
        uno=_uno(),
    ),
    "mercy": _action(
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


def _template(name: str, doc: str, **fields: serializers.Field) -> type[serializers.Serializer]:
    attrs: dict[str, Any] = {
        "__doc__": doc,
        "type": serializers.ChoiceField(choices=[name]),
        "seat": serializers.IntegerField(help_text="Your seat."),
        **fields,
    }
    return type(
        f"{name.title().replace('_', '')}TemplateSerializer", (serializers.Serializer,), attrs
    )


# What `legal_actions` lists: each action in its request's shape, to send back as it is, but
# for the templates of double down and mercy, which leave the cards to choose.
LEGAL_ACTION_SERIALIZERS = {
    **ACTION_SERIALIZERS,
    "play_pair": _template(
        "play_pair",
        "Double down, as listed: send `play_pair` with two of `choose.from` as `cards` (and "
        "`targets` when `choose.targets` is given).",
        choose=PickSerializer(help_text="The cards (and seats) to choose from."),
    ),
    "mercy": _template(
        "mercy",
        "Mercy, as listed: send `mercy` with `choose.count` of `choose.from` as `cards` (under "
        "blind play it is listed without `choose`: send it as it is).",
        choose=PickSerializer(required=False, help_text="The cards to choose from."),
    ),
}

# ---------------------------------------------------------------------------------------------
# Uno Splash (classic UNO): its cards have colours, a wild names one, a Wild Draw Four is answered


def _splash_card_id() -> StrictCharField:
    return StrictCharField(max_length=64, help_text="Card id from your hand, e.g. red-7-b.")


SPLASH_ACTION_SERIALIZERS: dict[str, type[serializers.Serializer]] = {
    "play": _game_action(
        "UnoSplash",
        "play",
        "Uno Splash: play a playable card from your hand; a wild names its colour.",
        card=_splash_card_id(),
        colour=_colour(help_text="Required with a Wild or Wild Draw Four, refused otherwise."),
        uno=_uno(),
    ),
    "draw": DrawActionSerializer,
    "play_drawn": _game_action(
        "UnoSplash",
        "play_drawn",
        "Uno Splash: play the playable card you just drew (a wild names its colour).",
        colour=_colour(help_text="Required when the drawn card is a wild, refused otherwise."),
        uno=_uno(),
    ),
    "pass": _action("pass", "End your turn after drawing."),
    "choose_colour": _action(
        "choose_colour",
        "Uno Splash: name the colour of the opening Wild (the first player, before anything else).",
        colour=_colour(required=True, help_text="The colour in force from now on."),
    ),
    "accept": _action(
        "accept", "Uno Splash: accept the Wild Draw Four played on you: draw 4, lose the turn."
    ),
    "challenge": _action(
        "challenge",
        "Uno Splash: challenge the Wild Draw Four played on you (only its next player may). "
        "You see the hand it was played from; illegal: its player draws 4 and you play, legal: "
        "you draw 6 and lose the turn.",
    ),
    "uno": ACTION_SERIALIZERS["uno"],
    "catch": ACTION_SERIALIZERS["catch"],
    "mercy": ACTION_SERIALIZERS["mercy"],
    "play_pair": ACTION_SERIALIZERS["play_pair"],
    "take_stack": _action(
        "take_stack",
        "Uno Splash, stacking: take the total owed instead of stacking (or challenging the Wild "
        "Draw Four on top) and lose the turn.",
    ),
}
assert tuple(SPLASH_ACTION_SERIALIZERS) == splash_rules.PLAYER_ACTIONS


SplashLegalActionsField = _legal_actions_field(
    "UnoSplashLegalAction",
    lambda: SPLASH_LEGAL_ACTION_SERIALIZERS,
    "What the seat may do now in Uno Splash: a union discriminated by ``type``.",
)


SPLASH_RANKS = sorted(set(SPLASH_RANK_OF.values()))


class SplashCardSerializer(serializers.Serializer):
    id = serializers.CharField(help_text="Stable card id: red-7-b, blue-skip-a, wild-3, wd4-1.")
    type = serializers.CharField(help_text="The id without its copy: red-7, blue-skip, wild, wd4.")
    colour = serializers.ChoiceField(
        choices=list(COLOURS), allow_null=True, help_text="Null for a Wild or Wild Draw Four."
    )
    rank = serializers.ChoiceField(
        choices=SPLASH_RANKS,
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


@_table(splash_rules.GAME, "UnoSplashTable")
class SplashTableSerializer(_GameTableSerializer):
    """Uno Splash's view for the caller's seat (docs/rules-uno-splash.md)."""

    game = serializers.ChoiceField(choices=[splash_rules.GAME])
    preset = serializers.ChoiceField(choices=sorted(SPLASH_PRESETS))
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
    seats = TableSeatSerializer(many=True)
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
    round_results = RoundResultSerializer(many=True)
    winner = serializers.IntegerField(allow_null=True)
    you = serializers.IntegerField()
    hand = SplashCardSerializer(many=True, help_text="Your cards, top first.")
    drawn_card = SplashCardSerializer(allow_null=True)
    pending_choice = SplashPendingChoiceSerializer(allow_null=True)
    legal_actions = SplashLegalActionsField(
        help_text="What you may do now, each in the shape of its request: send one back as it "
        "is (with `expected_version`); a wild is listed once per colour.",
    )


# ---------------------------------------------------------------------------------------------
# Uno Show 'Em No Mercy: colours as Uno Splash, official stacking, knockouts, 7 swaps, the roulette


NO_MERCY_ACTION_SERIALIZERS: dict[str, type[serializers.Serializer]] = {
    "play": _game_action(
        "UnoNoMercy",
        "play",
        "Uno Show 'Em No Mercy: play a playable card (facing a stack: a Draw card the stack "
        "takes); a wild but the Roulette names its colour, a 7 the player you swap hands with.",
        card=StrictCharField(max_length=64, help_text="Card id from your hand, e.g. red-7-b."),
        colour=_colour(help_text="Required with a Wild Draw card, refused otherwise."),
        target=_target("Required with a 7: the player in the round you swap hands with."),
        uno=_uno(),
    ),
    "draw": _action(
        "draw",
        "Uno Show 'Em No Mercy: holding nothing playable, draw until a playable card comes; you "
        "must then play it (play_drawn).",
    ),
    "play_drawn": _game_action(
        "UnoNoMercy",
        "play_drawn",
        "Uno Show 'Em No Mercy: play the playable card your draw ended on (its only action).",
        colour=_colour(help_text="Required when the drawn card is a Wild Draw card."),
        target=_target("Required when the drawn card is a 7."),
        uno=_uno(),
    ),
    "take_stack": _action(
        "take_stack",
        "Uno Show 'Em No Mercy: take the stack's total instead of stacking (one card at a time; "
        "25 cards knock you out of the round).",
    ),
    "choose_colour": _action(
        "choose_colour",
        "Uno Show 'Em No Mercy: name a colour for a Wild Color Roulette played on you (then "
        "cards are revealed into your hand until it comes) or for an opening wild.",
        colour=_colour(required=True, help_text="The colour in play from now on."),
    ),
    "uno": ACTION_SERIALIZERS["uno"],
    "catch": ACTION_SERIALIZERS["catch"],
}
assert tuple(NO_MERCY_ACTION_SERIALIZERS) == no_mercy_rules.PLAYER_ACTIONS


NoMercyLegalActionsField = _legal_actions_field(
    "UnoNoMercyLegalAction",
    lambda: NO_MERCY_LEGAL_ACTION_SERIALIZERS,
    "What the seat may do now in Uno Show 'Em No Mercy: a union discriminated by ``type``.",
)


NO_MERCY_RANKS = sorted(set(NO_MERCY_RANK_OF.values()))
NO_MERCY_DRAW_RANKS = sorted(NO_MERCY_DRAW_VALUE)


class NoMercyCardSerializer(serializers.Serializer):
    id = serializers.CharField(
        help_text="Stable card id: red-7-b, blue-draw4-a, green-skip_all-b, wd10-3, roulette-1."
    )
    type = serializers.CharField(help_text="The id without its copy: red-7, blue-draw4, wd10.")
    colour = serializers.ChoiceField(
        choices=list(COLOURS), allow_null=True, help_text="Null for a wild."
    )
    rank = serializers.ChoiceField(
        choices=NO_MERCY_RANKS,
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
        child=serializers.ChoiceField(choices=NO_MERCY_DRAW_RANKS),
        help_text="The ranks that may be stacked on it now (none on a Wild Draw 10).",
    )


@_table(no_mercy_rules.GAME, "UnoNoMercyTable")
class NoMercyTableSerializer(_GameTableSerializer):
    """Uno Show 'Em No Mercy's view for the caller's seat (docs/rules-uno-no-mercy.md)."""

    game = serializers.ChoiceField(choices=[no_mercy_rules.GAME])
    preset = serializers.ChoiceField(choices=sorted(NO_MERCY_PRESETS))
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
    seats = TableSeatSerializer(many=True)
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
    round_results = RoundResultSerializer(many=True)
    winner = serializers.IntegerField(allow_null=True)
    you = serializers.IntegerField()
    hand = NoMercyCardSerializer(many=True, help_text="Your cards, top first.")
    drawn_card = NoMercyCardSerializer(allow_null=True)
    pending_choice = NoMercyPendingChoiceSerializer(allow_null=True)
    legal_actions = NoMercyLegalActionsField(
        help_text="What you may do now, each in the shape of its request: send one back as it "
        "is (with `expected_version`); a wild is listed once per colour, a 7 once per player.",
    )


# ---------------------------------------------------------------------------------------------
# Gin Rummy: draw from the stock or the discard pile, discard, knock (docs/gin_rummy.md)


def _gin_card(help_text: str) -> StrictCharField:
    return StrictCharField(max_length=2, help_text=help_text)


GIN_ACTION_SERIALIZERS: dict[str, type[serializers.Serializer]] = {
    "take_upcard": _game_action(
        "GinRummy",
        "take_upcard",
        "Gin Rummy, the first turn: take the upcard (that is your draw; then discard another "
        "card or knock).",
    ),
    # The same request as Uno's pass (no field): in Gin Rummy it passes the upcard.
    "pass": ACTION_SERIALIZERS["pass"],
    "draw": DrawActionSerializer,
    "discard": _game_action(
        "GinRummy",
        "discard",
        "Gin Rummy: discard a card face up (never the card just taken from the discard pile); "
        "your turn ends.",
        card=_gin_card("The card, e.g. 7h (ranks A 2-9 T J Q K, suits s h d c)."),
    ),
    "knock": _game_action(
        "GinRummy",
        "knock",
        "Gin Rummy: discard a card face down and end the round; the ten cards you keep must "
        "leave 10 deadwood or less. Gin when they all meld. Melds are laid out for you.",
        card=_gin_card("The knock discard, e.g. Kc."),
    ),
    "big_gin": _game_action(
        "GinRummy", "big_gin", "Gin Rummy: all eleven cards meld; end the round without a discard."
    ),
}
assert tuple(GIN_ACTION_SERIALIZERS) == gin_actions.PLAYER_ACTIONS


GinLegalActionsField = _legal_actions_field(
    "GinRummyLegalAction",
    lambda: GIN_ACTION_SERIALIZERS,
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


@_table("gin_rummy", "GinRummyTable")
class GinTableSerializer(_GameTableSerializer):
    """Gin Rummy's view for the caller's seat (docs/gin_rummy.md)."""

    game = serializers.ChoiceField(choices=["gin_rummy"])
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
    legal_actions = GinLegalActionsField(
        help_text="What you may do now, each in the shape of its request: send one back as it is."
    )


# Each game's action requests, by kind; a kind not here is checked by its own action_from_dict.
ACTION_SERIALIZERS_BY_KIND: dict[str, dict[str, type[serializers.Serializer]]] = {
    registry.DEFAULT_KIND: ACTION_SERIALIZERS,
    splash_rules.GAME: SPLASH_ACTION_SERIALIZERS,
    no_mercy_rules.GAME: NO_MERCY_ACTION_SERIALIZERS,
    "gin_rummy": GIN_ACTION_SERIALIZERS,
}

# The request body of an action, for every game: one variant per `type` (a type two games share
# has the fields of both, each saying which game it is for); each game's requests are checked by
# its own serializers above.
REQUEST_SERIALIZERS: dict[str, type[serializers.Serializer]] = {
    **ACTION_SERIALIZERS,
    **{t: SPLASH_ACTION_SERIALIZERS[t] for t in ("choose_colour", "accept", "challenge")},
    **{t: GIN_ACTION_SERIALIZERS[t] for t in ("take_upcard", "discard", "knock", "big_gin")},
}
# What Uno Splash's `legal_actions` lists: its own types only, in the request shapes (Mercy: its
# template).
SPLASH_LEGAL_ACTION_SERIALIZERS = {
    t: LEGAL_ACTION_SERIALIZERS.get(t, REQUEST_SERIALIZERS[t]) for t in SPLASH_ACTION_SERIALIZERS
}
# What No Mercy's `legal_actions` lists: its own types, in the request shapes (no templates).
NO_MERCY_LEGAL_ACTION_SERIALIZERS = {t: REQUEST_SERIALIZERS[t] for t in NO_MERCY_ACTION_SERIALIZERS}


def _typed_object(description: str) -> dict[str, Any]:
    # The move log holds every game's actions and events, each named by its `type`
    # (docs/rules.md lists them per game); the other fields depend on the type.
    return {
        "type": "object",
        "description": description,
        "properties": {"type": {"type": "string", "minLength": 1}},
        "required": ["type"],
        "additionalProperties": True,
    }


@extend_schema_field(_typed_object("The action as applied: its `type` and that type's fields."))
class MoveActionField(serializers.DictField):
    pass


@extend_schema_field(_typed_object("What happened: its `type` and that event's fields."))
class MoveEventField(serializers.DictField):
    pass


class MoveSerializer(serializers.Serializer):
    version = serializers.IntegerField()
    seat = serializers.IntegerField(allow_null=True)
    action = MoveActionField()
    created_at = serializers.DateTimeField()
    events = serializers.ListField(child=MoveEventField())


class EventPageSerializer(serializers.Serializer):
    moves = MoveSerializer(many=True)
    next_after = serializers.IntegerField(help_text="Pass as ?after= to get the next page.")
    has_more = serializers.BooleanField()


def _bot_level() -> serializers.ChoiceField:
    return serializers.ChoiceField(
        choices=list(BOT_LEVELS),
        default=DEFAULT_LEVEL,
        help_text="`random` (any legal move), `heuristic` (the rulebook's strategy) or `expert` "
        "(searches ahead, about 150 ms a move).",
    )


class AddBotSerializer(StrictSerializer):
    level = _bot_level()


class VsComputerSerializer(CreateGameSerializer):
    """A private game against bots, started at once. No visibility, no seat count: you and
    ``bots`` bots."""

    max_players = None
    visibility = None
    rated = None  # bots make a game unrated
    bots = StrictIntegerField(
        min_value=1, max_value=MAX_BOTS, default=1, help_text="How many bots sit with you."
    )
    level = _bot_level()


class RangeSerializer(serializers.Serializer):
    min = serializers.IntegerField()
    max = serializers.IntegerField()
    default = serializers.IntegerField()


class HouseRuleInfoSerializer(serializers.Serializer):
    name = serializers.ChoiceField(choices=list(HOUSE_RULES), help_text="The key in `options`.")
    description = serializers.CharField(help_text="What the rule does, written for players.")


class GameRuleInfoSerializer(serializers.Serializer):
    name = serializers.CharField(help_text="The key in `options`.")
    description = serializers.CharField(help_text="What the rule does, written for players.")


class GameKindChoicesSerializer(serializers.Serializer):
    """One game the server plays, and what a new game of it may be created with."""

    kind = serializers.CharField(help_text="Send as `game` to create one.")
    name = serializers.CharField(help_text="The game's name, for players.")
    presets = serializers.ListField(child=serializers.CharField())
    default_preset = serializers.CharField()
    house_rules = GameRuleInfoSerializer(many=True)
    house_rules_not_offered = GameRuleInfoSerializer(
        many=True,
        help_text="House rules players may know from this game's rulebook that the server does "
        "not offer, each with why (`description`): a create request that turns one on gets 400 "
        "`invalid_setup`.",
    )
    min_players = serializers.IntegerField()
    max_players = serializers.IntegerField()
    default_players = serializers.IntegerField(help_text="Seats when none are asked for.")
    default_target = serializers.IntegerField(help_text="Points to win when none is given.")


class NewGameChoicesSerializer(serializers.Serializer):
    """What a create-game or vs-computer request may ask for, read from the same fields that
    validate those requests, so a client can build its new-game screen from it."""

    # Not named GameOptions: generated clients already give that name to Game's inline `options`.

    presets = serializers.ListField(child=serializers.CharField())
    default_preset = serializers.CharField()
    house_rules = HouseRuleInfoSerializer(many=True)
    bot_levels = serializers.ListField(child=serializers.CharField())
    default_bot_level = serializers.CharField()
    visibilities = serializers.ListField(child=serializers.CharField())
    max_players = RangeSerializer()
    bots = RangeSerializer(help_text="Bots in a game against the computer.")
    target_score = RangeSerializer(help_text="0 = one round.")
    turn_seconds = RangeSerializer()
    speed_seconds = RangeSerializer(help_text="Speed mode's turn limit.")
    games = GameKindChoicesSerializer(
        many=True,
        help_text="Every game the server plays, the default first; the fields above are the "
        "default game's (Uno All Wild).",
    )


def _house_rules(rules: Any) -> list[dict[str, str]]:
    properties = rules.options_schema().get("properties", {})
    return [{"name": n, "description": p.get("description", "")} for n, p in properties.items()]


def _house_rules_not_offered(rules: Any) -> list[dict[str, str]]:
    refused = rules.options_schema().get("x-not-offered", {})
    return [{"name": name, "description": why} for name, why in refused.items()]


def _game_kind(rules: Any) -> dict[str, Any]:
    return {
        "kind": rules.kind,
        "name": rules.name,
        "presets": list(rules.presets),
        "default_preset": rules.default_preset,
        "house_rules": _house_rules(rules),
        "house_rules_not_offered": _house_rules_not_offered(rules),
        "min_players": rules.min_players,
        "max_players": rules.max_players,
        "default_players": default_seats(rules),
        "default_target": rules.default_target,
    }


def game_options() -> dict[str, Any]:
    """The create-game choices: the request serializers' own bounds, and each registered game's
    presets, house rules, seats and target (the top-level ones are the default game's)."""
    create = CreateGameSerializer().fields
    vs = VsComputerSerializer().fields
    default = registry.get_game(registry.DEFAULT_KIND)

    def bounds(field: Any, default: Any = None) -> dict[str, int]:
        return {
            "min": field.min_value,
            "max": field.max_value,
            "default": field.default if default is None else default,
        }

    return {
        "presets": sorted(default.presets),
        "default_preset": default.default_preset,
        "house_rules": _house_rules(default),
        "bot_levels": list(vs["level"].choices),
        "default_bot_level": vs["level"].default,
        "visibilities": list(create["visibility"].choices),
        "max_players": bounds(create["max_players"], default_seats(default)),
        "bots": bounds(vs["bots"]),
        "target_score": bounds(create["target_score"], default.default_target),
        "turn_seconds": bounds(create["turn_seconds"]),
        "speed_seconds": bounds(create["speed_seconds"]),
        "games": [_game_kind(registry.get_game(kind)) for kind in registry.kinds()],
    }


class JoinByCodeSerializer(StrictSerializer):
    invite_code = StrictCharField(max_length=32)


class PlayerStatsSerializer(serializers.Serializer):
    games_played = StrictIntegerField(help_text="Finished games you had a seat in.")
    games_won = StrictIntegerField(help_text="Finished games you won (place 1).")
    points = StrictIntegerField(help_text="Sum of your final scores in finished games.")
    games_in_progress = StrictIntegerField(help_text="Running games you have not left.")


class VacationSerializer(serializers.Serializer):
    on_vacation_until = serializers.DateTimeField(
        allow_null=True, help_text="Your turn clocks stand still until then."
    )
    days_left = serializers.FloatField(help_text="Vacation left in the bank this month.")


class VacationRequestSerializer(StrictSerializer):
    days = StrictFloatField(
        min_value=0.01, max_value=31, help_text="How long to pause your turn clocks."
    )
