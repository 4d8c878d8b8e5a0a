"""The Web Push API: the server's VAPID key, and saving or forgetting a browser's subscription.

The web client (web/static/web/push.js) reads the key, subscribes with it, and POSTs the
browser's ``PushSubscription.toJSON()``; a 404 on the key means this server offers no Web Push.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config import error_codes as codes
from config.api_responses import NOT_AUTHENTICATED, READ_ONLY, standard_errors
from config.attributes import attributes_of
from config.errors import ServiceError
from config.fields import StrictCharField, StrictIntegerField
from config.openapi import error_response
from config.serializers import StrictSerializer
from notifications import vapid
from notifications.channels import webpush
from notifications.channels.addresses import AddressNotAllowed
from notifications.models import PushSubscription
from players.api.views import signed_in_user

TAGS = ["notifications"]


UNAVAILABLE = error_response(
    "`push_unavailable`: this server has no VAPID key, so it offers no Web Push; hide it."
)


def _keys() -> vapid.VapidKeys:
    keys = vapid.current()
    if keys is None:
        raise ServiceError(codes.PUSH_UNAVAILABLE, "Web Push is not available on this server.")
    return keys


class PushKeySerializer(serializers.Serializer):
    public_key = StrictCharField(
        help_text=(
            "The VAPID public key (RFC 8292): base64url, no padding, of the uncompressed P-256 "
            "point. Pass it, decoded, as `applicationServerKey` to `pushManager.subscribe()`."
        )
    )


class PushKeysSerializer(StrictSerializer):
    p256dh = StrictCharField(max_length=200, help_text="The browser's P-256 public key, base64url.")
    auth = StrictCharField(max_length=100, help_text="The 16-byte auth secret, base64url.")


class PushSubscriptionRequestSerializer(StrictSerializer):
    endpoint = serializers.URLField(
        max_length=2000, help_text="The push service URL of this browser's subscription."
    )
    expirationTime = StrictIntegerField(  # noqa: N815  (the browser's own field name)
        required=False,
        allow_null=True,
        help_text="From `PushSubscription.toJSON()`; ignored.",
    )
    keys = PushKeysSerializer()

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        errors: dict[str, Any] = {}
        key_errors = webpush.check_keys(attrs["keys"]["p256dh"], attrs["keys"]["auth"])
        if key_errors:
            errors["keys"] = {name: [message] for name, message in key_errors.items()}
        try:
            webpush.check_endpoint(attrs["endpoint"])
        except AddressNotAllowed as exc:
            errors["endpoint"] = [str(exc)]
        if errors:
            raise serializers.ValidationError(errors)
        return attrs


class PushSubscriptionSerializer(serializers.Serializer):
    id = StrictIntegerField()
    endpoint = serializers.URLField()
    user_agent = StrictCharField(help_text="The browser that subscribed, as it said.")
    created_at = serializers.DateTimeField()


class PushUnsubscribeSerializer(StrictSerializer):
    endpoint = serializers.URLField(max_length=2000)


SUBSCRIPTION_EXAMPLE = OpenApiExample(
    "A browser's PushSubscription.toJSON()",
    request_only=True,
    value={
        "endpoint": "https://fcm.googleapis.com/fcm/send/dVhS1Bq9yQw:APA91bG",
        "expirationTime": None,
        "keys": {
            "p256dh": (
                "BLZl0X16w3nVE8EXUOkrxJJwBk5vjOzuGaRFz2SWD-VLD-UTYEe_4LIA5X3hxm5I3sFY4pNRY06hJBmLd2U"
                "mw-E"
            ),
            "auth": "NYS0I9IRXd6U9wfN1py4mQ",
        },
    },
)


class PushKeyView(APIView):
    @extend_schema(
        operation_id="notifications_webpush_key_retrieve",
        summary="The server's Web Push (VAPID) public key",
        description="404 `push_unavailable` when this server offers no Web Push: hide it.",
        responses={200: PushKeySerializer, 401: NOT_AUTHENTICATED, 404: UNAVAILABLE},
        tags=TAGS,
    )
    def get(self, request: Request) -> Response:
        return Response({"public_key": _keys().public_key})


class PushSubscriptionsView(APIView):
    @extend_schema(
        operation_id="notifications_webpush_subscriptions_create",
        summary="Send my notifications to this browser by Web Push",
        description=(
            "The body is the browser's `PushSubscription.toJSON()`. The same endpoint again "
            "replaces the keys (and moves the subscription to you if another account had it): "
            "200 instead of 201. Which kinds are pushed is the `webpush` channel in your "
            "preferences. A push service's 404/410 for the endpoint forgets it."
        ),
        request={"application/json": PushSubscriptionRequestSerializer},
        responses={
            201: PushSubscriptionSerializer,
            200: OpenApiResponse(
                PushSubscriptionSerializer, description="The endpoint was subscribed already."
            ),
            400: error_response(
                "`invalid_request`: a malformed endpoint or key, or an endpoint on a private "
                "address (details.fields)."
            ),
            401: NOT_AUTHENTICATED,
            403: READ_ONLY,
            404: UNAVAILABLE,
        },
        examples=[SUBSCRIPTION_EXAMPLE],
        tags=TAGS,
    )
    def post(self, request: Request) -> Response:
        _keys()
        ser = PushSubscriptionRequestSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        data = ser.validated_data
        subscription, created = webpush.subscribe(
            user=signed_in_user(request),
            endpoint=data["endpoint"],
            p256dh=data["keys"]["p256dh"],
            auth=data["keys"]["auth"],
            user_agent=request.META.get("HTTP_USER_AGENT", ""),
        )
        return Response(_present(subscription), status=201 if created else 200)


class PushUnsubscribeView(APIView):
    @extend_schema(
        operation_id="notifications_webpush_subscriptions_delete",
        summary="Stop Web Push to this browser",
        description=(
            "Forgets your subscription with this endpoint. Idempotent: an endpoint you have no "
            "subscription with answers 204 too. A POST (not DELETE) because it has a body."
        ),
        request={"application/json": PushUnsubscribeSerializer},
        responses={
            204: None,
            **standard_errors({400: error_response("`invalid_request`: no `endpoint`.")}),
        },
        tags=TAGS,
    )
    def post(self, request: Request) -> Response:
        ser = PushUnsubscribeSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        webpush.unsubscribe(user=signed_in_user(request), endpoint=ser.validated_data["endpoint"])
        return Response(status=204)


def _present(subscription: PushSubscription) -> dict[str, Any]:
    return attributes_of(subscription, "pk endpoint user_agent created_at", keys={"pk": "id"})
