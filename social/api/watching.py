"""The public games being played now (``games/playing/``), for spectators to choose one. Thin:
the reads are ``social.watching`` (blocks) over ``games.spectators``."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api_responses import INVALID, NOT_AUTHENTICATED
from games import spectators
from games.api.spectate import PlayingGameSerializer, playing_row
from players.api.views import signed_in_user
from social import watching
from social.api import serializers as s

_PLAYING = PlayingGameSerializer(many=True)


class PlayingGamesView(APIView):
    @extend_schema(
        operation_id="games_playing_list",
        summary="Public games being played now, to watch",
        description=(
            "Games in progress that anyone may watch (`spectating` public), newest first, at "
            "most 100, with how many watch each now. None you play in, and none where a player "
            "blocked either way sits. Watch one with `games_watch_retrieve`."
        ),
        parameters=[
            OpenApiParameter(
                "game", str, required=False, description="Only this game's (its kind)."
            )
        ],
        responses={200: PlayingGameSerializer(many=True), 400: INVALID, 401: NOT_AUTHENTICATED},
        tags=["spectators"],
    )
    def get(self, request: Request) -> Response:
        query = s.LobbyQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        games = watching.public_games(
            user=signed_in_user(request), kind=query.validated_data.get("game")
        )
        counts = spectators.spectator_counts(games)
        return Response(_PLAYING.to_representation([playing_row(g, counts) for g in games]))
