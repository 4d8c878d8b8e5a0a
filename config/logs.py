"""One log line per request, the request id, and the log format.

``RequestLogMiddleware`` gives every request an id (the client's ``X-Request-ID`` when it is a
sane one, such as the proxy's ``$request_id``, a new one otherwise), echoes it in the answer's
``X-Request-ID``, keeps it in a context variable for the request's own log lines and the Celery
tasks it queues (config/celery.py carries it in the task's headers), and when the answer is ready
writes one line on the ``config.requests`` logger (route, status, duration, user id, request id)
and observes the request's latency by route (config/metrics.py).

The route is the URL pattern that matched (``api/v1/games/<uuid:game_id>/actions/``), never the
raw path: a log or a metric keyed by path would grow with every game.

The id is a few lines of this middleware rather than a library's (django-guid): Django has no
middleware for the line and the metric, so this one is needed anyway, and a library would add a
second middleware and a second Celery integration for what is a context variable and a header.

``LOG_FORMAT=json`` writes every log record as one JSON object (python-json-logger) with the
request id of the request or task that wrote it; the default, ``text``, stays readable.
"""

from __future__ import annotations

import contextvars
import logging
import re
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase
from django.utils.functional import SimpleLazyObject, empty
from django.utils.module_loading import import_string

from config import metrics
from config.middleware import HybridMiddleware

request_logger = logging.getLogger("config.requests")

HEADER = "X-Request-ID"
# Letters, digits and . _ - only, at most 64: a UUID, nginx's $request_id, most tracers' ids.
# Anything else (a log injection, a megabyte) is replaced by an id of our own.
_SANE = re.compile(r"[A-Za-z0-9._-]{1,64}")
UNMATCHED = "<unmatched>"
_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})

_request_id: contextvars.ContextVar[str | None] = contextvars.ContextVar("request_id", default=None)


def current_request_id() -> str | None:
    """The id of the request (or the task) being served in this context, if any."""
    return _request_id.get()


def new_request_id() -> str:
    return uuid.uuid4().hex


def sane_request_id(value: str | None) -> str | None:
    return value if value and _SANE.fullmatch(value) else None


def bind_request_id(request_id: str | None) -> contextvars.Token[str | None]:
    """From now on this context serves ``request_id``; ``unbind_request_id`` with the token
    returned restores the previous one (Celery's signals start and end a task apart)."""
    return _request_id.set(request_id)


def unbind_request_id(token: contextvars.Token[str | None]) -> None:
    _request_id.reset(token)


@contextmanager
def request_id_context(request_id: str | None) -> Iterator[None]:
    """Serve a request or run a task as ``request_id``; the previous id is restored after."""
    token = bind_request_id(request_id)
    try:
        yield
    finally:
        unbind_request_id(token)


def json_formatter() -> logging.Formatter:
    """The formatter of ``LOG_FORMAT=json``, as settings.LOGGING configures it."""
    options = dict(settings.LOGGING["formatters"]["json"])
    factory = import_string(options.pop("()"))
    formatter: logging.Formatter = factory(**options)
    return formatter


class RequestIdFilter(logging.Filter):
    """Puts the current request id on every record (``%(request_id)s``, and a JSON field)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "request_id"):
            record.request_id = _request_id.get()
        return True


def _user_id(request: HttpRequest) -> int | None:
    # Only a user that authentication has already resolved: reading Django's lazy session user
    # here would cost a session query on requests whose view never asked who it was.
    user = request.__dict__.get("user")
    if isinstance(user, SimpleLazyObject):
        user = getattr(request, "_cached_user", None) if user._wrapped is empty else user._wrapped
    return getattr(user, "pk", None) if getattr(user, "is_authenticated", False) else None


def _route(request: HttpRequest) -> str:
    match = getattr(request, "resolver_match", None)
    return match.route if match is not None and match.route else UNMATCHED


class RequestLogMiddleware(HybridMiddleware):
    """Right after WhiteNoise (static files are the proxy's and gunicorn's access log's
    business): times everything else."""

    def call_sync(self, request: HttpRequest) -> Any:
        request_id = sane_request_id(request.headers.get(HEADER)) or new_request_id()
        start = time.perf_counter()
        with request_id_context(request_id):
            response = self.get_response(request)
            self._finish(request, response, request_id, start)
        return response

    async def __acall__(self, request: HttpRequest) -> Any:
        request_id = sane_request_id(request.headers.get(HEADER)) or new_request_id()
        start = time.perf_counter()
        with request_id_context(request_id):
            response = await self.get_response(request)
            self._finish(request, response, request_id, start)
        return response

    def _finish(
        self, request: HttpRequest, response: HttpResponseBase, request_id: str, start: float
    ) -> None:
        seconds = time.perf_counter() - start
        response[HEADER] = request_id
        route = _route(request)
        # A client may send any method name: one label value each would grow without bound.
        method = request.method if request.method in _METHODS else "other"
        metrics.REQUEST_SECONDS.labels(
            method=method, route=route, status=str(response.status_code)
        ).observe(seconds)
        duration_ms = round(seconds * 1000, 1)
        user_id = _user_id(request)
        request_logger.info(
            "%s %s %s %.1fms user=%s",
            method,
            route,
            response.status_code,
            duration_ms,
            user_id,
            extra={
                "method": method,
                "route": route,
                "status": response.status_code,
                "duration_ms": duration_ms,
                "user_id": user_id,
            },
        )
