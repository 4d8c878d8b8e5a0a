"""The games API: thin views. Shapes come from serializers, changes from services, reads from
selectors."""

from __future__ import annotations

import hashlib
from typing import Any
from uuid import UUID

from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    PolymorphicProxySerializer,
    extend_schema,
)
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.errors import ServiceError
from games import selectors, services
from games.api import serializers as s
from games.idempotency import run_once
from games.models import Game

ERRORS = {
    400: OpenApiResponse(s.ErrorSerializer, description="Invalid request (invalid_request)."),
    401: OpenApiResponse(s.ErrorSerializer, description="Not authenticated."),
    403: OpenApiResponse(s.ErrorSerializer, description="Not allowed (e.g. read-only token)."),
    404: OpenApiResponse(s.ErrorSerializer, description="No such game, or not yours to see."),
    429: OpenApiResponse(s.ErrorSerializer, description="Too many requests; see Retry-After."),
}
CONFLICT = OpenApiResponse(s.ErrorSerializer, description="The game's state does not allow it.")
RULES = OpenApiResponse(
    s.ErrorSerializer, description="The rules refuse the action (engine error code)."
)


def _errors(*codes: int) -> dict[int, OpenApiResponse]:
    out = dict(ERRORS)
    if 409 in codes:
        out[409] = CONFLICT
    if 422 in codes:
        out[422] = RULES
    return out


def _game_or_404(request: Request, game_id: UUID) -> Game:
    game = selectors.get_game_for(request.user, game_id)
    if game is None:
        raise ServiceError("not_found", "No such game.", 404)
    return game


def _render_game(game: Game, request: Request) -> dict[str, Any]:
    return s.GameSerializer(selectors.game_view(game, request.user)).data


def _etag(game: Game, request: Request) -> str:
    # The view depends on the game's version and on who is looking.
    raw = f"{game.pk}:{game.version}:{request.user.pk}"
    return '"' + hashlib.sha256(raw.encode()).hexdigest()[:32] + '"'


class GameListView(APIView):
    throttle_scope = "games"

    @extend_schema(
        operation_id="games_list",
        summary="My games, the ones waiting for my move first",
        parameters=[
            OpenApiParameter("status", str, enum=[x for x, _ in Game.STATUSES]),
            OpenApiParameter("my_turn", bool),
        ],
        responses={200: s.GameSummarySerializer(many=True), **_errors()},
    )
    def get(self, request: Request) -> Response:
        raw_turn = request.query_params.get("my_turn")
        my_turn = None if raw_turn is None else raw_turn.lower() in ("1", "true", "yes")
        status_filter = request.query_params.get("status")
        if status_filter and status_filter not in dict(Game.STATUSES):
            raise ServiceError("invalid_request", f"Unknown status {status_filter!r}.", 400)
        games = list(
            selectors.my_games(
                request.user, status=status_filter, my_turn=my_turn
            ).prefetch_related("seats__user")[:200]
        )
        data = [selectors.game_summary(g, list(g.seats.all()), request.user) for g in games]
        return Response(s.GameSummarySerializer(data, many=True).data)

    @extend_schema(
        operation_id="games_create",
        summary="Create a game (you take the first seat)",
        request=s.CreateGameSerializer,
        responses={201: s.GameSerializer, **_errors()},
    )
    def post(self, request: Request) -> Response:
        ser = s.CreateGameSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        game = services.create_game(host=request.user, **ser.validated_data)
        return Response(_render_game(game, request), status=status.HTTP_201_CREATED)


class OpenGamesView(APIView):
    @extend_schema(
        operation_id="games_open_list",
        summary="Public games waiting for players",
        responses={200: s.GameSummarySerializer(many=True), **_errors()},
    )
    def get(self, request: Request) -> Response:
        games = list(selectors.open_games().prefetch_related("seats__user")[:100])
        data = [selectors.game_summary(g, list(g.seats.all()), request.user) for g in games]
        return Response(s.GameSummarySerializer(data, many=True).data)


class GameDetailView(APIView):
    @extend_schema(
        operation_id="games_retrieve",
        summary="The game as you see it, with your legal actions",
        description="Send If-None-Match with the last ETag to get 304 when nothing changed.",
        responses={
            200: s.GameSerializer,
            304: OpenApiResponse(description="Not modified."),
            **_errors(),
        },
    )
    def get(self, request: Request, game_id: UUID) -> Response:
        game = _game_or_404(request, game_id)
        etag = _etag(game, request)
        if etag in request.headers.get("If-None-Match", ""):
            return Response(status=status.HTTP_304_NOT_MODIFIED, headers={"ETag": etag})
        return Response(_render_game(game, request), headers={"ETag": etag})


def _lobby_operation(operation_id: str, summary: str, codes: tuple[int, ...] = (409,)) -> Any:
    return extend_schema(
        operation_id=operation_id,
        summary=summary,
        request=None,
        responses={200: s.GameSerializer, **_errors(*codes)},
    )


class JoinGameView(APIView):
    throttle_scope = "games"

    @_lobby_operation("games_join", "Join a public lobby (or a rematch of your game)")
    def post(self, request: Request, game_id: UUID) -> Response:
        game = services.join_game(user=request.user, game_id=game_id)
        return Response(_render_game(game, request))


