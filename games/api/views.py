"""The games API: thin views. Shapes come from serializers, changes from services, reads from
selectors."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any
from uuid import UUID

from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import Serializer
from rest_framework.views import APIView

from config import error_codes as codes
from config import query
from config.api_responses import (
    RETRY_AFTER,
    standard_errors,
)
from config.errors import ServiceError
from config.openapi import error_response
from games import selectors, services
from games.api import serializers as s
from games.models import Game

# Error responses in the one shape (config/errors.py); each description names the codes.
NO_GAME = error_response("`not_found`: no such game, or not yours to see.")
ETAG = OpenApiParameter(
    "ETag",
    str,
    OpenApiParameter.HEADER,
    response=[200, 304],
    description="Send it back as `If-None-Match` to poll cheaply.",
)
JOIN_CONFLICT = "`game_already_started`, `already_joined`, `game_full` or `too_many_games`."


def _game_or_404(request: Request, game_id: UUID) -> Game:
    game = selectors.get_game_for(request.user, game_id)
    if game is None:
        raise ServiceError(codes.NOT_FOUND, "No such game.")
    return game


# A serializer deep-copies its declared fields each time one is made, which costs more than the
# rendering itself. Bound once, they only read their input, so one instance serves every request
# and thread.
GAME_SERIALIZER = s.GameSerializer()
_GAME_SUMMARIES = s.GameSummarySerializer(many=True)


def seat_view(user: Any, game_id: UUID | str) -> dict[str, Any] | None:
    """``user``'s view of the game, as ``games_retrieve`` answers it (one query); None when it
    is not theirs to see."""
    found = selectors.game_with_seats(user, game_id)
    if found is None:
        return None
    game, seats = found
    return GAME_SERIALIZER.to_representation(selectors.game_view(game, user, seats=seats))


def render_game(game: Game, request: Request) -> dict[str, Any]:
    """The game as ``request``'s user may see it, in its wire format."""
    return GAME_SERIALIZER.to_representation(selectors.game_view(game, request.user))


def etag_for(game_id: Any, version: int, user_id: Any) -> str:
    # The view depends on the game's version and on who is looking.
    raw = f"{game_id}:{version}:{user_id}"
    return '"' + hashlib.sha256(raw.encode()).hexdigest()[:32] + '"'


def etag_matches(header: str, etag: str) -> bool:
    """If-None-Match per RFC 9110: ``*`` or any listed tag, weak or strong, matches."""
    tags = [t.strip().removeprefix("W/") for t in header.split(",") if t.strip()]
    return "*" in tags or etag in tags


TOO_MANY_GAMES = error_response("`too_many_games` (details.limit): GAMES_IN_PROGRESS_MAX.")


def _answers_new_game(
    operation_id: str,
    summary: str,
    description: str,
    request: type[Serializer],
    errors: dict[int, Any],
    example: OpenApiExample,
) -> Any:
    """The schema of a throttled operation that reads ``request`` and answers 201 with the game
    (a new one, or the lobby with a new seat taken)."""
    return extend_schema(
        operation_id=operation_id,
        summary=summary,
        description=description,
        request={"application/json": request},
        parameters=[RETRY_AFTER],
        responses={201: s.GameSerializer, **standard_errors(errors, throttled=True)},
        examples=[example],
        tags=["games"],
    )


