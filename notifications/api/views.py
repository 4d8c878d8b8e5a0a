"""The notifications API: the inbox, its unread count, marking read, and preferences. Thin
views: reads from selectors, changes from services. Bearer token or browser session; a `read`
token may read but not mark anything read or change preferences."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config import query
from config.api_responses import NOT_AUTHENTICATED, standard_errors
from config.openapi import error_response
from notifications import selectors, services
from notifications.api import serializers as s
from players.api.views import signed_in_user

INVALID = error_response("`invalid_request`: a field or parameter is malformed (details.fields).")
NO_NOTIFICATION = error_response("`not_found`: no such notification of yours.")
TAGS = ["notifications"]


class InboxView(APIView):
    @extend_schema(
        operation_id="notifications_list",
        summary="My notifications, newest first",
        description=(
            "One page of your inbox. Page to older ones with `before` set to the previous page's "
            "`next_before`. Texts are in your profile's language."
        ),
        parameters=[
            query.boolean_parameter("unread", "Only unread notifications (true), or all."),
            query.integer_parameter(
                "before", 1, query.MAX_ID, "Only notifications older than this id (a cursor)."
            ),
            query.integer_parameter("limit", 1, 100, "Page size (default 20).", default=20),
        ],
        responses={200: s.InboxPageSerializer, **standard_errors({400: INVALID}, write=False)},
        tags=TAGS,
    )
    def get(self, request: Request) -> Response:
        user = signed_in_user(request)
        unread = bool(query.boolean(request, "unread"))
        before = query.integer(request, "before", None, 1, query.MAX_ID)
        limit = query.integer(request, "limit", 20, 1, 100)
        assert limit is not None
        page, has_more = selectors.inbox(user, unread=unread, before=before, limit=limit)
        data = {
            "results": [s.present(n, user.language) for n in page],
            "has_more": has_more,
            "next_before": page[-1].pk if has_more and page else None,
        }
        return Response(s.InboxPageSerializer(data).data)


class UnreadCountView(APIView):
    @extend_schema(
        operation_id="notifications_unread_count",
        summary="How many of my notifications are unread, and how many games wait for me",
        responses={200: s.UnreadCountSerializer, 401: NOT_AUTHENTICATED},
        tags=TAGS,
    )
    def get(self, request: Request) -> Response:
        user = signed_in_user(request)
        return Response(
            {
                "unread": selectors.unread_count(user),
                "games_waiting": selectors.games_waiting(user.pk),
            }
        )


class ReadView(APIView):
    @extend_schema(
        operation_id="notifications_read",
        summary="Mark one notification read",
        description="Marking it again changes nothing (it keeps the first `read_at`).",
        request=None,
        responses={200: s.NotificationSerializer, **standard_errors({404: NO_NOTIFICATION})},
        tags=TAGS,
    )
    def post(self, request: Request, notification_id: int) -> Response:
        user = signed_in_user(request)
        notification = services.mark_read(user=user, notification_id=notification_id)
        return Response(s.NotificationSerializer(s.present(notification, user.language)).data)


class ReadAllView(APIView):
    @extend_schema(
        operation_id="notifications_read_all",
        summary="Mark all my notifications read",
        description="With `up_to`, only those with that id or lower (the ones the client showed).",
        request={"application/json": s.ReadAllRequestSerializer},
        responses={200: s.ReadAllResponseSerializer, **standard_errors({400: INVALID})},
        tags=TAGS,
    )
    def post(self, request: Request) -> Response:
        ser = s.ReadAllRequestSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        marked = services.mark_all_read(
            user=signed_in_user(request), up_to=ser.validated_data.get("up_to")
        )
        return Response({"marked": marked})


PREFERENCES_EXAMPLE = OpenApiExample(
    "Round results by e-mail, nothing at night",
    request_only=True,
    value={
        "channels": {"email": {"round_over": True, "reminder": False}},
        "quiet_hours": {"start": "22:00", "end": "07:30"},
    },
)


class PreferencesView(APIView):
    @extend_schema(
        operation_id="notifications_preferences_retrieve",
        summary="My notification preferences",
        description="Every channel's switch for every kind (defaults filled in), and quiet hours.",
        responses={200: s.PreferencesSerializer, 401: NOT_AUTHENTICATED},
        tags=TAGS,
    )
    def get(self, request: Request) -> Response:
        return Response(
            s.PreferencesSerializer(selectors.preference_view(signed_in_user(request))).data
        )

    @extend_schema(
        operation_id="notifications_preferences_update",
        summary="Change my notification preferences",
        description=(
            "Send only what changes: switches you leave out, and `quiet_hours` when absent, keep "
            "their values. `quiet_hours: null` switches quiet hours off. Answers with the full "
            "preferences."
        ),
        request={"application/json": s.PreferencesUpdateSerializer},
        responses={200: s.PreferencesSerializer, **standard_errors({400: INVALID})},
        examples=[PREFERENCES_EXAMPLE],
        tags=TAGS,
    )
    def put(self, request: Request) -> Response:
        user = signed_in_user(request)
        ser = s.PreferencesUpdateSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        quiet = ser.validated_data.get("quiet_hours", False)
        services.update_preferences(
            user=user,
            switches=ser.validated_data.get("channels"),
            quiet_hours=(quiet["start"], quiet["end"]) if quiet else quiet,
        )
        return Response(s.PreferencesSerializer(selectors.preference_view(user)).data)
