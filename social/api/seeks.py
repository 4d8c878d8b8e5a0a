"""The lobby and quick pairing's API: public games waiting and others' seeks (``lobby/``), my
seeks (``seeks/``: list, post, withdraw). Thin: the request's shape is checked here, the rest
is ``social.pairing`` (changes) and ``social.lobby`` (reads)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api_responses import INVALID, NOT_AUTHENTICATED, RETRY_AFTER, standard_errors
from config.openapi import error_response
from games import selectors as game_selectors
from games.api.serializers import GameSerializer
from players.api.views import signed_in_user
from players.oauth import AppRateThrottle
from players.throttles import AuthRateThrottle, ScopeThrottled
from social import lobby, pairing
from social.api import serializers as s

_SEEKS = s.SeekSerializer(many=True)


class LobbyView(APIView):
    @extend_schema(
        operation_id="lobby_retrieve",
        summary="Public games waiting for players, and other players' seeks",
        description=(
            "`games`: public lobbies with a free seat (join one with `games_join`), with the "
            "host's shown rating. `seeks`: other players' open quick-pairing seeks; post a seek "
            "with the same settings (`seeks_create`) to be matched with them when your ratings "
            "are in reach. At most 100 of each, oldest first; players blocked either way are "
            "left out."
        ),
        parameters=[
            OpenApiParameter(
                "game", str, required=False, description="Only this game's (its kind)."
            )
        ],
        responses={200: s.LobbySerializer, 400: INVALID, 401: NOT_AUTHENTICATED},
        tags=["social"],
    )
    def get(self, request: Request) -> Response:
        query = s.LobbyQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        me, kind = signed_in_user(request), query.validated_data.get("game")
        data = {
            "games": lobby.open_games(user=me, kind=kind),
            "seeks": lobby.others_seeks(user=me, kind=kind),
        }
        return Response(s.LobbySerializer(data).data)


class SeeksView(ScopeThrottled, APIView):
    # Posting may start a game: the games allowance, as creating one. Listing is free.
    throttle_scope = "games"

    @extend_schema(
        operation_id="seeks_list",
        summary="My open seeks, and those matched lately",
        description="Newest first. A matched seek names its game (`game_id`).",
        responses={200: s.SeekSerializer(many=True), 401: NOT_AUTHENTICATED},
        tags=["social"],
    )
    def get(self, request: Request) -> Response:
        return Response(_SEEKS.to_representation(lobby.my_seeks(user=signed_in_user(request))))

    @extend_schema(
        operation_id="seeks_create",
        summary="Quick pairing: seek a game",
        description=(
            "Matched at once with other seeks of the same game, seats, ratedness and house "
            "rules whose players' shown ratings are in reach (within 150 points, widening by 50 "
            "for every 5 minutes the shorter-waiting seek has waited, up to 600, and inside "
            "each player's own `min_rating`/`max_rating`); the game starts and `status` is "
            "`matched`. Otherwise the seek waits (`open`) and is matched later, until you "
            "withdraw it or it expires (SEEK_TTL_SECONDS). Never with yourself or a player "
            "blocked either way."
        ),
        request={"application/json": s.SeekRequestSerializer},
        parameters=[RETRY_AFTER],
        responses={
            201: s.SeekSerializer,
            **standard_errors(
                {
                    400: error_response(
                        "`invalid_request` (details.fields), `invalid_setup` (seats, a house "
                        "rule) or `rated_not_allowed`."
                    ),
                    409: error_response(
                        "`already_seeking` (an open seek like it) or `too_many_games`."
                    ),
                },
                throttled=True,
            ),
        },
        tags=["social"],
    )
    def post(self, request: Request) -> Response:
        ser = s.SeekRequestSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        data: dict[str, Any] = dict(ser.validated_data)
        seek = pairing.post_seek(
            user=signed_in_user(request),
            kind=data["kind"],
            seats=data["seats"],
            rated=data.get("rated"),
            options=data.get("options"),
            min_rating=data.get("min_rating"),
            max_rating=data.get("max_rating"),
        )
        return Response(s.SeekSerializer(seek).data, status=status.HTTP_201_CREATED)


class SeekTakeView(APIView):
    # It starts a game: the games allowance, as creating one.
    throttle_classes = [AuthRateThrottle, AppRateThrottle]
    throttle_scope = "games"

    @extend_schema(
        operation_id="seeks_take",
        summary="Take another player's seek for two: the game starts",
        description=(
            "From the lobby's `seeks`: you and the seek's player are seated in a new private "
            "game, which starts at once (the seeker hosts); both are notified (kind `paired`). "
            "Your shown rating must be inside the seek's own `min_rating`/`max_rating` (the "
            "widening window does not apply: you chose this opponent). A seek for more seats "
            "is not taken alone (`seek_needs_group`): post a seek with its settings. Exactly "
            "once: of two players taking the same seek at once, one gets the game and the "
            "other `seek_closed`."
        ),
        request=None,
        parameters=[RETRY_AFTER],
        responses={
            200: GameSerializer,
            **standard_errors(
                {
                    403: error_response(
                        "`seek_refused` (your own, or outside its range), or `permission_denied`."
                    ),
                    404: error_response(
                        "`not_found`: no such seek (or its player is blocked either way)."
                    ),
                    409: error_response("`seek_closed`, `seek_needs_group` or `too_many_games`."),
                },
                write=False,
                throttled=True,
            ),
        },
        tags=["social"],
    )
    def post(self, request: Request, seek_id: int) -> Response:
        me = signed_in_user(request)
        game = pairing.take_seek(user=me, seek_id=seek_id)
        return Response(GameSerializer().to_representation(game_selectors.game_view(game, me)))


class SeekDetailView(APIView):
    @extend_schema(
        operation_id="seeks_destroy",
        summary="Withdraw a seek",
        request=None,
        responses={
            204: None,
            **standard_errors(
                {
                    404: error_response("`not_found`: no such seek, or not yours."),
                    409: error_response("`seek_closed`: it was matched, withdrawn or has expired."),
                }
            ),
        },
        tags=["social"],
    )
    def delete(self, request: Request, seek_id: int) -> Response:
        pairing.withdraw_seek(user=signed_in_user(request), seek_id=seek_id)
        return Response(status=status.HTTP_204_NO_CONTENT)
