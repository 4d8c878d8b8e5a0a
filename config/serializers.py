"""Request serializers refuse fields they do not declare.

DRF drops a body field no serializer field names: a client that misspells ``colour`` as
``color`` gets an answer computed without it (a wild played with no colour named was refused for
another reason, a webhook created without its filter) and never learns why. Every serializer
that reads a request body derives from ``StrictSerializer`` (or puts ``StrictFieldsMixin`` first),
so an unknown field is refused with 400 ``unknown_field`` naming it in ``details.fields``
(config/errors.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rest_framework import serializers
from rest_framework.exceptions import ErrorDetail, ValidationError

from config import error_codes as codes

UNKNOWN_FIELD = codes.UNKNOWN_FIELD.code
# A form post's CSRF token (SessionAuthentication reads it), never a field of the body.
_NOT_FIELDS = frozenset({"csrfmiddlewaretoken"})


# Put first among a serializer's bases: its ``to_internal_value`` refuses a mapping with keys
# that are none of the serializer's fields, before validating the rest. (No docstrings on these
# classes: drf-spectacular would show them as the description of every request body.)
class StrictFieldsMixin:
    fields: Mapping[str, serializers.Field]

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, Mapping):
            unknown = sorted(set(data) - set(self.fields) - _NOT_FIELDS)
            if unknown:
                raise ValidationError(
                    {
                        name: [ErrorDetail("This field is not part of the request.", UNKNOWN_FIELD)]
                        for name in unknown
                    }
                )
        return super().to_internal_value(data)  # type: ignore[misc]


class StrictSerializer(StrictFieldsMixin, serializers.Serializer):
    pass
