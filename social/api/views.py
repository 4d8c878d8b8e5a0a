"""The social API: following, friends with presence, player search, challenges. Thin: each view
checks the request's shape, calls a service or selector, and renders its answer. Every object
is looked up through the caller (``selectors.challenge_of``), so nobody reaches another's."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api_responses import INVALID, NOT_AUTHENTICATED, READ_ONLY, RETRY_AFTER, standard_errors
from config.openapi import error_response
from games import selectors as game_selectors
from games.api.serializers import GameSerializer
from players.api.views import signed_in_user
from players.oauth import AppRateThrottle
from players.throttles import AuthRateThrottle, ScopeThrottled
from social import selectors, services
from social.api import serializers as s

NO_PLAYER = error_response("`not_found`: no such player.")
NO_CHALLENGE = error_response("`not_found`: no such challenge, or not yours.")
CLOSED = error_response("`challenge_closed`: the challenge was answered, withdrawn or has expired.")

_FRIENDS = s.FriendSerializer(many=True)
_FOLLOWING = s.FollowedSerializer(many=True)
_RESULTS = s.SearchResultSerializer(many=True)
_GAME = GameSerializer()


class FollowingView(APIView):
    @extend_schema(
        operation_id="me_following_list",
        summary="The players I follow",
        description="Newest first; `friend` when they follow back. Blocked players are left out.",
        responses={200: s.FollowedSerializer(many=True), 401: NOT_AUTHENTICATED},
        tags=["social"],
    )
    def get(self, request: Request) -> Response:
        return Response(
            _FOLLOWING.to_representation(selectors.following(user=signed_in_user(request)))
        )

    @extend_schema(
        operation_id="me_following_create",
        summary="Follow a player",
        description=(
            "Following again changes nothing. Mutual follows are friends. The player hears of a "
            "first follow (notification kind `followed`)."
        ),
        request={"application/json": s.PlayerRequestSerializer},
        responses={
            200: s.FollowResultSerializer,
            **standard_errors(
                {
                    400: error_response(
                        "`invalid_request` (details.fields) or `cannot_follow_self`."
                    ),
                    403: error_response(
                        "`follow_refused` (a block, either way), or `permission_denied`."
                    ),
                    404: NO_PLAYER,
                },
                write=False,
            ),
        },
        tags=["social"],
    )
    def post(self, request: Request) -> Response:
        ser = s.PlayerRequestSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        other = services.player_named(ser.validated_data["username"])
        friend = services.follow(user=signed_in_user(request), other=other)
        return Response(s.FollowResultSerializer({"player": other, "friend": friend}).data)


class FollowingDetailView(APIView):
    @extend_schema(
        operation_id="me_following_destroy",
        summary="Stop following a player",
        request=None,
        responses={204: None, 401: NOT_AUTHENTICATED, 403: READ_ONLY, 404: NO_PLAYER},
        tags=["social"],
    )
    def delete(self, request: Request, username: str) -> Response:
        services.unfollow(user=signed_in_user(request), other=services.player_named(username))
        return Response(status=status.HTTP_204_NO_CONTENT)


class FriendsView(APIView):
    @extend_schema(
        operation_id="me_friends_list",
        summary="My friends (mutual follows) and their presence",
        description=(
            "Online ones first, then by name. `presence.status` is `online` (a request in the "
            "last 5 minutes), `offline` with the day last seen, or `hidden`."
        ),
        responses={200: s.FriendSerializer(many=True), 401: NOT_AUTHENTICATED},
        tags=["social"],
    )
    def get(self, request: Request) -> Response:
        return Response(_FRIENDS.to_representation(selectors.friends(user=signed_in_user(request))))


class SocialSettingsView(APIView):
    @extend_schema(
        operation_id="me_social_retrieve",
        summary="My presence and challenge settings",
        responses={200: s.SocialSettingsSerializer, 401: NOT_AUTHENTICATED},
        tags=["social"],
    )
    def get(self, request: Request) -> Response:
        return Response(
            s.SocialSettingsSerializer(services.profile_of(signed_in_user(request))).data
        )

    @extend_schema(
        operation_id="me_social_update",
        summary="Hide my presence, choose who may challenge me",
        request={"application/json": s.SocialSettingsSerializer},
        responses={200: s.SocialSettingsSerializer, **standard_errors({400: INVALID})},
        tags=["social"],
    )
    def patch(self, request: Request) -> Response:
        ser = s.SocialSettingsSerializer(data=request.data, partial=True)
        ser.is_valid(raise_exception=True)
        profile = services.update_settings(user=signed_in_user(request), **ser.validated_data)
        return Response(s.SocialSettingsSerializer(profile).data)


class PlayerSearchView(APIView):
    throttle_classes = [AuthRateThrottle, AppRateThrottle]
    throttle_scope = "search"

    @extend_schema(
        operation_id="players_search",
        summary="Find players by display name",
        description=(
            "Names starting with `q`, ignoring case and accents (`sor` finds Søren); at most 20, "
            "by name. Never yourself, nor a player blocked either way. Rate-limited "
            "(THROTTLE_SEARCH)."
        ),
        parameters=[
            OpenApiParameter("q", str, required=True, description="The start of a name."),
            RETRY_AFTER,
        ],
        responses={
            200: s.SearchResultSerializer(many=True),
            **standard_errors({400: INVALID}, write=False, throttled=True),
        },
        tags=["social"],
    )
    def get(self, request: Request) -> Response:
        ser = s.SearchQuerySerializer(data=request.query_params)
        ser.is_valid(raise_exception=True)
        me = signed_in_user(request)
        found = selectors.search_players(user=me, query=ser.validated_data["q"])
        followed = selectors.followed_among(user=me, others=found)
        rows = [{"user": user, "following": user.pk in followed} for user in found]
        return Response(_RESULTS.to_representation(rows))


def _challenges(request: Request) -> list[dict[str, Any]]:
    me = signed_in_user(request)
    return [s.challenge_row(c, me) for c in selectors.challenges(user=me)]


class ChallengesView(ScopeThrottled, APIView):
    # Sending one notifies somebody else: the games allowance, as creating a game. Listing is free.
    throttle_scope = "games"

    @extend_schema(
        operation_id="challenges_list",
        summary="My pending challenges, sent and received",
        responses={200: s.ChallengeSerializer(many=True), 401: NOT_AUTHENTICATED},
        tags=["social"],
    )
    def get(self, request: Request) -> Response:
        return Response(s.ChallengeSerializer(_challenges(request), many=True).data)

    @extend_schema(
        operation_id="challenges_create",
        summary="Challenge a player to a two-player game",
        description=(
            "The game's settings are those of `games_create` (two seats, private). Your seat is "
            "taken at once; the player is notified (kind `challenged`) and accepts or declines "
            "before CHALLENGE_TTL_SECONDS. They choose who may challenge them."
        ),
        request={"application/json": s.ChallengeRequestSerializer},
        parameters=[RETRY_AFTER],
        responses={
            201: s.ChallengeSerializer,
            **standard_errors(
                {
                    400: error_response(
                        "`invalid_request` (details.fields), `invalid_setup` or "
                        "`cannot_challenge_self`."
                    ),
                    403: error_response(
                        "`challenge_refused` (the player takes no challenges from you, or a "
                        "block), or `permission_denied`."
                    ),
                    404: NO_PLAYER,
                    409: error_response(
                        "`already_challenged` or `too_many_games` (details.limit)."
                    ),
                },
                write=False,
                throttled=True,
            ),
        },
        tags=["social"],
    )
    def post(self, request: Request) -> Response:
        ser = s.ChallengeRequestSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        options = dict(ser.validated_data)
        other = services.player_named(options.pop("username"))
        challenge = services.send_challenge(
            challenger=signed_in_user(request), challenged=other, **options
        )
        row = s.challenge_row(challenge, signed_in_user(request))
        return Response(s.ChallengeSerializer(row).data, status=status.HTTP_201_CREATED)


class ChallengeAcceptView(APIView):
    throttle_scope = "games"

    @extend_schema(
        operation_id="challenges_accept",
        summary="Accept a challenge: the game starts",
        request=None,
        parameters=[RETRY_AFTER],
        responses={
            200: GameSerializer,
            **standard_errors(
                {
                    403: error_response(
                        "`not_challenged` (you sent it), `challenge_refused` (a block), or "
                        "`permission_denied`."
                    ),
                    404: NO_CHALLENGE,
                    409: error_response(
                        "`challenge_closed`, `too_many_games`, or the lobby is no longer open "
                        "(`game_already_started`, `game_full`)."
                    ),
                },
                write=False,
                throttled=True,
            ),
        },
        tags=["social"],
    )
    def post(self, request: Request, challenge_id: int) -> Response:
        me = signed_in_user(request)
        game = services.accept_challenge(user=me, challenge_id=challenge_id)
        return Response(_GAME.to_representation(game_selectors.game_view(game, me)))


class ChallengeDeclineView(APIView):
    @extend_schema(
        operation_id="challenges_decline",
        summary="Decline a challenge (or withdraw one you sent)",
        description="The challenge's lobby closes.",
        request=None,
        responses={200: s.ChallengeSerializer, **standard_errors({404: NO_CHALLENGE, 409: CLOSED})},
        tags=["social"],
    )
    def post(self, request: Request, challenge_id: int) -> Response:
        me = signed_in_user(request)
        challenge = services.decline_challenge(user=me, challenge_id=challenge_id)
        return Response(s.ChallengeSerializer(s.challenge_row(challenge, me)).data)
