"""Reports and blocks for players: thin views; changes in moderation.services, reads in
moderation.selectors. Reporting is throttled (THROTTLE_REPORTS)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api_responses import (
    NOT_AUTHENTICATED,
    READ_ONLY,
    RETRY_AFTER,
    THROTTLED,
    standard_errors,
)
from config.openapi import error_response
from moderation import chat, selectors, services
from moderation.api import serializers as s
from players.api.views import signed_in_user
from players.oauth import AppRateThrottle
from players.throttles import AuthRateThrottle, ScopeThrottled

# A report's answer: a new one (201), or merged into the reporter's open one about the player.
REPORTED = {
    201: s.ReportSerializer,
    200: OpenApiResponse(s.ReportSerializer, description="Merged into your open report."),
}


def _reported(report: Any, merged: bool) -> Response:
    code = status.HTTP_200_OK if merged else status.HTTP_201_CREATED
    return Response(s.ReportSerializer(report).data, status=code)


class ReportListView(ScopeThrottled, APIView):
    throttle_scope = "reports"

    @extend_schema(
        operation_id="reports_list",
        summary="My reports and their status",
        description="Newest first. The status says whether a moderator has closed a report.",
        responses={200: s.ReportSerializer(many=True), 401: NOT_AUTHENTICATED},
        tags=["moderation"],
    )
    def get(self, request: Request) -> Response:
        reports = selectors.reports_by(signed_in_user(request))
        return Response(s.ReportSerializer(reports, many=True).data)

    @extend_schema(
        operation_id="reports_create",
        summary="Report a player to the moderators",
        description=(
            "Reasons: `offensive_name`, `cheating` (or collusion), `stalling` (or abandoning "
            "games), `other`. With `game_id`, a game you both sat in. Reporting the same player "
            "again while your report is open adds to it: the answer is then 200 with the merged "
            "report instead of 201. Throttled (THROTTLE_REPORTS)."
        ),
        request={"application/json": s.ReportCreateSerializer},
        responses={
            **REPORTED,
            400: error_response(
                "`invalid_request`, `cannot_report_yourself` or `player_not_in_game` (the "
                "reported player has no seat in `game_id`)."
            ),
            401: NOT_AUTHENTICATED,
            403: READ_ONLY,
            404: error_response("`not_found`: no such player, or a game you did not play."),
            429: THROTTLED,
        },
        parameters=[RETRY_AFTER],
        examples=[
            OpenApiExample(
                "Report a stalling player",
                request_only=True,
                value={
                    "player_id": 42,
                    "reason": "stalling",
                    "details": "Lets every turn run out when losing.",
                    "game_id": "0b8f6c1e-4d3a-4c55-9a59-0d6f2a1e7c11",
                },
            )
        ],
        tags=["moderation"],
    )
    def post(self, request: Request) -> Response:
        ser = s.ReportCreateSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        data = ser.validated_data
        report, merged = services.file_report(
            reporter=signed_in_user(request),
            player_id=data["player_id"],
            reason=data["reason"],
            details=data["details"],
            game_id=data["game_id"],
        )
        return _reported(report, merged)


class ChatReportView(APIView):
    throttle_classes = [AuthRateThrottle, AppRateThrottle]
    throttle_scope = "reports"

    @extend_schema(
        operation_id="chat_messages_report_create",
        summary="Report a chat message to the moderators",
        description=(
            "A message you can read (not your own). Its author is reported, and the report "
            "carries the message with the 20 messages around it into the moderators' queue. "
            "Like `reports_create`: merged into your open report about the author (200) or a "
            "new one (201). Throttled (THROTTLE_REPORTS)."
        ),
        request={"application/json": s.ChatReportSerializer},
        responses={
            **REPORTED,
            400: error_response("`invalid_request` or `cannot_report_yourself`."),
            401: NOT_AUTHENTICATED,
            403: READ_ONLY,
            404: error_response("`not_found`: no such message, or not one you can read."),
            429: THROTTLED,
        },
        parameters=[RETRY_AFTER],
        tags=["chat"],
    )
    def post(self, request: Request, message_id: int) -> Response:
        ser = s.ChatReportSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        report, merged = chat.report_message(
            reporter=signed_in_user(request),
            message_id=message_id,
            details=ser.validated_data["details"],
        )
        return _reported(report, merged)


class BlockListView(APIView):
    @extend_schema(
        operation_id="blocks_list",
        summary="Players I blocked",
        responses={200: s.BlockSerializer(many=True), 401: NOT_AUTHENTICATED},
        tags=["moderation"],
    )
    def get(self, request: Request) -> Response:
        return Response(
            s.BlockSerializer(selectors.blocks_of(signed_in_user(request)), many=True).data
        )

    @extend_schema(
        operation_id="blocks_create",
        summary="Block a player: they cannot join my private games",
        description=(
            "A blocked player cannot join a private game (by invite code or rematch) in which "
            "you have a seat. They are not told who blocked them. Blocking again is harmless: "
            "200 instead of 201."
        ),
        request={"application/json": s.BlockCreateSerializer},
        responses={
            201: s.BlockSerializer,
            200: OpenApiResponse(s.BlockSerializer, description="Already blocked."),
            400: error_response("`invalid_request` or `cannot_block_yourself`."),
            401: NOT_AUTHENTICATED,
            403: READ_ONLY,
            404: error_response("`not_found`: no such player."),
        },
        tags=["moderation"],
    )
    def post(self, request: Request) -> Response:
        ser = s.BlockCreateSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        block, new = services.block(
            user=signed_in_user(request), player_id=ser.validated_data["player_id"]
        )
        code = status.HTTP_201_CREATED if new else status.HTTP_200_OK
        return Response(s.BlockSerializer(block).data, status=code)


class BlockDetailView(APIView):
    @extend_schema(
        operation_id="blocks_destroy",
        summary="Unblock a player",
        request=None,
        responses={
            204: OpenApiResponse(description="Unblocked."),
            **standard_errors(
                {404: error_response("`not_found`: you have not blocked this player.")}
            ),
        },
        tags=["moderation"],
    )
    def delete(self, request: Request, player_id: int) -> Response:
        services.unblock(user=signed_in_user(request), player_id=player_id)
        return Response(status=status.HTTP_204_NO_CONTENT)
