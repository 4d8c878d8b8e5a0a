"""The player's game-side settings under ``me/``: vacation (the turn clocks' pause) and
statistics. Mounted beside the players app's own ``me/`` routes, with the same URLs and operation
ids; they live here because clocks and results are the games app's."""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import Serializer
from rest_framework.views import APIView

from config.api_responses import INVALID, NOT_AUTHENTICATED, READ_ONLY
from config.openapi import error_response
from games import selectors, services
from games.api import serializers as s
from players.api.views import signed_in_user
from players.models import User


def _vacation(user: User) -> dict[str, Any]:
    now = timezone.now()
    until = user.vacation_until if user.vacation_until and user.vacation_until > now else None
    left = services.vacation_left(user=user, now=now)
    return {"on_vacation_until": until, "days_left": round(left.total_seconds() / 86400, 3)}


VACATION_CONFLICT = error_response(
    "`already_on_vacation`, `not_on_vacation` or `vacation_bank_exhausted` (details.days_left)."
)


def _me_operation(
    operation_id: str,
    summary: str,
    *,
    answer: type[Serializer] = s.VacationSerializer,
    changes: bool = False,
    **schema: Any,
) -> Any:
    """The schema of a ``me/`` operation: the player's own ``answer``, 401 signed out; one that
    ``changes`` the vacation is refused to a read token (403) and in the wrong state (409)."""
    refusals = {403: READ_ONLY, 409: VACATION_CONFLICT} if changes else {}
    # 400 (an invalid request body) only for an operation that reads one.
    invalid = {400: INVALID} if schema.get("request") else {}
    return extend_schema(
        operation_id=operation_id,
        summary=summary,
        responses={200: answer, **invalid, 401: NOT_AUTHENTICATED, **refusals},
        tags=["me"],
        **schema,
    )


class MeVacationView(APIView):
    """Pause all my turn clocks for a while, from a monthly bank of days."""

    @_me_operation("me_vacation_retrieve", "My vacation and the days left this month")
    def get(self, request: Request) -> Response:
        return Response(s.VacationSerializer(_vacation(signed_in_user(request))).data)

    @_me_operation(
        "me_vacation_start",
        "Go on vacation: my turn clocks stand still",
        changes=True,
        description=(
            "Running turns of yours get their deadline pushed back by the vacation; turns that "
            "reach you meanwhile start counting when it ends. Taken from a monthly bank "
            "(VACATION_DAYS_PER_MONTH, default 7 days)."
        ),
        request={"application/json": s.VacationRequestSerializer},
    )
    def post(self, request: Request) -> Response:
        ser = s.VacationRequestSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        user = services.start_vacation(
            user=signed_in_user(request), days=ser.validated_data["days"]
        )
        return Response(s.VacationSerializer(_vacation(user)).data)

    @_me_operation(
        "me_vacation_end",
        "Come back early",
        changes=True,
        description="Unused vacation returns to the bank; turns waiting for you get a full clock.",
        request=None,
    )
    def delete(self, request: Request) -> Response:
        user = services.end_vacation(user=signed_in_user(request))
        return Response(s.VacationSerializer(_vacation(user)).data)


class MeStatsView(APIView):
    @_me_operation("me_stats_retrieve", "My statistics", answer=s.PlayerStatsSerializer)
    def get(self, request: Request) -> Response:
        return Response(
            s.PlayerStatsSerializer(selectors.player_stats(signed_in_user(request))).data
        )
