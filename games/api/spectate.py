"""Watching a game without a seat: the spectator's view (``games/{id}/watch/``), its live
stream (``games/{id}/watch/stream/``, the game stream's steps driven by ``live.driver``) and the
host's choice of who may watch (``games/{id}/spectating/``). What a spectator may see is decided
in ``games.spectators``; these views only shape it."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any
from uuid import UUID

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
    extend_schema_serializer,
)
from rest_framework import serializers
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config import query
from config.api_responses import standard_errors
from config.enum_names import ENUM_NAMES, name_enums
from config.fields import StrictIntegerField
from config.openapi import error_response
from config.serializers import StrictSerializer
from config.wrapped_views import WrappedAPIView
from games import selectors, services, spectators
from games.api import feeds, streams
from games.api import serializers as s
from games.api.views import NO_GAME, RETRY_AFTER, render_game
from games.engine import registry
from games.kinds import registry as kinds
from games.kinds.shared import RegistryUnion
from games.models import Game

# ---------------------------------------------------------------------------------------------
# Shapes

_PUBLIC_TABLES: dict[str, type[serializers.Serializer]] = {}


def _seat_only_fields(kind: str) -> set[str]:
    """The keys of a seat's view that a spectator's lacks (the hand, legal actions…), read off
    a seeded deal of the game: what the schema leaves out of its spectator table."""
    rules = registry.get_game(kind)
    state, _ = rules.new_game(players=rules.min_players, rng=random.Random(0))
    return set(rules.view(state, 0)) - set(rules.spectator_view(state))


def public_table_serializers() -> dict[str, type[serializers.Serializer]]:
    """Each game's table serializer without the fields only a seat sees, by kind (built once
    per game: the schema names each component once)."""
    for kind, table in kinds.table_serializers().items():
        if kind in _PUBLIC_TABLES:
            continue
        name = getattr(table, "_spectacular_annotation", {}).get("component_name", kind)
        attrs: dict[str, Any] = dict.fromkeys(_seat_only_fields(kind))
        attrs["__doc__"] = "What a spectator sees of the table: the public position only."
        public = type(f"Public{table.__name__}", (table,), attrs)
        _PUBLIC_TABLES[kind] = extend_schema_serializer(component_name=f"Public{name}")(public)
        _name_phases(name, table)
    return _PUBLIC_TABLES


def _name_phases(name: str, table: type[serializers.Serializer]) -> None:
    """Name a table's ``phase`` enum after its table, as drf-spectacular names it while only
    that table has those choices: the public table's copy of the field would leave the name
    to a hash. (An enum already named, All Wild's, keeps its name.)"""
    field = table._declared_fields.get("phase")
    if not isinstance(field, serializers.ChoiceField):
        return
    choices = list(field.choices)
    if choices not in [list(c) for c in ENUM_NAMES.values() if isinstance(c, list | tuple)]:
        name_enums({f"{name}PhaseEnum": choices})


@extend_schema_field(
    RegistryUnion(
        component_name="PublicTable",
        serializers=public_table_serializers,
        resource_type_field_name="game",
    )
)
class PublicTableField(serializers.JSONField):
    """The public position, as the game made it: a union of the games' public tables,
    discriminated by the game's kind (``game``)."""


class SpectatorViewSerializer(s.GameHeadSerializer):
    version = serializers.IntegerField(
        help_text="The version you are shown: the game's own, or that of the move "
        "`spectator_delay` moves back while the game is played."
    )
    rated = serializers.BooleanField()
    host_id = serializers.IntegerField(allow_null=True)
    spectating = serializers.ChoiceField(choices=[w for w, _ in Game.WATCHING])
    spectator_delay = serializers.IntegerField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    players = s.PlayerSerializer(many=True)
    spectators = serializers.IntegerField(help_text="Players without a seat watching live now.")
    table = PublicTableField(
        allow_null=True,
        help_text="The public position (every hand hidden), by the game's kind (`game`); null "
        "when the position at the delay cannot be rebuilt (a game loaded from a position).",
    )


_VIEW = SpectatorViewSerializer()


class SpectatingSerializer(StrictSerializer):
    spectating = serializers.ChoiceField(
        choices=[w for w, _ in Game.WATCHING],
        required=False,
        help_text="`public` (anyone signed in), `friends` (your friends) or `private` (nobody).",
    )
    spectator_delay = StrictIntegerField(
        min_value=0,
        max_value=spectators.MAX_DELAY,
        required=False,
        help_text="Spectators see the game as it was this many moves ago (0: as it is).",
    )


class PlayingGameSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    game = serializers.CharField(help_text="The game's kind.")
    preset = serializers.CharField()
    rated = serializers.BooleanField()
    started_at = serializers.DateTimeField(allow_null=True)
    spectator_delay = serializers.IntegerField()
    players = serializers.ListField(child=serializers.CharField(), help_text="Names, by seat.")
    spectators = serializers.IntegerField(help_text="Players without a seat watching live now.")


class SpectatorsSerializer(serializers.Serializer):
    spectators = serializers.IntegerField(help_text="Players without a seat watching live now.")
    spectating = serializers.ChoiceField(choices=[w for w, _ in Game.WATCHING])
    spectator_delay = serializers.IntegerField()


WATCH_REFUSED = {
    403: error_response("`spectators_friends_only`: only the host's friends may watch this game."),
    404: error_response(
        "`not_found`: no such game, nobody may watch it, or a player of it and you are "
        "blocked either way."
    ),
    409: error_response(
        "`seated_not_spectator` (you play in it: `games_retrieve`) or `game_not_started`."
    ),
}


# ---------------------------------------------------------------------------------------------
# Views


class WatchView(APIView):
    @extend_schema(
        operation_id="games_watch_retrieve",
        summary="Watch a game: its public view",
        description="What a spectator sees: the players, the public position (no hand, no pile "
        "order, no legal actions) and how many watch. With a delay (`spectator_delay`) it is "
        "the game as it was that many moves ago, until the game ends. Follow it live with "
        "`games_watch_stream_retrieve`.",
        responses={200: SpectatorViewSerializer, **standard_errors(WATCH_REFUSED, write=False)},
        tags=["spectators"],
    )
    def get(self, request: Request, game_id: UUID) -> Response:
        watched = spectators.watched_game(request.user, game_id)
        return Response(_VIEW.to_representation(spectators.spectator_view(watched, request.user)))


class SpectatorsView(APIView):
    @extend_schema(
        operation_id="games_spectators_retrieve",
        summary="How many watch a game",
        description="For its players (what the table shows) and for those who may watch it: "
        "the number of players without a seat watching live now, and who may watch.",
        responses={200: SpectatorsSerializer, **standard_errors(WATCH_REFUSED, write=False)},
        tags=["spectators"],
    )
    def get(self, request: Request, game_id: UUID) -> Response:
        game, seats = spectators.game_for_count(request.user, game_id)
        body = {
            "spectators": spectators.spectator_count(game.pk, seats),
            "spectating": game.spectating,
            "spectator_delay": game.spectator_delay,
        }
        return Response(SpectatorsSerializer(body).data)


class SpectatingView(APIView):
    throttle_scope = "games"

    @extend_schema(
        operation_id="games_spectating_partial_update",
        summary="Choose who may watch your game",
        description="The host only, until the game ends. During play the game's version stays: "
        "spectators' streams pick the change up with the next move.",
        request={"application/json": SpectatingSerializer},
        parameters=[RETRY_AFTER],
        responses={
            200: s.GameSerializer,
            **standard_errors(
                {
                    400: error_response("`invalid_request` (details.fields) or `unknown_field`."),
                    404: NO_GAME,
                    403: error_response(
                        "`not_host` (only the host chooses who may watch), or "
                        "`permission_denied`: a `read` token, or a session request without "
                        "CSRF token."
                    ),
                    409: error_response("`game_over`: the game has ended."),
                },
                throttled=True,
            ),
        },
        tags=["spectators"],
    )
    def patch(self, request: Request, game_id: UUID) -> Response:
        ser = SpectatingSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        data = ser.validated_data
        game = services.set_spectating(
            user=request.user,
            game_id=game_id,
            spectating=data.get("spectating"),
            delay=data.get("spectator_delay"),
        )
        return Response(render_game(game, request))


class WatchStreamView(WrappedAPIView):
    renderer_classes = [JSONRenderer]
    wrapper = streams.event_stream

    @extend_schema(
        operation_id="games_watch_stream_retrieve",
        summary="Follow a game as a spectator (Server-Sent Events)",
        description="As `games_stream_retrieve`, for a spectator: `version` events with each "
        "move as a player without a seat sees it (never a card of a hand), up to the version "
        "you are shown (the delay's); no `view` events (read `games_watch_retrieve` after a "
        "`version` event). With `?chat_after=` it carries the spectators' chat as `chat` "
        "events (the players' chat is theirs alone; the spectators' has no delay: it is "
        "written by spectators). The stream ends (`end` event) when the game does, or when "
        "you may no longer watch (`data.reason` is the refusal's code).",
        parameters=[
            query.integer_parameter(
                "after", 0, 10**9, "Send the moves after this version.", default=0
            ),
            query.integer_parameter(
                "chat_after",
                0,
                query.MAX_ID,
                "Also send the spectators' chat (never the players') after this message id, "
                "as `chat` events, as `games_stream_retrieve` does (0: every message; pass the "
                "`next_after` of `games_chat_list` with `channel=spectators` to go on from "
                "it). Only on the stream.",
            ),
        ],
        responses={
            (200, "application/json"): OpenApiResponse(
                streams.LiveUpdateSerializer, description=streams.STREAM_200
            ),
            (200, streams.EVENT_STREAM): OpenApiResponse(
                OpenApiTypes.STR, description=streams.STREAM_200
            ),
            204: OpenApiResponse(description="The game is over and every move was sent."),
            **standard_errors(WATCH_REFUSED, write=False),
        },
        tags=["spectators"],
    )
    def get(self, request: Request, game_id: UUID) -> Response:
        watched = spectators.watched_game(request.user, game_id)
        game = watched.game
        progress = selectors.Progress(game.pk, game.kind, watched.shown, game.status)
        update = streams.spectator_update(progress, request.user, streams.cursor_of(request))
        chat, chat_after = feeds.chat_of(request, str(game.pk))
        response = Response(update)
        watch = (game.spectating, game.spectator_delay)
        plan = streams.plan_of(request, progress, None, update, watch=watch)
        response.live_stream = replace(plan, chat=chat, chat_after=chat_after)
        return response


def playing_row(game: Game, counts: dict[str, int]) -> dict[str, Any]:
    """One game of the public list (``PlayingGame``); its seats and players prefetched."""
    seats = sorted(game.seats.all(), key=lambda seat: seat.position or 0)
    return {
        "id": game.pk,
        "game": game.kind,
        "preset": game.preset,
        "rated": game.rated,
        "started_at": game.started_at,
        "spectator_delay": game.spectator_delay,
        "players": [row["name"] for row in selectors.seat_summary(seats, None)],
        "spectators": counts.get(str(game.pk), 0),
    }