class JoinByInviteView(APIView):
    throttle_scope = "games"

    @extend_schema(
        operation_id="games_join_by_invite",
        summary="Join a game with its invite code",
        request=s.JoinByCodeSerializer,
        responses={200: s.GameSerializer, 410: ERRORS[404], **_errors(409)},
    )
    def post(self, request: Request) -> Response:
        ser = s.JoinByCodeSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        game = services.join_game(user=request.user, invite_code=ser.validated_data["invite_code"])
        return Response(_render_game(game, request))


class LeaveGameView(APIView):
    @_lobby_operation("games_leave", "Leave a lobby, or leave a game in progress (you are out)")
    def post(self, request: Request, game_id: UUID) -> Response:
        game = services.leave_game(user=request.user, game_id=game_id)
        return Response(_render_game(game, request))


class StartGameView(APIView):
    @_lobby_operation("games_start", "Start the game (host only)")
    def post(self, request: Request, game_id: UUID) -> Response:
        game = services.start_game(user=request.user, game_id=game_id)
        return Response(_render_game(game, request))


class InviteView(APIView):
    @_lobby_operation("games_invite_renew", "Replace the invite code (host only)")
    def post(self, request: Request, game_id: UUID) -> Response:
        game = services.regenerate_invite(user=request.user, game_id=game_id)
        return Response(_render_game(game, request))


class RematchView(APIView):
    @_lobby_operation("games_rematch", "Open (or join) a rematch of a finished game")
    def post(self, request: Request, game_id: UUID) -> Response:
        game = services.rematch(user=request.user, game_id=game_id)
        return Response(_render_game(game, request))


ACTION_UNION = PolymorphicProxySerializer(
    component_name="ActionRequest",
    serializers=list(s.ACTION_SERIALIZERS.values()),
    resource_type_field_name="type",
)


class ActionView(APIView):
    throttle_scope = "actions"

    @extend_schema(
        operation_id="games_actions_create",
        summary="Take one action",
        description=(
            "The body is one action, discriminated by `type`, plus the `expected_version` you "
            "acted on. Send an `Idempotency-Key` header to make retries safe: a retry with the "
            "same key and body gets the first response again."
        ),
        request=ACTION_UNION,
        parameters=[
            OpenApiParameter(
                "Idempotency-Key",
                str,
                OpenApiParameter.HEADER,
                required=False,
                description="Any unique string (e.g. a UUID) per intended action.",
            )
        ],
        responses={200: s.GameSerializer, **_errors(409, 422)},
        examples=[
            OpenApiExample(
                "Play a Force Swap",
                value={"type": "play", "card": "force_swap-3", "target": 2, "expected_version": 12},
                request_only=True,
            ),
            OpenApiExample(
                "Draw", value={"type": "draw", "expected_version": 12}, request_only=True
            ),
        ],
    )
    def post(self, request: Request, game_id: UUID) -> Response:
        body = request.data if isinstance(request.data, dict) else None
        if body is None:
            raise ServiceError("invalid_request", "The body is a JSON object.", 400)
        kind = body.get("type")
        serializer_class = s.ACTION_SERIALIZERS.get(kind) if isinstance(kind, str) else None
        if serializer_class is None:
            raise ServiceError(
                "invalid_action",
                f"type must be one of {', '.join(s.ACTION_SERIALIZERS)}.",
                400,
            )
        ser = serializer_class(data=body)
        ser.is_valid(raise_exception=True)
        data = dict(ser.validated_data)
        expected = data.pop("expected_version", None)

        def work() -> tuple[int, dict[str, Any]]:
            game = services.act(
                user=request.user, game_id=game_id, action=data, expected_version=expected
            )
            return 200, _render_game(game, request)

        key = request.headers.get("Idempotency-Key")
        if key is None:
            code, payload = work()
            return Response(payload, status=code)
        code, payload, replayed = run_once(
            user=request.user, key=key, body={"game": str(game_id), **body}, work=work
        )
        headers = {"Idempotent-Replayed": "true"} if replayed else {}
        return Response(payload, status=code, headers=headers)


class EventsView(APIView):
    @extend_schema(
        operation_id="games_events_list",
        summary="The move log as you may see it, after a version",
        parameters=[
            OpenApiParameter("after", int, description="Return moves after this version."),
            OpenApiParameter("limit", int, description="At most this many moves (1-200)."),
        ],
        responses={200: s.EventPageSerializer, **_errors()},
    )
    def get(self, request: Request, game_id: UUID) -> Response:
        game = _game_or_404(request, game_id)
        after = _int_param(request, "after", 0, 0, 10**9)
        limit = _int_param(request, "limit", 50, 1, 200)
        moves, more = selectors.events_for(game, request.user, after=after, limit=limit)
        page = {
            "moves": moves,
            "next_after": moves[-1]["version"] if moves else after,
            "has_more": more,
        }
        return Response(s.EventPageSerializer(page).data)


def _int_param(request: Request, name: str, default: int, low: int, high: int) -> int:
    raw = request.query_params.get(name)
    if raw is None:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ServiceError("invalid_request", f"{name} must be a whole number.", 400) from None
    if not low <= value <= high:
        raise ServiceError("invalid_request", f"{name} must be {low} to {high}.", 400)
    return value
