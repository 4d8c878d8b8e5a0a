"""The action endpoint: one move of a player, checked by the game's adapter (in
``services.act``), applied at most once per Idempotency-Key, answered with the player's view."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.http import HttpResponse
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    extend_schema,
)
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config import error_codes as codes
from config.api_responses import standard_errors
from config.errors import ServiceError
from config.openapi import error_response
from games import selectors, services
from games.api import serializers as s
from games.api.views import (
    GAME_SERIALIZER,
    NO_GAME,
    RETRY_AFTER,
)
from games.idempotency import MAX_KEY_LENGTH, run_once
from games.kinds import registry as kinds
from games.kinds.shared import ExpectedVersionSerializer, RegistryUnion
from players.throttle_schema import AutoSchema


def _render_played(played: services.Played, request: Request) -> dict[str, Any]:
    """The answer to a move, from the seats and state it saved (no query)."""
    view = selectors.game_view(played.game, request.user, seats=played.seats, state=played.state)
    return GAME_SERIALIZER.to_representation(view)


# The one field every game's actions share, read before the game is: the rest of the body is
# checked once, by the game's adapter (games.kinds.registry.check_action, in services.act).
_EXPECTED_VERSION = ExpectedVersionSerializer()

ACTION_UNION = RegistryUnion(
    component_name="ActionRequest",
    # A dict, so the discriminator maps each `type` value to its component (from a list,
    # drf-spectacular would read the value off an unbound ChoiceField and map `null`).
    serializers=kinds.request_serializers,
    resource_type_field_name="type",
)


class ActionSchema(AutoSchema):
    def get_examples(self) -> list[OpenApiExample]:
        """Every registered game's action examples (its adapter's), read when the schema is
        built: a game registered after start-up (a test's) shows its own."""
        return kinds.action_examples()


class ActionView(APIView):
    throttle_scope = "actions"
    schema = ActionSchema()

    @extend_schema(
        operation_id="games_actions_create",
        summary="Take one action",
        description=(
            "The body is one action, discriminated by `type`, plus the `expected_version` you "
            "acted on. Send an `Idempotency-Key` header to make retries safe: a retry with the "
            "same key and body gets the first response again (with `Idempotent-Replayed: "
            "true`), errors included. Pick actions from `table.legal_actions` of the game view."
        ),
        request={"application/json": ACTION_UNION},
        parameters=[
            OpenApiParameter(
                "Idempotency-Key",
                {"type": "string", "minLength": 1, "maxLength": MAX_KEY_LENGTH},
                OpenApiParameter.HEADER,
                required=False,
                description="Any unique string (e.g. a UUID) per intended action, 1-128 chars.",
            ),
            OpenApiParameter(
                "Idempotent-Replayed",
                str,
                OpenApiParameter.HEADER,
                response=[200, 400, 404, 409, 422],
                enum=["true"],
                description="Present when this is the stored answer to an earlier request.",
            ),
            RETRY_AFTER,
        ],
        responses={
            200: s.GameSerializer,
            **standard_errors(
                {
                    400: error_response(
                        "`invalid_request` (details.fields), `invalid_action` (unknown `type` "
                        "or fields) or `invalid_idempotency_key`."
                    ),
                    404: NO_GAME,
                    409: error_response(
                        "`version_conflict` (details.current_version: reload and decide "
                        "again), `game_not_started`, `game_over` or `not_in_game`."
                    ),
                    422: error_response(
                        "The rules refuse the action: one of the rules' codes (listed below, "
                        "e.g. `not_your_turn`); or `idempotency_key_reused` (the key was used "
                        "with a different body) or `idempotency_key_other_url` (the key was "
                        "used for another game)."
                    ),
                },
                throttled=True,
            ),
        },
        tags=["games"],
    )
    def post(self, request: Request, game_id: UUID) -> HttpResponse:
        body = request.data if isinstance(request.data, dict) else None
        if body is None:
            raise ServiceError(codes.INVALID_REQUEST, "The body is a JSON object.")
        expected = _EXPECTED_VERSION.run_validation(body).get("expected_version")

        def work() -> tuple[int, dict[str, Any]]:
            played = services.act(
                user=request.user,
                game_id=game_id,
                action=body,
                expected_version=expected,
            )
            return 200, _render_played(played, request)

        key = request.headers.get("Idempotency-Key")
        if key is None:
            code, payload = work()
            return Response(payload, status=code)
        # The first answer and its replays are the same bytes: the rendered body is stored.
        # The key is bound to this URL (this game) and this body, each checked on its own.
        answer = run_once(
            user=request.user,
            key=key,
            target=f"{request.method} {request.path}",
            body=body,
            work=work,
        )
        sent = HttpResponse(answer.content, status=answer.status, content_type=answer.content_type)
        if answer.replayed:
            sent["Idempotent-Replayed"] = "true"
        return sent
