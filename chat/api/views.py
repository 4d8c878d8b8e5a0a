"""The chat API: a game's chat (read, write), and each player's own chat switch and mutes.
Thin: the views check the request's shape and call ``chat.services`` / ``chat.selectors``;
who may read and write which channel is decided in ``chat.access``."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from chat import selectors, services
from chat.api import serializers as s
from chat.models import ChatMessage
from chat.rows import message_row
from config import query
from config.api_responses import INVALID, RETRY_AFTER, THROTTLED, standard_errors, write_responses
from config.openapi import error_response
from players.api.views import signed_in_user
from players.oauth import AppRateThrottle
from players.throttles import AuthRateThrottle

NO_GAME = error_response("`not_found`: no such game, or not one you may see.")
NOT_YOURS = error_response("`not_in_chat`: a channel of the game that is not yours.")
NO_PLAYER = error_response("`not_found`: no such player.")
CHANNEL = OpenApiParameter(
    "channel",
    str,
    enum=[c for c, _ in ChatMessage.CHANNELS],
    description="The players' chat (default) or the spectators'.",
)


def _channel(request: Request) -> str:
    return request.query_params.get("channel", ChatMessage.PLAYERS)


def _page(request: Request, game_id: UUID) -> dict[str, Any]:
    me = signed_in_user(request)
    channel = _channel(request)
    services.readable(me, game_id, channel)
    after = query.integer(request, "after", None, 0, query.MAX_ID)
    limit = query.integer(request, "limit", 100, 1, 100) or 100
    rows, cursor, more = selectors.page(me, game_id, channel, after=after, limit=limit)
    return {
        "messages": [message_row(m, me) for m in rows],
        "next_after": cursor,
        "has_more": more,
        "enabled": selectors.chat_enabled(me),
    }


class GameChatView(APIView):
    # Writing is rate-limited (THROTTLE_CHAT); reading is free.
    throttle_classes = [AuthRateThrottle, AppRateThrottle]
    throttle_scope = "chat"
    throttled_methods = ("POST",)

    @extend_schema(
        operation_id="games_chat_list",
        summary="A game's chat",
        description=(
            "The latest messages (or those after `after`) of a channel you may read: the "
            "players' chat to a seated player, the spectators' to one watching without a seat. "
            "Messages of players you muted, deleted ones and other players' messages the word "
            "filter caught are left out; nothing while your own chat is off (`enabled`). Go on "
            "live with the game stream's `chat_after` = `next_after`."
        ),
        parameters=[
            CHANNEL,
            query.integer_parameter("after", 0, query.MAX_ID, "Messages after this id."),
            query.integer_parameter("limit", 1, 100, "At most this many (100).", default=100),
        ],
        responses={
            200: s.ChatPageSerializer,
            400: INVALID,
            **standard_errors({403: NOT_YOURS, 404: NO_GAME}, write=False),
        },
        tags=["chat"],
    )
    def get(self, request: Request, game_id: UUID) -> Response:
        return Response(s.ChatPageSerializer(_page(request, game_id)).data)

    @extend_schema(
        operation_id="games_chat_create",
        summary="Write in a game's chat",
        description=(
            "Plain text, at most 500 characters once control and bidirectional-override "
            "characters are removed. A message the word filter catches is kept but shown to "
            "you alone (`filtered`), and counts toward moderation. `@username` of a seated "
            "player notifies them (kind `chat_mention`)."
        ),
        request={"application/json": s.ChatPostSerializer},
        parameters=[RETRY_AFTER],
        responses=write_responses(
            {201: s.ChatMessageSerializer},
            INVALID,
            {
                403: error_response(
                    "`not_in_chat` (not your channel: the players' chat takes a seat), "
                    "`chat_muted` (by the moderators, `details.until`) or `permission_denied` "
                    "(a read token)."
                ),
                404: NO_GAME,
                409: error_response("`chat_disabled`: your own chat is off."),
                429: THROTTLED,
            },
        ),
        tags=["chat"],
    )
    def post(self, request: Request, game_id: UUID) -> Response:
        ser = s.ChatPostSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        me = signed_in_user(request)
        message = services.post(user=me, game_id=game_id, **ser.validated_data)
        return Response(message_row(message, me), status=status.HTTP_201_CREATED)


class ChatSettingsView(APIView):
    @extend_schema(
        operation_id="me_chat_retrieve",
        summary="My chat switch",
        responses={200: s.ChatSettingsSerializer, **standard_errors(write=False)},
        tags=["chat"],
    )
    def get(self, request: Request) -> Response:
        return Response({"enabled": selectors.chat_enabled(signed_in_user(request))})

    @extend_schema(
        operation_id="me_chat_update",
        summary="Turn chat off (or on) for myself",
        request={"application/json": s.ChatSettingsSerializer},
        responses=write_responses({200: s.ChatSettingsSerializer}, INVALID),
        tags=["chat"],
    )
    def patch(self, request: Request) -> Response:
        ser = s.ChatSettingsSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        enabled = services.set_enabled(user=signed_in_user(request), **ser.validated_data)
        return Response({"enabled": enabled})


class MutesView(APIView):
    @extend_schema(
        operation_id="me_chat_mutes_list",
        summary="The players I muted in chat",
        responses={200: s.MutedSerializer(many=True), **standard_errors(write=False)},
        tags=["chat"],
    )
    def get(self, request: Request) -> Response:
        return Response(
            s.MutedSerializer(selectors.muted_by(signed_in_user(request)), many=True).data
        )

    @extend_schema(
        operation_id="me_chat_mutes_create",
        summary="Mute a player in every chat",
        description="Their messages no longer reach you, in any game. Muting twice is harmless.",
        request={"application/json": s.MuteRequestSerializer},
        responses=write_responses(
            {204: None},
            error_response("`invalid_request` or `cannot_mute_yourself`."),
            {404: NO_PLAYER},
        ),
        tags=["chat"],
    )
    def post(self, request: Request) -> Response:
        ser = s.MuteRequestSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        services.mute(user=signed_in_user(request), **ser.validated_data)
        return Response(status=status.HTTP_204_NO_CONTENT)


class MuteDetailView(APIView):
    @extend_schema(
        operation_id="me_chat_mutes_destroy",
        summary="Unmute a player",
        request=None,
        responses={204: None, **standard_errors({404: NO_PLAYER})},
        tags=["chat"],
    )
    def delete(self, request: Request, username: str) -> Response:
        services.unmute(user=signed_in_user(request), username=username)
        return Response(status=status.HTTP_204_NO_CONTENT)
