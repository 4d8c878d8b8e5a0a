"""The error responses and the header that most operations of every app document alike: written
once here rather than restated by each app's views."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse

from config.openapi import error_response

NOT_AUTHENTICATED = error_response(
    "`not_authenticated` / `authentication_failed`: no credentials, or a token that is revoked, "
    "expired or belongs to an inactive account."
)
READ_ONLY = error_response(
    "`permission_denied`: a `read` token, or a session request without CSRF token."
)
THROTTLED = error_response("`throttled`: too many requests; retry after the `Retry-After` seconds.")
INVALID = error_response("`invalid_request`: a field is missing or malformed (details.fields).")
RETRY_AFTER = OpenApiParameter(
    "Retry-After",
    int,
    OpenApiParameter.HEADER,
    response=[429],
    description="Seconds to wait before retrying.",
)


def standard_errors(
    extra: dict[int, OpenApiResponse] | None = None, *, write: bool = True, throttled: bool = False
) -> dict[int, OpenApiResponse]:
    """401 always, 403 for writes (read-only tokens), ``extra``, and 429 for throttled views."""
    out: dict[int, OpenApiResponse] = {401: NOT_AUTHENTICATED}
    if write:
        out[403] = READ_ONLY
    out.update(extra or {})
    if throttled:
        out[429] = THROTTLED
    return dict(sorted(out.items()))


def write_responses(
    answer: dict[int, Any],
    invalid: OpenApiResponse,
    extra: dict[int, OpenApiResponse] | None = None,
) -> dict[int, Any]:
    """A write operation's responses: its ``answer`` (code -> body), ``invalid`` (400: each app
    words what its requests get wrong), 401, 403 for a read token, then ``extra`` (an entry for
    403 replaces the read token's answer, in its place)."""
    return {**answer, 400: invalid, 401: NOT_AUTHENTICATED, 403: READ_ONLY, **(extra or {})}