class GameListView(APIView):
    throttle_scope = "games"

    @extend_schema(
        operation_id="games_list",
        summary="My games, the ones waiting for my move first",
        description="At most 200 games, those where it is your turn first.",
        parameters=[
            OpenApiParameter(
                "status",
                str,
                enum=[x for x, _ in Game.STATUSES],
                description="Only games in this status.",
            ),
            query.boolean_parameter(
                "my_turn", "Only games where it is (true) or is not your turn."
            ),
            RETRY_AFTER,
        ],
        responses={
            200: s.GameSummarySerializer(many=True),
            **standard_errors(
                {
                    400: error_response(
                        "`invalid_request`: unknown `status`, or `my_turn` not true/false."
                    )
                },
                write=False,
                throttled=True,
            ),
        },
        tags=["games"],
    )
    def get(self, request: Request) -> Response:
        my_turn = query.boolean(request, "my_turn")
        status_filter = request.query_params.get("status")
        if status_filter is not None and status_filter not in dict(Game.STATUSES):
            raise ServiceError(codes.INVALID_REQUEST, f"Unknown status {status_filter!r}.")
        games = list(
            selectors.my_games(
                request.user, status=status_filter, my_turn=my_turn
            ).prefetch_related("seats__user")[:200]
        )
        data = [selectors.game_summary(g, list(g.seats.all()), request.user) for g in games]
        return Response(_GAME_SUMMARIES.to_representation(data))

    @_answers_new_game(
        "games_create",
        "Create a game (you take the first seat)",
        "A lobby with you in the first seat. Share `invite_code` (private games) or the id "
        "(public games); the game starts by itself when the last seat is taken, or when the "
        "host starts it with at least 2 players.",
        s.CreateGameSerializer,
        {
            400: error_response(
                "`invalid_request` (details.fields), `invalid_setup` (an unknown house rule) or "
                "`rated_not_allowed` (`rated` with another preset, a house rule, or by a bot "
                "account)."
            ),
            409: TOO_MANY_GAMES,
        },
        OpenApiExample(
            "One round for three friends",
            request_only=True,
            value={
                "preset": "standard",
                "max_players": 3,
                "target_score": 0,
                "turn_seconds": 3600,
                "visibility": "private",
                "options": {"force_swap_protection": True},
            },
        ),
    )
    def post(self, request: Request) -> Response:
        ser = s.CreateGameSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        game = services.create_game(host=request.user, **ser.validated_data)
        return Response(render_game(game, request), status=status.HTTP_201_CREATED)


class OpenGamesView(APIView):
    @extend_schema(
        operation_id="games_open_list",
        summary="Public games waiting for players",
        description="At most 100 public lobbies, oldest first; join one with `games_join`.",
        responses={200: s.GameSummarySerializer(many=True), **standard_errors(write=False)},
        tags=["games"],
    )
    def get(self, request: Request) -> Response:
        games = list(selectors.open_games().prefetch_related("seats__user")[:100])
        data = [selectors.game_summary(g, list(g.seats.all()), request.user) for g in games]
        return Response(_GAME_SUMMARIES.to_representation(data))


class InvitationsView(APIView):
    throttle_scope = "games"

    @extend_schema(
        operation_id="games_invitations_list",
        summary="Lobbies I am invited to",
        description=(
            "At most 50 lobbies you may join by id (`games_join`) and have not joined, newest "
            "first: the rematches another player opened of a game you played. `games/live/` "
            "counts them (`invitations`) and its stamp changes when one comes or goes."
        ),
        parameters=[RETRY_AFTER],
        responses={
            200: s.GameSummarySerializer(many=True),
            **standard_errors(write=False, throttled=True),
        },
        tags=["games"],
    )
    def get(self, request: Request) -> Response:
        games = list(selectors.invitations(request.user).prefetch_related("seats__user")[:50])
        data = [selectors.game_summary(g, list(g.seats.all()), request.user) for g in games]
        return Response(_GAME_SUMMARIES.to_representation(data))


class GameOptionsView(APIView):
    @extend_schema(
        operation_id="games_options_retrieve",
        summary="What a new game may be created with",
        description=(
            "Presets, the house rules with a description to show players, bot levels, and "
            "the allowed range and default of every number in `games_create` and "
            "`games_vs_computer_create`. Read from the fields that validate those requests."
        ),
        responses={200: s.NewGameChoicesSerializer, **standard_errors(write=False)},
        tags=["games"],
    )
    def get(self, request: Request) -> Response:
        # Built per request: games may be registered after start-up (tests register a toy).
        return Response(s.game_options())


class GameDetailView(APIView):
    @extend_schema(
        operation_id="games_retrieve",
        summary="The game as you see it, with your legal actions",
        description=(
            "Only what your seat may see: your hand, the other seats' hand sizes, and "
            "`table.legal_actions` when you may act. Poll with `If-None-Match` set to the last "
            "`ETag`: 304 (no body) while nothing has changed."
        ),
        parameters=[
            OpenApiParameter(
                "If-None-Match",
                str,
                OpenApiParameter.HEADER,
                description="The `ETag` of the last 200; answered with 304 if still current.",
            ),
            ETAG,
        ],
        responses={
            200: s.GameSerializer,
            304: OpenApiResponse(description="Not modified since the ETag you sent."),
            **standard_errors({404: NO_GAME}, write=False),
        },
        tags=["games"],
    )
    def get(self, request: Request, game_id: UUID) -> Response:
        # Runs after DRF's authentication, permissions and throttles, like every other view.
        if_none_match = request.headers.get("If-None-Match")
        if if_none_match:
            # A conditional GET asks only for the version (one indexed read): a client still
            # current gets its 304 without the game, its state or its seats being loaded.
            version = selectors.visible_game_version(request.user, game_id)
            if version is None:
                raise ServiceError(codes.NOT_FOUND, "No such game.")
            etag = etag_for(game_id, version, request.user.pk)
            if etag_matches(if_none_match, etag):
                return Response(status=status.HTTP_304_NOT_MODIFIED, headers={"ETag": etag})
        view = seat_view(request.user, game_id)
        if view is None:
            raise ServiceError(codes.NOT_FOUND, "No such game.")
        etag = etag_for(game_id, view["version"], request.user.pk)
        return Response(view, headers={"ETag": etag})


