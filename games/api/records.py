"""A finished game's record (docs/records.md): its typed shape for the schema, and the view."""

from __future__ import annotations

from uuid import UUID

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config import error_codes as codes
from config.api_responses import standard_errors
from config.errors import ServiceError
from config.openapi import error_response
from games import records
from games.api.serializers import MoveActionField, MoveEventField
from games.api.views import NO_GAME, RETRY_AFTER


class RecordGameSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    kind = serializers.CharField(help_text="The game's kind (`uno_splash`, `gin_rummy`, ...).")
    name = serializers.CharField(help_text="The game's name as players read it.")
    visibility = serializers.ChoiceField(choices=["public", "private"])
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField()


class RecordSetupSerializer(serializers.Serializer):
    """The engine's ``new_game`` arguments: with the first move's chance outcomes they deal
    the game again."""

    players = serializers.IntegerField()
    preset = serializers.CharField()
    options = serializers.DictField(child=serializers.BooleanField())
    target_score = serializers.IntegerField()


class RecordPlayerSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    name = serializers.CharField()
    user_id = serializers.IntegerField(allow_null=True)
    bot_level = serializers.CharField(allow_null=True, help_text="Set while a bot plays the seat.")
    left = serializers.BooleanField()
    place = serializers.IntegerField(allow_null=True)
    final_score = serializers.IntegerField(allow_null=True)


class RecordPileSerializer(serializers.Serializer):
    top = serializers.CharField(allow_null=True, help_text="The top card's id; null if empty.")
    size = serializers.IntegerField()


class RecordPositionSerializer(serializers.Serializer):
    hands = serializers.ListField(
        child=serializers.ListField(child=serializers.CharField()),
        help_text="Every seat's cards (card ids), by seat.",
    )
    piles = serializers.DictField(child=RecordPileSerializer(), help_text="By pile name.")
    scores = serializers.ListField(child=serializers.IntegerField())
    to_move = serializers.IntegerField(allow_null=True)


class RecordMoveSerializer(serializers.Serializer):
    number = serializers.IntegerField(help_text="The game's version after this move.")
    seat = serializers.IntegerField(allow_null=True, help_text="Null for the service's actions.")
    at = serializers.DateTimeField()
    action = MoveActionField(help_text="`{type: start}` for the first move (the deal).")
    events = serializers.ListField(
        child=MoveEventField(),
        help_text="Every event, secrets and `chance` outcomes (shuffles, choices) included.",
    )
    position = RecordPositionSerializer(help_text="The table after the move.")


class RecordRoundSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    winner = serializers.IntegerField(allow_null=True)
    points = serializers.IntegerField()
    scores = serializers.ListField(child=serializers.IntegerField())


class RecordResultSerializer(serializers.Serializer):
    scores = serializers.ListField(child=serializers.IntegerField())
    winner = serializers.IntegerField(allow_null=True)
    rounds = RecordRoundSerializer(many=True)
    state_digest = serializers.CharField(help_text="SHA-256 of the final state's sorted JSON.")


class RatingChangeSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    user_id = serializers.IntegerField()
    rating_before = serializers.IntegerField()
    rating_after = serializers.IntegerField()
    change = serializers.IntegerField()


class RecordChatSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    player = serializers.CharField(help_text="The author's shown name when they wrote it.")
    text = serializers.CharField(help_text="Plain text: never to be shown as HTML.")
    at = serializers.DateTimeField()


class GameRecordSerializer(serializers.Serializer):
    format = serializers.ChoiceField(choices=[records.FORMAT])
    version = serializers.IntegerField(help_text=f"The format's version: {records.VERSION}.")
    game = RecordGameSerializer()
    setup = RecordSetupSerializer()
    players = RecordPlayerSerializer(many=True)
    moves = RecordMoveSerializer(many=True)
    result = RecordResultSerializer()
    rating_changes = RatingChangeSerializer(many=True, help_text="Empty unless the game was rated.")
    chat = RecordChatSerializer(
        many=True,
        help_text="The players' chat (nothing filtered or deleted); empty to a reader without a "
        "seat.",
    )


class GameRecordView(APIView):
    throttle_scope = "games"

    @extend_schema(
        operation_id="games_record_retrieve",
        summary="A finished game's record: every move, every hand, the end",
        description=(
            "The versioned record of a finished game (docs/records.md): setup, every move with "
            "all its events (hidden cards and chance outcomes too: the game is over) and the "
            "table after it, the standings, any rating changes and, to its players only, the "
            "players' chat. `manage.py replay` checks one. Readable by the game's players and, "
            "for a public game, by anyone signed in."
        ),
        parameters=[RETRY_AFTER],
        responses={
            200: GameRecordSerializer,
            **standard_errors(
                {
                    404: NO_GAME,
                    409: error_response(
                        "`game_not_finished` (not over yet, or never played to its end), or "
                        "`record_unavailable` (a game loaded from a position)."
                    ),
                },
                write=False,
                throttled=True,
            ),
        },
        tags=["games"],
    )
    def get(self, request: Request, game_id: UUID) -> Response:
        game = records.game_for_record(request.user, game_id)
        if game is None:
            raise ServiceError(codes.NOT_FOUND, "No such game.")
        try:
            return Response(records.build_record(game, request.user))
        except records.RecordUnavailable as exc:
            raise ServiceError(exc.error, exc.message) from exc
