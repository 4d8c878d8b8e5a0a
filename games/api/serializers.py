"""Request and response shapes of the games API. Responses are rendered through these
serializers so the OpenAPI schema and what the server sends cannot drift apart."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from config import error_codes as codes
from config.errors import ServiceError
from config.fields import (
    StrictBooleanField,
    StrictCharField,
    StrictFloatField,
    StrictIntegerField,
)
from config.serializers import StrictSerializer
from games import services
from games.bots import DEFAULT_LEVEL
from games.bots import LEVELS as BOT_LEVELS
from games.engine import EngineError, registry
from games.engine.uno.allwild.house_rules import HOUSE_RULES
from games.kinds import registry as kinds
from games.kinds.shared import KindsUnion, RegistryUnion
from games.models import Game
from games.spectators import MAX_DELAY

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
        min_value=services.MIN_TURN_SECONDS,
        max_value=services.MAX_TURN_SECONDS,
        default=services.DEFAULT_TURN_SECONDS,
    )
    speed_seconds = StrictIntegerField(
        min_value=services.MIN_SPEED_SECONDS,
        max_value=services.MAX_SPEED_SECONDS,
        default=services.DEFAULT_SPEED_SECONDS,
        help_text="Speed mode's turn limit in seconds; used instead of turn_seconds when "
        "options.speed_mode is on.",
    )
    visibility = serializers.ChoiceField(choices=[Game.PUBLIC, Game.PRIVATE], default=Game.PRIVATE)
    options = OptionsField(required=False, help_text="House rules, all off by default.")
    spectating = serializers.ChoiceField(
        choices=[w for w, _ in Game.WATCHING],
        required=False,
        help_text="Who may watch the game being played: `public` (anyone signed in; the "
        "default), `friends` (the host's friends; a challenge's default) or `private` (nobody).",
    )
    spectator_delay = StrictIntegerField(
        min_value=0,
        max_value=MAX_DELAY,
        default=0,
        help_text="Spectators see the game as it was this many moves ago (0: as it is).",
    )
    rated = StrictBooleanField(
        required=False,
        help_text="A rated game changes its players' ratings (docs/ratings.md). Allowed with the "
        "game's default preset and no house rules (else `rated_not_allowed`), and the default "
        "then. A bot account may not host one, and adding a bot or a bot account's joining makes "
        "a lobby unrated.",
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


@extend_schema_field(
    RegistryUnion(
        component_name="Table",
        serializers=kinds.table_serializers,
        resource_type_field_name="game",
    )
)
class TableField(serializers.JSONField):
    """The game's own view for the caller's seat: a union of the games' tables, discriminated
    by the game's kind (``game``), rendered as the game made it."""


# What a game's summary and its spectators' view start with: which game, its state and version,
# its kind and settings. (A comment, not a docstring: the schema would show it as each subclass's
# description.) A subclass may redefine a field's help; the field keeps its place.
class GameHeadSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    status = serializers.ChoiceField(choices=[s for s, _ in Game.STATUSES])
    version = serializers.IntegerField(help_text="Send back as expected_version.")
    game = serializers.CharField(help_text="The game's kind, e.g. `uno_all_wild`.")
    preset = serializers.CharField()
    options = serializers.DictField(child=serializers.BooleanField())
    max_players = serializers.IntegerField()
    target_score = serializers.IntegerField()


class GameSummarySerializer(GameHeadSerializer):
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


def game_kinds() -> list[str]:
    """The registered kinds, as the schema's enum of them (``GameEnum``, config/openapi.py)."""
    return registry.kinds()


class GameSerializer(GameSummarySerializer):
    table = TableField(
        allow_null=True,
        help_text="Null until the game starts; the game's own view, by its kind (`game`).",
    )


def _log_union(component: str) -> Any:
    """A move log field's schema: every game's own ``<Game><component>``, in one union."""
    return extend_schema_field(
        KindsUnion(
            component_name=component,
            serializers=lambda: kinds.log_unions(component),
            resource_type_field_name=None,
        )
    )


@_log_union("MoveAction")
class MoveActionField(serializers.DictField):
    """The action as applied: its ``type`` and that type's fields, in the shape of the game's
    request with the seat that sent it, or one the service applied (``start``, ``timeout`` ...).
    Each game's are a union of their own (``<Game>MoveAction``)."""


@_log_union("MoveEvent")
class MoveEventField(serializers.DictField):
    """What happened: its ``type`` and that event's fields, in the game's own shapes
    (``<Game>MoveEvent``)."""


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

    spectating = serializers.ChoiceField(
        choices=[w for w, _ in Game.WATCHING],
        required=False,
        help_text="Who may watch: `private` (nobody; the default here), `friends` or `public`.",
    )

    max_players = None
    visibility = None
    rated = None  # bots make a game unrated
    bots = StrictIntegerField(
        min_value=1, max_value=services.MAX_BOTS, default=1, help_text="How many bots sit with you."
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
        "default_players": services.default_seats(rules),
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
        "max_players": bounds(create["max_players"], services.default_seats(default)),
        "bots": bounds(vs["bots"]),
        "target_score": bounds(create["target_score"], default.default_target),
        "turn_seconds": bounds(create["turn_seconds"]),
        "speed_seconds": bounds(create["speed_seconds"]),
        # The web client's list of games (web/static/web/catalog.js) is this one.
        "games": [_game_kind(adapter.game) for adapter in kinds.adapters()],
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
