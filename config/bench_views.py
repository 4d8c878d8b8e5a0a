"""The load benchmark's baseline: the cheapest write a game action could possibly be.

``POST /bench/baseline/<game_id>/`` runs one transaction of exactly three statements: the game
row ``SELECT … FOR UPDATE``, one ``UPDATE`` of its version and one ``INSERT`` into the move log.
It is an ordinary DRF view with the project's default authentication (bearer token), permission
and throttle classes, behind the same middleware as the API, so ``bench/load.py`` can compare the
real action endpoint with it on the same server and say what the rules, the view, idempotency and
notifications cost on top of the unavoidable locking write.

Mounted by config/urls.py only when ``BENCH_BASELINE`` is true (bench/load.py sets it). It checks
no seat: any signed-in user may bump any game, so it must never be mounted on a real deployment.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.db import transaction
from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.errors import ServiceError
from games.models import Game, Move


class BaselineView(APIView):
    # The same throttle scope as the action endpoint: the throttle's cache round trip is part of
    # what both pay.
    throttle_scope = "actions"

    @extend_schema(exclude=True)
    def post(self, request: Request, game_id: UUID) -> Response:
        with transaction.atomic():
            locked = Game.objects.select_for_update().filter(pk=game_id)
            found = list(locked.values_list("version", flat=True))
            if not found:
                raise ServiceError("not_found", "No such game.", 404)
            version = found[0] + 1
            Game.objects.filter(pk=game_id).update(version=version)
            Move.objects.create(
                game_id=game_id, number=version, seat=None, action={"type": "baseline"}, events=[]
            )
        body: dict[str, Any] = {"version": version}
        return Response(body)
