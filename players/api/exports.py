"""The data export's API (``me/exports/``, GDPR art. 15): requested, polled and downloaded by
its owner; built by a periodic job (players/exports.py)."""

from __future__ import annotations

import uuid

from django.http import FileResponse
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api_responses import NOT_AUTHENTICATED, RETRY_AFTER, THROTTLED, standard_errors
from config.openapi import error_response
from players import exports
from players.api import serializers as s
from players.api.views import signed_in_user
from players.models import DataExport, User
from players.oauth import AppRateThrottle
from players.throttles import AuthRateThrottle


class ExportThrottle(AuthRateThrottle):
    """The ``exports`` scope (``THROTTLE_EXPORTS``) on starting an export, per account."""


class MeExportsView(APIView):
    """Start a data export: built in the background, fetched from ``download_url`` when ready.

    A ``read`` token may start one too: the export only reads, and it is the player's right
    (GDPR art. 15); the throttle bounds what that costs."""

    permission_classes = [IsAuthenticated]
    throttle_classes = [ExportThrottle, AppRateThrottle]
    throttle_scope = "exports"
    throttled_methods = frozenset({"POST"})

    @extend_schema(
        operation_id="me_exports_create",
        summary="Start an export of all my data (GDPR)",
        description=(
            "Profile, token metadata, and every game with its seats and my moves, as one JSON "
            "file, built in the background: poll `url` until `status` is `ready`, then GET "
            "`download_url`. While an export is being built, starting another returns it. "
            "A finished export is kept a day (`expires_at`); a new one replaces it."
        ),
        request=None,
        responses={202: s.DataExportSerializer, 401: NOT_AUTHENTICATED, 429: THROTTLED},
        parameters=[RETRY_AFTER],
        tags=["me"],
    )
    def post(self, request: Request) -> Response:
        export = exports.request_export(user=signed_in_user(request))
        data = s.DataExportSerializer(export).data
        return Response(data, status=status.HTTP_202_ACCEPTED, headers={"Location": data["url"]})


class MeExportView(APIView):
    @extend_schema(
        operation_id="me_exports_retrieve",
        summary="How my data export is getting on",
        responses={
            200: s.DataExportSerializer,
            **standard_errors(
                {404: error_response("`not_found`: no such export of mine (or it expired).")},
                write=False,
            ),
        },
        tags=["me"],
    )
    def get(self, request: Request, export_id: uuid.UUID) -> Response:
        export = exports.export_of(signed_in_user(request), export_id)
        return Response(s.DataExportSerializer(export).data)


class MeLatestExportView(APIView):
    """The first export endpoint, which built the file inside the request. Its operation id is
    published, so it stays, serving the newest finished export instead."""

    @extend_schema(
        operation_id="me_export_retrieve",
        summary="Download my newest finished data export (deprecated)",
        description=(
            "Deprecated: start an export with `POST me/exports/` and download it from its "
            "`download_url`. This answers with the newest finished export's file, or 409 "
            "`export_not_ready` when there is none."
        ),
        deprecated=True,
        responses={
            (200, "application/json"): s.ExportSerializer,
            401: NOT_AUTHENTICATED,
            409: error_response(
                "`export_not_ready`: no finished export; start one with `POST me/exports/`."
            ),
        },
        tags=["me"],
    )
    def get(self, request: Request) -> FileResponse:
        return _download(signed_in_user(request), exports.latest_ready(signed_in_user(request)))


def _download(user: User, export: DataExport) -> FileResponse:
    return FileResponse(
        exports.open_file(export),
        as_attachment=True,
        filename=f"unoallwild-export-{user.pk}.json",
        content_type="application/json",
    )


class MeExportDownloadView(APIView):
    @extend_schema(
        operation_id="me_exports_download",
        summary="Download my finished data export (JSON file)",
        description="The file, streamed from storage, as an attachment.",
        responses={
            (200, "application/json"): s.ExportSerializer,
            401: NOT_AUTHENTICATED,
            404: error_response("`not_found`: no such export of mine (or it expired)."),
            409: error_response("`export_not_ready`: still `pending` or `running`, or `failed`."),
        },
        tags=["me"],
    )
    def get(self, request: Request, export_id: uuid.UUID) -> FileResponse:
        user = signed_in_user(request)
        return _download(user, exports.export_of(user, export_id))
