"""Bot accounts' API (players/bots.py, docs/bots-api.md): ``me/bots/`` lists and makes them,
``me/bots/{id}/token/`` re-keys one, ``DELETE me/bots/{id}/`` deletes one. Only the owner's own
credentials (session or personal token) may call them: an app's token never
(``players.oauth.ACCOUNT_ROUTES``), and a bot's own token is refused (``bot_cannot_own_bots``).
Making a bot or a token is throttled like sign-up (``auth``)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api_responses import RETRY_AFTER
from config.fields import StrictCharField
from config.openapi import error_response
from config.serializers import StrictSerializer
from players import bots
from players.api.serializers import NewApiTokenSerializer
from players.api.views import AuthThrottled
from players.blocklist import validate_name
from players.models import User

NOT_AUTHENTICATED = error_response("`not_authenticated`.")
FORBIDDEN = error_response(
    "`permission_denied`: a `read` token, an app's token, or a session request "
    "without CSRF token; `bot_cannot_own_bots`: a bot account's own token."
)
NOT_FOUND = error_response("`not_found`: no bot of yours.")
THROTTLED = error_response("`throttled`: see `Retry-After`.")


class BotAccountSerializer(serializers.ModelSerializer):
    name = serializers.CharField(
        source="public_name", help_text="As other players see it: marked `(bot)`."
    )

    class Meta:
        model = User
        fields = ["id", "username", "display_name", "name", "date_joined"]
        read_only_fields = fields


class NewBotSerializer(StrictSerializer):
    # The same rules as a person's name (players.api.serializers.SignupSerializer).
    username = StrictCharField(
        max_length=150,
        validators=[User.username_validator, validate_name],
        help_text="Letters, digits and @/./+/-/_ only; unique regardless of case.",
    )
    display_name = StrictCharField(
        max_length=40, required=False, allow_blank=True, validators=[validate_name]
    )


class NewBotResponseSerializer(serializers.Serializer):
    bot = BotAccountSerializer()
    token = NewApiTokenSerializer(help_text="The bot's `play` token, shown only this once.")


def _token_data(token: Any, raw: str) -> dict[str, Any]:
    return dict(NewApiTokenSerializer(token, context={"raw": raw}).data)


class BotsView(AuthThrottled, APIView):
    throttled_methods = frozenset({"POST"})

    @extend_schema(
        operation_id="me_bots_list",
        summary="My bot accounts",
        responses={200: BotAccountSerializer(many=True), 401: NOT_AUTHENTICATED, 403: FORBIDDEN},
        tags=["bots"],
    )
    def get(self, request: Request) -> Response:
        return Response(BotAccountSerializer(bots.bots_of(request.user), many=True).data)

    @extend_schema(
        operation_id="me_bots_create",
        summary="Make a bot account (and its first token)",
        description="The bot plays only through the API with the token in this answer (shown "
        "once). At most `BOT_ACCOUNTS_PER_PLAYER` per player.",
        request={"application/json": NewBotSerializer},
        responses={
            201: NewBotResponseSerializer,
            400: error_response("`invalid_request`."),
            401: NOT_AUTHENTICATED,
            403: FORBIDDEN,
            409: error_response("`username_taken`; `too_many_bots` (details.limit)."),
            429: THROTTLED,
        },
        parameters=[RETRY_AFTER],
        tags=["bots"],
    )
    def post(self, request: Request) -> Response:
        ser = NewBotSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        bot, token, raw = bots.create_bot(owner=request.user, **ser.validated_data)
        data = {"bot": BotAccountSerializer(bot).data, "token": _token_data(token, raw)}
        return Response(data, status=status.HTTP_201_CREATED)


class BotView(APIView):
    @extend_schema(
        operation_id="me_bots_destroy",
        summary="Delete a bot account of mine",
        description="Its seats in games in progress are freed, as when a person deletes theirs.",
        responses={
            204: OpenApiResponse(description="Deleted."),
            401: NOT_AUTHENTICATED,
            403: FORBIDDEN,
            404: NOT_FOUND,
        },
        tags=["bots"],
    )
    def delete(self, request: Request, bot_id: int) -> Response:
        bots.delete_bot(owner=request.user, bot_id=bot_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class BotTokenView(AuthThrottled, APIView):
    @extend_schema(
        operation_id="me_bots_token_create",
        summary="A new token for a bot account of mine (its other tokens are revoked)",
        request=None,
        responses={
            201: NewApiTokenSerializer,
            401: NOT_AUTHENTICATED,
            403: FORBIDDEN,
            404: NOT_FOUND,
            429: THROTTLED,
        },
        parameters=[RETRY_AFTER],
        tags=["bots"],
    )
    def post(self, request: Request, bot_id: int) -> Response:
        token, raw = bots.new_bot_token(owner=request.user, bot_id=bot_id)
        return Response(_token_data(token, raw), status=status.HTTP_201_CREATED)
