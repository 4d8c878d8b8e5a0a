"""Request parsers: DRF's, hardened against input that would crash them.

In its own module because DRF reads DEFAULT_PARSER_CLASSES while ``rest_framework.views`` is
imported, which ``config.errors`` itself imports.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rest_framework import exceptions, parsers

# No request the API takes nests deeper than a few levels; this is far beyond any of them and far
# below the depth at which Python's JSON decoder (or the encoder, for the idempotency hash)
# recurses out of stack.
MAX_JSON_DEPTH = 32


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser, refusing JSON nested deeper than ``MAX_JSON_DEPTH`` as malformed
    instead of failing with a RecursionError (a 500) in the decoder or later in the view."""

    def parse(
        self,
        stream: Any,
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise exceptions.ParseError("JSON parse error - nested too deeply.") from None
        if _depth_exceeds(data, MAX_JSON_DEPTH):
            raise exceptions.ParseError(f"JSON parse error - nested deeper than {MAX_JSON_DEPTH}.")
        return data


def _depth_exceeds(data: Any, limit: int) -> bool:
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict):
            children: Any = value.values()
        elif isinstance(value, list):
            children = value
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False
