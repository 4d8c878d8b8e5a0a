"""Plain dicts of an object's attributes, for the places that present a model row as JSON (an
API body, a snapshot kept as evidence): one string of names says which attributes and in which
order, instead of one ``"name": obj.name`` line each."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def attributes_of(obj: object, names: str, keys: Mapping[str, str] | None = None) -> dict[str, Any]:
    """``obj``'s attributes ``names`` (separated by spaces, as namedtuple's field names), in that
    order (a response body keeps it), each under its own name or under the key ``keys`` gives it
    (``keys={"pk": "id"}``)."""
    keys = keys or {}
    return {keys.get(name, name): getattr(obj, name) for name in names.split()}
