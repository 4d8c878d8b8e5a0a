"""The player's game-side settings under ``me/``: vacation (the turn clocks' pause) and
statistics. Mounted beside the players app's own ``me/`` routes, with the same URLs and operation
ids; they live here because clocks and results are the games app's."""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.openapi import error_response
from games import selectors, services
from games.api import serializers as s
from players.api.views import INVALID, NOT_AUTHENTICATED, READ_ONLY, signed_in_user
from players.models import User


def _vacation(user: User) -> dict[str, Any]:
    now = timezone.now()
    until = user.vacation_until if user.vacation_until and user.vacation_until > now else None
    left = services.vacation_left(user=user, now=now)
    return {"on_vacation_until": until, "days_left": round(left.total_seconds() / 86400, 3)}


VACATION_CONFLICT = error_response(
    "`already_on_vacation`, `not_on_vacation` or `vacation_bank_exhausted` (details.days_left)."
)


class MeVacationView(APIView):
    """Pause all my turn clocks for a while, from a monthly bank of days."""

    @extend_schema(
        operation_id="me_vacation_retrieve",
        summary="My vacation and the days left this month",
        responses={200: s.VacationSerializer, 401: NOT_AUTHENTICATED},
        tags=["me"],
    )
    def get(self, request: Request) -> Response:
        return Response(s.VacationSerializer(_vacation(signed_in_user(request))).data)

    @extend_schema(
        operation_id="me_vacation_start",
        summary="Go on vacation: my turn clocks stand still",
        description=(
            "Running turns of yours get their deadline pushed back by the vacation; turns that "
            "reach you meanwhile start counting when it ends. Taken from a monthly bank "
            "(VACATION_DAYS_PER_MONTH, default 7 days)."
        ),
        request={"application/json": s.VacationRequestSerializer},
        responses={
            200: s.VacationSerializer,
            400: INVALID,
            401: NOT_AUTHENTICATED,
            403: READ_ONLY,
            409: VACATION_CONFLICT,
        },
        tags=["me"],
    )
    def post(self, request: Request) -> Response:
        ser = s.VacationRequestSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        user = services.start_vacation(
            user=signed_in_user(request), days=ser.validated_data["days"]
        )
        return Response(s.VacationSerializer(_vacation(user)).data)

    @extend_schema(
        operation_id="me_vacation_end",
        summary="Come back early",
        description="Unused vacation returns to the bank; turns waiting for you get a full clock.",
        request=None,
        responses={
            200: s.VacationSerializer,
            401: NOT_AUTHENTICATED,
            403: READ_ONLY,
            409: VACATION_CONFLICT,
        },
        tags=["me"],
    )
    def delete(self, request: Request) -> Response:
        user = services.end_vacation(user=signed_in_user(request))
        return Response(s.VacationSerializer(_vacation(user)).data)


class MeStatsView(APIView):
    @extend_schema(
        operation_id="me_stats_retrieve",
        summary="My statistics",
        responses={200: s.PlayerStatsSerializer, 401: NOT_AUTHENTICATED},
        tags=["me"],
    )
    def get(self, request: Request) -> Response:
        return Response(
            s.PlayerStatsSerializer(selectors.player_stats(signed_in_user(request))).data
        )
