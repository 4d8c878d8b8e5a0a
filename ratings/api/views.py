"""The ratings API: leaderboards and player profiles (docs/api.md, "Ratings")."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config import error_codes as codes
from config.api_responses import standard_errors
from config.errors import ServiceError
from config.openapi import error_response
from games.engine import registry
from players import signals as player_signals
from players.models import User
from ratings import seasons, selectors
from ratings.api import serializers as s


class KindParameter(OpenApiParameter):
    """The ``kind`` path parameter, its enum read from the registry when the schema is built, not
    when this module is imported: a game registered later (``kinds.register``) is listed too."""

    @property  # type: ignore[override]
    def enum(self) -> list[str]:
        return registry.kinds()

    @enum.setter
    def enum(self, value: object) -> None:
        """``OpenApiParameter.__init__`` sets ``enum``; the registry's list is the only one."""


KIND_PARAMETER = KindParameter(
    "kind",
    OpenApiTypes.STR,
    OpenApiParameter.PATH,
    description="The game's kind, e.g. `uno_splash` (`games_options_retrieve`).",
)


class LeaderboardView(APIView):
    @extend_schema(
        operation_id="ratings_leaderboard_retrieve",
        summary="A game's leaderboard",
        description=(
            "The top 100 players of a game by shown rating, among those with at least 10 rated "
            "games, one of them in the last 30 days, and an account in good standing; and your "
            "own place (`you`), also outside the top 100."
        ),
        parameters=[KIND_PARAMETER],
        responses={
            200: s.LeaderboardSerializer,
            **standard_errors({404: error_response("`not_found`: no such game.")}, write=False),
        },
        tags=["ratings"],
    )
    def get(self, request: Request, kind: str) -> Response:
        if not selectors.known_kind(kind):
            raise ServiceError(codes.NOT_FOUND, "No such game.")
        return Response(s.LeaderboardSerializer(selectors.leaderboard(kind, request.user)).data)


class SeasonView(APIView):
    @extend_schema(
        operation_id="ratings_season_retrieve",
        summary="A game's season board for a month",
        description=(
            "The top 100 players of a game in a calendar month (UTC): rated games won that "
            "month, ties broken by the rating after each one's last rated game of it; accounts "
            "in good standing only. `month` is `YYYY-MM`, this month or an earlier one (from "
            "2000-01): last months' boards stay readable."
        ),
        parameters=[
            KIND_PARAMETER,
            OpenApiParameter(
                "month",
                OpenApiTypes.STR,
                OpenApiParameter.PATH,
                pattern=r"^\d{4}-\d{2}$",
                description="The month, `YYYY-MM` (e.g. `2026-12`).",
            ),
        ],
        responses={
            200: s.SeasonBoardSerializer,
            **standard_errors(
                {
                    404: error_response(
                        "`not_found`: no such game, or no such month (not `YYYY-MM`, "
                        "before 2000-01 or after this month)."
                    )
                },
                write=False,
            ),
        },
        tags=["ratings"],
    )
    def get(self, request: Request, kind: str, month: str) -> Response:
        if not selectors.known_kind(kind):
            raise ServiceError(codes.NOT_FOUND, "No such game.")
        start = seasons.parse_month(month)
        if start is None:
            raise ServiceError(codes.NOT_FOUND, "No such month: YYYY-MM, up to this one.")
        return Response(s.SeasonBoardSerializer(seasons.season_board(kind, start)).data)


class ProfileView(APIView):
    @extend_schema(
        operation_id="players_profile_retrieve",
        summary="A player's public profile",
        description=(
            "Display name, each game's rating (provisional or not) and its history, rated games "
            "played, wins, average place, the current winning streak and the latest rated games. "
            "A player who blocked you, or whom you blocked, is not found."
        ),
        responses={
            200: s.PublicProfileSerializer,
            **standard_errors(
                {404: error_response("`not_found`: no such player, or a block between you.")},
                write=False,
            ),
        },
        tags=["ratings"],
    )
    def get(self, request: Request, user_id: int) -> Response:
        # The route's <id:...> converter keeps the number inside the id column's range.
        player = User.objects.filter(pk=user_id).only("username", "display_name").first()
        if player is None:
            raise ServiceError(codes.NOT_FOUND, "No such player.")
        # Blocks are moderation's (a layer above): it refuses through the signal.
        player_signals.viewing_player.send(sender=User, viewer=request.user, player=player)
        return Response(s.PublicProfileSerializer(selectors.profile(player)).data)
