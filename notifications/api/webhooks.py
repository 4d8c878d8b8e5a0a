"""The webhooks API: a player's endpoints, a test event, and each endpoint's delivery log.

What an endpoint receives is the ``WebhookEvent`` component of the schema (the test call's
answer carries one), signed as docs/notifications.md ("Webhooks") describes.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config import query
from config.api_responses import (
    NOT_AUTHENTICATED,
    READ_ONLY,
    RETRY_AFTER,
    standard_errors,
)
from config.attributes import attributes_of
from config.fields import StrictBooleanField, StrictCharField, StrictIntegerField
from config.openapi import error_response
from config.serializers import StrictSerializer
from notifications import data, kinds
from notifications.channels import webhook
from notifications.models import WebhookAttempt, WebhookDelivery, WebhookEndpoint
from players.api.views import signed_in_user
from players.throttles import ScopeThrottled

TAGS = ["notifications"]


INVALID = error_response("`invalid_request`: a field or parameter is malformed (details.fields).")
NO_WEBHOOK = error_response("`not_found`: no such webhook of yours.")


# ---------------------------------------------------------------------------------------------
# Shapes


class WebhookSerializer(serializers.Serializer):
    id = StrictIntegerField(help_text="Sent as `X-Uno-Webhook-Id`.")
    url = serializers.URLField()
    description = StrictCharField()
    kinds = serializers.ListField(
        child=serializers.ChoiceField(choices=list(kinds.KINDS)),
        help_text="Only these kinds are sent (test events always are); empty: every kind.",
    )
    token_id = StrictIntegerField(
        allow_null=True,
        help_text="The API token it is bound to: it stops when that token is revoked or expires.",
    )
    active = StrictBooleanField(
        help_text="Off: nothing is sent. Switched off by its owner, by a 410 answer, or after "
        "WEBHOOK_MAX_FAILURES failed requests in a row."
    )
    failure_count = StrictIntegerField(help_text="Failed requests in a row.")
    disabled_at = serializers.DateTimeField(allow_null=True)
    disabled_reason = StrictCharField(help_text="Why it is off (empty while on).")
    secret_prefix = StrictCharField(
        help_text="The first characters of the signing secret, to tell secrets apart."
    )
    created_at = serializers.DateTimeField()
    last_success_at = serializers.DateTimeField(allow_null=True)
    last_failure_at = serializers.DateTimeField(allow_null=True)


class WebhookCreatedSerializer(WebhookSerializer):
    secret = StrictCharField(
        help_text="The HMAC-SHA256 key of `X-Uno-Signature`. Shown only now: keep it."
    )


class WebhookCreateSerializer(StrictSerializer):
    url = serializers.URLField(
        max_length=2000,
        help_text="http(s), on a public address (not loopback, private or reserved).",
    )
    description = StrictCharField(max_length=100, required=False, default="", allow_blank=True)
    kinds = serializers.ListField(
        child=serializers.ChoiceField(choices=list(kinds.KINDS)),
        required=False,
        default=list,
        help_text="Only these kinds; empty or absent: every kind your preferences send.",
    )
    token_id = StrictIntegerField(
        required=False,
        allow_null=True,
        help_text="Bind it to one of your live API tokens (e.g. the app's own).",
    )


class WebhookUpdateSerializer(StrictSerializer):
    active = StrictBooleanField(
        required=False, help_text="true switches it back on and forgets past failures."
    )
    description = StrictCharField(max_length=100, required=False, allow_blank=True)
    kinds = serializers.ListField(
        child=serializers.ChoiceField(choices=list(kinds.KINDS)), required=False
    )


class WebhookEventItemSerializer(serializers.Serializer):
    event_id = serializers.UUIDField(help_text="The notification's own event id.")
    kind = serializers.ChoiceField(choices=list(kinds.KINDS))
    game_id = serializers.UUIDField(allow_null=True)
    data = serializers.DictField(help_text="The facts of the notification; depends on `kind`.")
    created_at = serializers.DateTimeField()
    title = StrictCharField()
    body = StrictCharField()
    url = serializers.URLField()


# One shape per kind in the schema, its `data` typed (notifications/data.py).
WebhookEventItemByKind = data.by_kind(
    WebhookEventItemSerializer, "WebhookEventItem", lambda: kinds.KINDS
)


class WebhookEventSerializer(serializers.Serializer):
    """The JSON body POSTed to a webhook endpoint."""

    type = serializers.ChoiceField(
        choices=WebhookDelivery.TYPES,
        help_text="`notification`, or `test` for the test event.",
    )
    event_id = serializers.UUIDField(
        help_text="Also `X-Uno-Event-Id`; the same on every retry: drop ids you have seen."
    )
    kind = StrictCharField(help_text="A notification kind (`your_turn`, `caught`, …), or `test`.")
    user_id = StrictIntegerField(help_text="The player it is for (the endpoint's owner).")
    language = StrictCharField(help_text="The language of `title` and `body`.")
    title = StrictCharField()
    body = StrictCharField()
    url = serializers.URLField(help_text="Where the web client shows it.")
    collapsed = StrictBooleanField(help_text="Always false for webhooks.")
    items = WebhookEventItemSerializer(
        many=True, help_text="The notification (one item); empty for a test event."
    )


class WebhookTestSerializer(serializers.Serializer):
    event_id = serializers.UUIDField()
    payload = WebhookEventSerializer(help_text="The body that is being sent.")


class WebhookAttemptSerializer(serializers.Serializer):
    id = StrictIntegerField(help_text="Use as `before` to page to older entries.")
    event_id = serializers.UUIDField()
    type = serializers.ChoiceField(choices=WebhookDelivery.TYPES)
    kind = StrictCharField()
    attempt = StrictIntegerField(help_text="1 for the first try of this event.")
    ok = StrictBooleanField(help_text="A 2xx answer.")
    status_code = StrictIntegerField(allow_null=True, help_text="Null: no answer.")
    duration_ms = StrictIntegerField()
    error = StrictCharField(help_text="Why it failed (empty when ok).")
    at = serializers.DateTimeField()


class WebhookAttemptPageSerializer(serializers.Serializer):
    results = WebhookAttemptSerializer(many=True)
    has_more = StrictBooleanField()
    next_before = StrictIntegerField(allow_null=True)


def _present(endpoint: WebhookEndpoint) -> dict[str, Any]:
    return {
        **attributes_of(
            endpoint,
            "pk url description kinds token_id active failure_count disabled_at disabled_reason",
            keys={"pk": "id"},
        ),
        "secret_prefix": endpoint.secret[: len(webhook.SECRET_PREFIX) + 4],
        **attributes_of(endpoint, "created_at last_success_at last_failure_at"),
    }


def _present_attempt(attempt: WebhookAttempt) -> dict[str, Any]:
    return {
        "id": attempt.pk,
        "event_id": attempt.delivery.event_id,
        "type": attempt.delivery.type,
        "kind": attempt.delivery.kind,
        "attempt": attempt.attempt,
        "ok": attempt.ok,
        "status_code": attempt.status_code,
        "duration_ms": attempt.duration_ms,
        "error": attempt.error,
        "at": attempt.at,
    }


CREATE_EXAMPLE = OpenApiExample(
    "Your turns to my app's server",
    request_only=True,
    value={
        "url": "https://bot.example.com/uno/webhook",
        "description": "My turn bot",
        "kinds": ["your_turn", "reminder"],
    },
)


class WebhookThrottled(ScopeThrottled):
    throttle_scope = "webhooks"


# ---------------------------------------------------------------------------------------------
# Views


class WebhookListView(WebhookThrottled, APIView):
    @extend_schema(
        operation_id="notifications_webhooks_list",
        summary="My webhooks",
        description="Oldest first. Secrets are never shown again, only their first characters.",
        responses={200: WebhookSerializer(many=True), 401: NOT_AUTHENTICATED},
        tags=TAGS,
    )
    def get(self, request: Request) -> Response:
        endpoints = webhook.endpoints_of(signed_in_user(request))
        return Response(WebhookSerializer([_present(e) for e in endpoints], many=True).data)

    @extend_schema(
        operation_id="notifications_webhooks_create",
        summary="Have my notifications POSTed to a URL",
        description=(
            "Every notification your preferences send on the `webhook` channel (and that "
            "`kinds` lets through) is POSTed to `url` as a `WebhookEvent`, signed with the "
            "`secret` in this answer, which is not shown again. At most 10 per player. "
            "Throttled (THROTTLE_WEBHOOKS)."
        ),
        request={"application/json": WebhookCreateSerializer},
        responses={
            201: WebhookCreatedSerializer,
            **standard_errors(
                {
                    400: error_response(
                        "`invalid_request`: a malformed field, a URL that is not http(s) or "
                        "points at a loopback, private or reserved address, or a `token_id` that "
                        "is not one of your live tokens (details.fields)."
                    ),
                    409: error_response("`too_many_webhooks`: delete one first."),
                },
                throttled=True,
            ),
        },
        parameters=[RETRY_AFTER],
        examples=[CREATE_EXAMPLE],
        tags=TAGS,
    )
    def post(self, request: Request) -> Response:
        ser = WebhookCreateSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        data = ser.validated_data
        endpoint = webhook.create_endpoint(
            user=signed_in_user(request),
            url=data["url"],
            description=data["description"],
            kinds=data["kinds"],
            token_id=data.get("token_id"),
        )
        body = {**_present(endpoint), "secret": endpoint.secret}
        return Response(WebhookCreatedSerializer(body).data, status=201)


class WebhookView(APIView):
    @extend_schema(
        operation_id="notifications_webhooks_retrieve",
        summary="One of my webhooks",
        responses={200: WebhookSerializer, 401: NOT_AUTHENTICATED, 404: NO_WEBHOOK},
        tags=TAGS,
    )
    def get(self, request: Request, webhook_id: int) -> Response:
        return Response(
            WebhookSerializer(
                _present(webhook.endpoint_of(signed_in_user(request), webhook_id))
            ).data
        )

    @extend_schema(
        operation_id="notifications_webhooks_partial_update",
        summary="Switch a webhook on or off, or change its kinds",
        description="`active: true` switches a webhook that was switched off back on.",
        request={"application/json": WebhookUpdateSerializer},
        responses={200: WebhookSerializer, **standard_errors({400: INVALID, 404: NO_WEBHOOK})},
        tags=TAGS,
    )
    def patch(self, request: Request, webhook_id: int) -> Response:
        endpoint = webhook.endpoint_of(signed_in_user(request), webhook_id)
        ser = WebhookUpdateSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        endpoint = webhook.update_endpoint(endpoint, **ser.validated_data)
        return Response(WebhookSerializer(_present(endpoint)).data)

    @extend_schema(
        operation_id="notifications_webhooks_destroy",
        summary="Delete a webhook",
        description="Nothing more is sent to it, retries included; its delivery log goes too.",
        responses={204: None, 401: NOT_AUTHENTICATED, 403: READ_ONLY, 404: NO_WEBHOOK},
        tags=TAGS,
    )
    def delete(self, request: Request, webhook_id: int) -> Response:
        webhook.endpoint_of(signed_in_user(request), webhook_id).delete()
        return Response(status=204)


class WebhookTestView(WebhookThrottled, APIView):
    @extend_schema(
        operation_id="notifications_webhooks_test",
        summary="Send a test event to a webhook",
        description=(
            "Queues a `test` event (`type` and `kind` are `test`, no items), sent right away "
            "and retried like a notification while the receiver fails; see the delivery log. "
            "Also sent (once, without retries) to a webhook that is switched off, to try a fix. "
            "The answer has the body being sent: the `WebhookEvent` every delivery has. "
            "Throttled (THROTTLE_WEBHOOKS)."
        ),
        request=None,
        responses={
            202: WebhookTestSerializer,
            **standard_errors({404: NO_WEBHOOK}, throttled=True),
        },
        parameters=[RETRY_AFTER],
        tags=TAGS,
    )
    def post(self, request: Request, webhook_id: int) -> Response:
        endpoint = webhook.endpoint_of(signed_in_user(request), webhook_id)
        delivery = webhook.queue_test_event(endpoint)
        body = {"event_id": delivery.event_id, "payload": delivery.payload}
        return Response(WebhookTestSerializer(body).data, status=202)


class WebhookAttemptsView(APIView):
    @extend_schema(
        operation_id="notifications_webhooks_attempts_list",
        summary="A webhook's delivery log",
        description=(
            "Every request sent to the webhook, newest first: the event, which try, the answer "
            "and how long it took. Page with `before` set to the previous page's `next_before`."
        ),
        parameters=[
            query.integer_parameter(
                "before", 1, query.MAX_ID, "Only entries older than this id (a cursor)."
            ),
            query.integer_parameter("limit", 1, 100, "Page size (default 50).", default=50),
        ],
        responses={
            200: WebhookAttemptPageSerializer,
            **standard_errors({400: INVALID, 404: NO_WEBHOOK}, write=False),
        },
        tags=TAGS,
    )
    def get(self, request: Request, webhook_id: int) -> Response:
        endpoint = webhook.endpoint_of(signed_in_user(request), webhook_id)
        before = query.integer(request, "before", None, 1, query.MAX_ID)
        limit = query.integer(request, "limit", 50, 1, 100)
        assert limit is not None
        page, has_more = webhook.attempts_page(endpoint, before=before, limit=limit)
        data = {
            "results": [_present_attempt(a) for a in page],
            "has_more": has_more,
            "next_before": page[-1].pk if has_more and page else None,
        }
        return Response(WebhookAttemptPageSerializer(data).data)