def _lobby_operation(
    operation_id: str,
    summary: str,
    conflict: str,
    *,
    description: str = "",
    forbidden: str = "",
    throttled: bool = False,
) -> Any:
    extra = {404: NO_GAME, 409: error_response(conflict)}
    if forbidden:
        extra[403] = error_response(f"{forbidden}, or `permission_denied` (a `read` token).")
    return extend_schema_view(
        post=extend_schema(
            operation_id=operation_id,
            summary=summary,
            description=description or None,
            request=None,
            parameters=[RETRY_AFTER] if throttled else None,
            responses={200: s.GameSerializer, **standard_errors(extra, throttled=throttled)},
            tags=["games"],
        )
    )


# POST with no body: one lobby service on the game, answered with the game as the player sees it.
# A subclass names its service and, with ``_lobby_operation``, its schema. (A comment, not a
# docstring: drf-spectacular would publish a docstring as the operations' description.)
class _LobbyOperationView(APIView):
    # A plain function of ``user`` and ``game_id`` (a staticmethod, so it is not bound).
    operation: Callable[..., Game]

    def post(self, request: Request, game_id: UUID) -> Response:
        game = self.operation(user=request.user, game_id=game_id)
        return Response(render_game(game, request))


@_lobby_operation(
    "games_join",
    "Join a public lobby (or a rematch of your game)",
    JOIN_CONFLICT,
    description="Private games are joined by invite code (`games_join_by_invite`).",
    throttled=True,
)
class JoinGameView(_LobbyOperationView):
    throttle_scope = "games"
    operation = staticmethod(services.join_game)


class JoinByInviteView(APIView):
    throttle_scope = "games"

    @extend_schema(
        operation_id="games_join_by_invite",
        summary="Join a game with its invite code",
        request={"application/json": s.JoinByCodeSerializer},
        parameters=[RETRY_AFTER],
        responses={
            200: s.GameSerializer,
            **standard_errors(
                {
                    400: error_response("`invalid_request`: no `invite_code`."),
                    404: error_response("`invalid_invite`: no game has this code."),
                    409: error_response(
                        "`game_already_started` (the game has started: its invite is over), "
                        "`already_joined`, `game_full` or `too_many_games`."
                    ),
                    410: error_response(
                        "`invite_expired`: the lobby's invite ran out (invites last a week); ask "
                        "the host for a new code."
                    ),
                },
                throttled=True,
            ),
        },
        examples=[
            OpenApiExample(
                "Join with a code", request_only=True, value={"invite_code": "Xq3Lr0M1c9yJf3nV"}
            )
        ],
        tags=["games"],
    )
    def post(self, request: Request) -> Response:
        ser = s.JoinByCodeSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        game = services.join_game(user=request.user, invite_code=ser.validated_data["invite_code"])
        return Response(render_game(game, request))


@_lobby_operation(
    "games_leave",
    "Leave a lobby, or leave a game in progress (you are out)",
    "`not_in_game` (you already left) or `game_over`.",
    description="In a running game your cards leave with you and you cannot come back.",
)
class LeaveGameView(_LobbyOperationView):
    operation = staticmethod(services.leave_game)


@_lobby_operation(
    "games_start",
    "Start the game (host only)",
    "`game_already_started` or `not_enough_players` (fewer than 2).",
    forbidden="`not_host`",
)
class StartGameView(_LobbyOperationView):
    operation = staticmethod(services.start_game)


@_lobby_operation(
    "games_invite_renew",
    "Replace the invite code (host only)",
    "`game_already_started`.",
    description="The old code stops working at once; the new one lasts a week.",
    forbidden="`not_host`",
)
class InviteView(_LobbyOperationView):
    operation = staticmethod(services.regenerate_invite)


