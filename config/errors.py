"""One JSON error shape for the whole API, and the typed error services raise.

Every error response is ``{"error": {"code": "...", "message": "...", "details": {...}}}`` with a
stable ``code``; clients branch on the code, people read the message. Nothing else (and never a
traceback) leaves the server.

Failures of the service's own backing store are not bugs: while the database is unreachable
(stopped, restarting, a connection cut) every request answers 503 ``service_unavailable`` with
``Retry-After``, from DRF views (``api_exception_handler``), other views
(``DatabaseUnavailableMiddleware``) and failures outside any view (``json_server_error``). A body
too large to read is 413 ``request_too_large``; JSON nested too deeply to parse is 400
``malformed_request`` (``config.parsers``).
"""

from __future__ import annotations

import logging
import sys
from typing import Any

from asgiref.sync import async_to_sync, iscoroutinefunction
from django.core.exceptions import (
    BadRequest,
    RequestDataTooBig,
    SuspiciousOperation,
    TooManyFieldsSent,
    TooManyFilesSent,
)
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.signals import got_request_exception
from django.db.utils import InterfaceError, OperationalError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.urls import Resolver404, ResolverMatch, get_urlconf, resolve
from django.utils.deprecation import MiddlewareMixin
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions, serializers, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from config import error_codes as codes
from config.error_codes import ErrorCode
from config.serializers import UNKNOWN_FIELD

logger = logging.getLogger(__name__)

# The database is down, restarting or dropped the connection: retry shortly. (Django wraps the
# driver's errors in these; IntegrityError and friends are bugs or conflicts, not outages.)
DATABASE_UNAVAILABLE: tuple[type[Exception], ...] = (OperationalError, InterfaceError)
RETRY_AFTER_SECONDS = 5
SERVICE_UNAVAILABLE = "The service is briefly unavailable; please retry in a few seconds."
# Bodies Django refuses to read (DATA_UPLOAD_MAX_MEMORY_SIZE, DATA_UPLOAD_MAX_NUMBER_FIELDS ...).
TOO_LARGE: tuple[type[Exception], ...] = (RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent)
REQUEST_TOO_LARGE = "The request body is too large."


class ServiceError(Exception):
    """A request the service refuses: ``error``, its entry in the one list (config/error_codes.py,
    which gives its stable code and HTTP status), a ``message`` for people and ``details``."""

    def __init__(self, error: ErrorCode, message: str, /, **details: Any) -> None:
        super().__init__(f"{error.code}: {message}")
        self.error = error
        self.code = error.code
        self.message = message
        self.status = error.status
        self.details = details


def error_body(code: str, message: str, details: dict[str, Any] | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"code": code, "message": message}
    if details:
        body["details"] = details
    return {"error": body}


