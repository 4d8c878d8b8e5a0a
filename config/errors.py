"""One JSON error shape for the whole API, and the typed error services raise.

Every error response is ``{"error": {"code": "...", "message": "...", "details": {...}}}`` with a
stable ``code``; clients branch on the code, people read the message. Nothing else (and never a
traceback) leaves the server.
"""

from __future__ import annotations

import logging
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404, HttpRequest, JsonResponse
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

logger = logging.getLogger(__name__)


class ServiceError(Exception):
    """A request the service refuses, with a stable code and the HTTP status it maps to."""

    def __init__(self, code: str, message: str, status: int = 400, **details: Any) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.status = status
        self.details = details


def error_body(code: str, message: str, details: dict[str, Any] | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"code": code, "message": message}
    if details:
        body["details"] = details
    return {"error": body}


# DRF's exception classes to our stable codes.
_DRF_CODES: list[tuple[type[exceptions.APIException], str]] = [
    (exceptions.NotAuthenticated, "not_authenticated"),
    (exceptions.AuthenticationFailed, "authentication_failed"),
    (exceptions.PermissionDenied, "permission_denied"),
    (exceptions.NotFound, "not_found"),
    (exceptions.MethodNotAllowed, "method_not_allowed"),
    (exceptions.NotAcceptable, "not_acceptable"),
    (exceptions.UnsupportedMediaType, "unsupported_media_type"),
    (exceptions.Throttled, "throttled"),
    (exceptions.ParseError, "malformed_request"),
    (exceptions.ValidationError, "invalid_request"),
]


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's EXCEPTION_HANDLER: every error in the one shape."""
    if isinstance(exc, ServiceError):
        response = Response(error_body(exc.code, exc.message, exc.details), status=exc.status)
        if exc.status == status.HTTP_503_SERVICE_UNAVAILABLE:
            response["Retry-After"] = "5"
        return response
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None:
        return None  # unexpected: Django's handler500 answers in the same shape
    code = next((c for cls, c in _DRF_CODES if isinstance(exc, cls)), "error")
    if isinstance(exc, exceptions.ValidationError):
        response.data = error_body(code, "The request is not valid.", {"fields": response.data})
    else:
        detail = response.data.get("detail", "") if isinstance(response.data, dict) else ""
        response.data = error_body(code, str(detail) or code.replace("_", " "))
    if isinstance(exc, exceptions.NotAuthenticated | exceptions.AuthenticationFailed):
        response.status_code = status.HTTP_401_UNAUTHORIZED
        response.setdefault("WWW-Authenticate", 'Bearer realm="api"')
    return response


def json_not_found(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    return JsonResponse(error_body("not_found", "Not found."), status=404)


def json_server_error(request: HttpRequest) -> JsonResponse:
    # The traceback goes to the log, never to the client.
    return JsonResponse(
        error_body("server_error", "Something went wrong on our side; please retry."), status=500
    )