@_lobby_operation(
    "games_rematch",
    "Open (or join) a rematch of a finished game",
    "`game_not_finished`, or joining the open rematch failed (" + JOIN_CONFLICT[:-1] + ").",
    description=(
        "The first player to ask opens a private lobby with the same settings and the same "
        "bots (names and levels) in their seats; the other players of the finished game get "
        "a seat in it by asking too. A game against the computer alone (no other person) "
        "is full at once and starts: the answer is the running game, dealt. A player "
        "knocked out of a one-round game (No Mercy), whose place is decided, may ask "
        "before the others finish it."
    ),
)
class RematchView(_LobbyOperationView):
    operation = staticmethod(services.rematch)


class DeclineInvitationView(APIView):
    @extend_schema(
        operation_id="games_invitation_decline",
        summary="Decline a rematch you are invited to",
        description=(
            "The lobby leaves your invitations (`games_invitations_list`, the badge). You may "
            "still join it by id while it waits."
        ),
        request=None,
        responses={
            204: None,
            **standard_errors(
                {
                    404: error_response("`not_found`: no such game, or no invitation of yours."),
                    409: error_response("`already_joined` or `game_already_started`."),
                }
            ),
        },
        tags=["games"],
    )
    def post(self, request: Request, game_id: UUID) -> Response:
        services.decline_invitation(user=request.user, game_id=game_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class VsComputerView(APIView):
    throttle_scope = "games"

    @_answers_new_game(
        "games_vs_computer_create",
        "Play against the computer: a game with bots, started at once",
        "A private game for you and `bots` bots of one `level`, dealt at once: it is running "
        "when this answers. Bots move a moment after the turn reaches them.",
        s.VsComputerSerializer,
        {
            400: error_response(
                "`invalid_request` (details.fields), `invalid_setup` or `invalid_bot_level`."
            ),
            409: TOO_MANY_GAMES,
        },
        OpenApiExample(
            "One round against two expert bots",
            request_only=True,
            value={"bots": 2, "level": "expert", "target_score": 0},
        ),
    )
    def post(self, request: Request) -> Response:
        ser = s.VsComputerSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        data = dict(ser.validated_data)
        game = services.play_vs_computer(user=request.user, bots_count=data.pop("bots"), **data)
        return Response(render_game(game, request), status=status.HTTP_201_CREATED)


class BotsView(APIView):
    throttle_scope = "games"

    @_answers_new_game(
        "games_bots_create",
        "Put a bot in a free seat of the lobby (host only)",
        "The bot takes a seat like a player joining: when it is the last free seat, the game "
        "starts. Remove it again with `games_bots_destroy` while the lobby is open.",
        s.AddBotSerializer,
        {
            400: error_response("`invalid_request` (details.fields) or `invalid_bot_level`."),
            403: error_response("`not_host`, or `permission_denied` (a `read` token)."),
            404: NO_GAME,
            409: error_response("`game_already_started` or `game_full`."),
        },
        OpenApiExample("A heuristic bot", request_only=True, value={"level": "heuristic"}),
    )
    def post(self, request: Request, game_id: UUID) -> Response:
        ser = s.AddBotSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        game = services.add_bot(
            user=request.user, game_id=game_id, level=ser.validated_data["level"]
        )
        return Response(render_game(game, request), status=status.HTTP_201_CREATED)


class BotDetailView(APIView):
    throttle_scope = "games"

    @extend_schema(
        operation_id="games_bots_destroy",
        summary="Remove a bot from the lobby (host only)",
        description="`seat_id` is the bot's `players[].seat_id` in the game view.",
        request=None,
        parameters=[RETRY_AFTER],
        responses={
            200: s.GameSerializer,
            **standard_errors(
                {
                    403: error_response("`not_host`, or `permission_denied` (a `read` token)."),
                    404: error_response("`not_found` (no such game) or `bot_not_found`."),
                    409: error_response("`game_already_started`."),
                },
                throttled=True,
            ),
        },
        tags=["games"],
    )
    def delete(self, request: Request, game_id: UUID, seat_id: int) -> Response:
        game = services.remove_bot(user=request.user, game_id=game_id, seat_id=seat_id)
        return Response(render_game(game, request))


@_lobby_operation(
    "games_reclaim",
    "Take back your seat from the bot that plays it",
    "`not_taken_over` (you play it already), `not_in_game` (you left) or `game_over`.",
    description=(
        "After too many timeouts in a row (or by a moderator's decision) a bot plays your "
        "seat, shown as `taken_over` in `players`. Take it back here, or simply act: any "
        "action of yours takes the seat back first."
    ),
)
class ReclaimView(_LobbyOperationView):
    operation = staticmethod(services.reclaim_seat)