def json_error(error: ErrorCode, message: str) -> JsonResponse:
    """The one shape outside DRF's views, with ``error``'s status."""
    return JsonResponse(error_body(error.code, message), status=error.status)


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's EXCEPTION_HANDLER: every error in the one shape, with its entry's status."""
    if isinstance(exc, DATABASE_UNAVAILABLE):
        _log_unavailable(exc)
        response = _response(codes.SERVICE_UNAVAILABLE, SERVICE_UNAVAILABLE)
    elif isinstance(exc, TOO_LARGE):
        response = _response(codes.REQUEST_TOO_LARGE, REQUEST_TOO_LARGE)
    elif isinstance(exc, ServiceError):
        response = _response(exc.error, exc.message, exc.details)
    else:
        return _drf_response(exc, context)
    if response.status_code == status.HTTP_503_SERVICE_UNAVAILABLE:
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


def _response(error: ErrorCode, message: str, details: dict[str, Any] | None = None) -> Response:
    return Response(error_body(error.code, message, details), status=error.status)


def _drf_response(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None:
        return None  # unexpected: Django's handler500 answers in the same shape
    error = next((e for cls, e in codes.DRF_CODES if isinstance(exc, cls)), None)
    # An APIException without an entry (no view raises one) keeps DRF's status.
    code = error.code if error is not None else "error"
    if isinstance(exc, exceptions.ValidationError):
        if set(_leaf_codes(exc.get_codes())) == {UNKNOWN_FIELD}:
            error = codes.UNKNOWN_FIELD
            code = error.code
            message = "The request has fields the operation does not take (details.fields)."
        else:
            message = "The request is not valid."
        response.data = error_body(code, message, {"fields": response.data})
    else:
        detail = response.data.get("detail", "") if isinstance(response.data, dict) else ""
        response.data = error_body(code, str(detail) or code.replace("_", " "))
    if error is not None:
        # DRF answers NotAuthenticated with 403 when no authenticator names a challenge.
        response.status_code = error.status
    if isinstance(exc, exceptions.NotAuthenticated | exceptions.AuthenticationFailed):
        response.setdefault("WWW-Authenticate", 'Bearer realm="api"')
    return response


def _leaf_codes(found: Any) -> list[str]:
    if isinstance(found, dict):
        return [c for value in found.values() for c in _leaf_codes(value)]
    if isinstance(found, list):
        return [c for value in found for c in _leaf_codes(value)]
    return [str(found)]


def json_not_found(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    return json_error(codes.NOT_FOUND, "Not found.")


@csrf_exempt  # nothing to protect, and a POST must get its 404 rather than a CSRF refusal
def api_not_found(request: HttpRequest, rest: str = "") -> HttpResponse:
    """Every unknown URL under /api/ (config/urls.py routes them here): the JSON 404 also with
    DEBUG on, where Django answers with its HTML debug page instead of ``handler404``.

    A known route asked for without its trailing slash is answered by that route, as resolved
    by Django's URL resolver: a redirect (what CommonMiddleware's APPEND_SLASH does) would turn
    a POST into a GET in many clients and lose its body."""
    path = request.path_info
    if not path.endswith("/"):
        match = _resolve(path + "/")
        if match is not None and match.func is not api_not_found:
            request.path_info += "/"
            request.path += "/"
            request.resolver_match = match
            view = match.func
            if iscoroutinefunction(view):
                # An async view (the event stream's) from this sync one: run it to its response.
                view = async_to_sync(view)
            response: HttpResponse = view(request, *match.args, **match.kwargs)
            return response
    return json_not_found(request)


def _resolve(path: str) -> ResolverMatch | None:
    try:
        return resolve(path, get_urlconf())
    except Resolver404:
        return None


def server_error_response() -> JsonResponse:
    return json_error(codes.SERVER_ERROR, "Something went wrong on our side; please retry.")


def json_server_error(request: HttpRequest) -> JsonResponse:
    # The traceback goes to the log, never to the client. Django calls this while handling the
    # exception, so a database outage that broke a middleware (sessions, authentication) is
    # still told apart from a bug.
    if isinstance(sys.exc_info()[1], DATABASE_UNAVAILABLE):
        return service_unavailable_response()
    return server_error_response()


def json_bad_request(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    """handler400: requests Django refuses outside DRF views (a bad Host header, a body over
    DATA_UPLOAD_MAX_MEMORY_SIZE ...), in the one shape rather than Django's HTML page."""
    if isinstance(exception, TOO_LARGE):
        return json_error(codes.REQUEST_TOO_LARGE, REQUEST_TOO_LARGE)
    return json_error(codes.MALFORMED_REQUEST, "The request is malformed.")


def service_unavailable_response() -> JsonResponse:
    response = json_error(codes.SERVICE_UNAVAILABLE, SERVICE_UNAVAILABLE)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


def _log_unavailable(exc: BaseException) -> None:
    # A warning without the traceback: an outage produces one per request, and the cause is
    # in the message ("connection refused", "terminating connection due to administrator
    # command" ...).
    logger.warning("database unavailable: %s: %s", exc.__class__.__name__, str(exc).strip())


class DatabaseUnavailableMiddleware(MiddlewareMixin):
    """503 ``service_unavailable`` with Retry-After when a view that is not a DRF view (the web
    client's pages, the admin) fails because the database is unreachable. DRF views answer the
    same through ``api_exception_handler``; failures outside any view through
    ``json_server_error``. Sync and async capable (MiddlewareMixin), so it keeps an all-async
    chain async."""

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, DATABASE_UNAVAILABLE):
            _log_unavailable(exception)
            return service_unavailable_response()
        return None


class ApiErrorMiddleware(MiddlewareMixin):
    """A view under /api/ that crashes answers the JSON 500, DEBUG or not: with DEBUG on Django
    would answer with its HTML debug page (``handler500`` only serves DEBUG off), and a client
    generated from the schema fails reading it. The traceback is logged as Django logs it."""

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not request.path_info.startswith("/api/"):
            return None
        if isinstance(exception, DATABASE_UNAVAILABLE):
            return None  # DatabaseUnavailableMiddleware's 503
        if isinstance(exception, Http404):
            return json_not_found(request)
        if isinstance(exception, DjangoPermissionDenied):
            return json_error(codes.PERMISSION_DENIED, "Permission denied.")
        if isinstance(exception, TOO_LARGE):
            return json_error(codes.REQUEST_TOO_LARGE, REQUEST_TOO_LARGE)
        if isinstance(exception, BadRequest | SuspiciousOperation):
            return json_bad_request(request, exception)
        logging.getLogger("django.request").error(
            "Internal Server Error: %s", request.path, exc_info=exception
        )
        got_request_exception.send(sender=None, request=request)
        return server_error_response()


# The one JSON error shape of the whole API, as documented in the schema (components Error and
# ErrorDetail).
class ErrorDetailSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="Stable machine-readable code, e.g. version_conflict.")
    message = serializers.CharField(help_text="Human-readable explanation.")
    details = serializers.DictField(required=False, help_text="Extra facts, e.g. current_version.")


class ErrorSerializer(serializers.Serializer):
    error = ErrorDetailSerializer()
