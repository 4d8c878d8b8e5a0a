"""The shape every game's action example shares."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample


def action(summary: str, **body: Any) -> OpenApiExample:
    """An example request body of the action endpoint: ``body`` as sent, in its order."""
    return OpenApiExample(summary, value=body, request_only=True)
