"""Query string values, read strictly and declared with their bounds, in one place.

A query string is text, so DRF's serializers do not read it for the API's plain views. These
helpers do, for every view: a boolean is ``true`` or ``false`` (``1``, ``yes`` or ``maybe`` are
refused, not guessed at), an integer is digits within the bounds the schema declares (a number
past what the database holds crashed a lookup). A refusal is 400 ``invalid_request`` naming the
parameter in ``details.fields``, the shape of a refused body field.

``integer_parameter`` and ``boolean_parameter`` build the OpenAPI declaration from the same
bounds the view reads with.
"""

from __future__ import annotations

from typing import Any, overload

from drf_spectacular.utils import OpenApiParameter
from rest_framework.request import Request

from config import error_codes as codes
from config.converters import MAX_ID
from config.errors import ServiceError

__all__ = ["MAX_ID", "boolean", "boolean_parameter", "integer", "integer_parameter"]
_BOOLEANS = {"true": True, "false": False}


def _refuse(name: str, problem: str) -> ServiceError:
    return ServiceError(codes.INVALID_REQUEST, f"{name}: {problem}", fields={name: [problem]})


def boolean(request: Request, name: str) -> bool | None:
    """The parameter ``name`` as ``true``/``false``; None when absent."""
    raw = request.query_params.get(name)
    if raw is None:
        return None
    if raw not in _BOOLEANS:
        raise _refuse(name, "Must be true or false.")
    return _BOOLEANS[raw]


@overload
def integer(request: Request, name: str, default: int, low: int, high: int) -> int: ...
@overload
def integer(request: Request, name: str, default: None, low: int, high: int) -> int | None: ...
def integer(request: Request, name: str, default: int | None, low: int, high: int) -> int | None:
    """The parameter ``name`` as a whole number from ``low`` to ``high``; ``default`` when
    absent. Present but empty (``?before=``) is no number: refused."""
    raw = request.query_params.get(name)
    if raw is None:
        return default
    digits = raw[1:] if raw.startswith("-") else raw
    # isdecimal() alone takes other scripts' digits (int() reads them); a length bound keeps a
    # huge string from costing a conversion.
    if not (digits.isascii() and digits.isdecimal()) or len(digits) > 20:
        raise _refuse(name, f"Must be a whole number from {low} to {high}.")
    value = int(raw)
    if not low <= value <= high:
        raise _refuse(name, f"Must be a whole number from {low} to {high}.")
    return value


def integer_parameter(
    name: str, low: int, high: int, description: str, default: int | None = None
) -> OpenApiParameter:
    schema: dict[str, Any] = {"type": "integer", "minimum": low, "maximum": high}
    if default is not None:
        schema["default"] = default
    return OpenApiParameter(name, schema, description=description)


def boolean_parameter(name: str, description: str) -> OpenApiParameter:
    return OpenApiParameter(name, bool, description=description)
