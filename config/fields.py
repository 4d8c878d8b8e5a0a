"""Strict request fields: a JSON value of the wrong type is refused, never coerced.

DRF's own fields are lenient: ``BooleanField`` reads ``"yes"``, ``"on"`` and ``1`` as true,
``IntegerField`` reads ``"105"`` as 105, ``CharField`` reads ``5`` as ``"5"``. A third-party client
with a typo'd type then gets an answer instead of an error, and a different answer from another
server that follows the schema. These fields accept exactly the JSON type the schema documents.

Forms (``application/x-www-form-urlencoded`` and multipart bodies) carry only
strings, so for them the usual spellings are still read (``true``/``false``, digits).

A refusal is a DRF ``ValidationError`` like any other, so it answers 400 ``invalid_request`` in the
one error shape with the message under ``details.fields.<name>`` (config/errors.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rest_framework import serializers
from rest_framework.utils import html


class StrictBooleanField(serializers.BooleanField):
    """Only JSON ``true`` or ``false``."""

    default_error_messages = {"invalid": "Must be a boolean: true or false."}

    def get_value(self, dictionary: Mapping[str, Any]) -> Any:
        value = super().get_value(dictionary)
        if html.is_html_input(dictionary) and isinstance(value, str):
            # A form field is a string: read the spellings DRF knows, refuse the rest.
            if value in self.TRUE_VALUES:
                return True
            if value in self.FALSE_VALUES:
                return False
        return value

    def to_internal_value(self, data: Any) -> bool:
        if not isinstance(data, bool):
            self.fail("invalid")
        return bool(data)


class StrictIntegerField(serializers.IntegerField):
    """Only a JSON integer (``5``); never ``5.0``, a string or a boolean. The schema says
    ``integer``, and a client that sends ``5.0`` computed the number as a float: a version or a
    count that went through float arithmetic is a bug to report, not to round."""

    default_error_messages = {
        "invalid": "Must be an integer (a JSON number without a fraction, not a string)."
    }

    def get_value(self, dictionary: Mapping[str, Any]) -> Any:
        value = super().get_value(dictionary)
        if html.is_html_input(dictionary) and isinstance(value, str):
            digits = value.strip()
            if digits.lstrip("-").isdecimal() and digits.isascii():
                return int(digits)
        return value

    def to_internal_value(self, data: Any) -> int:
        # bool is an int in Python, but true is no number in JSON.
        if not isinstance(data, int) or isinstance(data, bool):
            self.fail("invalid")
        return int(data)


class StrictFloatField(serializers.FloatField):
    """Only a JSON number (``5`` or ``0.5``); never a string or a boolean."""

    default_error_messages = {"invalid": "Must be a number (a JSON number, not a string)."}

    def get_value(self, dictionary: Mapping[str, Any]) -> Any:
        value = super().get_value(dictionary)
        if html.is_html_input(dictionary) and isinstance(value, str):
            try:
                return float(value.strip())
            except ValueError:
                return value
        return value

    def to_internal_value(self, data: Any) -> float:
        if not isinstance(data, int | float) or isinstance(data, bool):
            self.fail("invalid")
        return float(super().to_internal_value(data))


class StrictCharField(serializers.CharField):
    """Only a JSON string; a number is a wrong type, not a string to be."""

    default_error_messages = {"invalid": "Must be a string."}

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictUUIDField(serializers.UUIDField):
    """Only a JSON string holding a UUID; DRF's own reads the number 5 as the UUID ...0005."""

    def to_internal_value(self, data: Any) -> Any:
        if not isinstance(data, str):
            self.fail("invalid", value=data)
        return super().to_internal_value(data)
