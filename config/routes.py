"""The API's routes as rows: ``views(("me/", MeView, "me"), ...)`` is the list of
``path("me/", MeView.as_view(), name="me")`` that every app's ``urls.py`` would otherwise spell out
one ``path(...)`` call (three lines once formatted) per route. Order is kept, since the first
pattern that matches wins. A route may use ``<id:...>`` (a database id): importing this module
registers it.
"""

from __future__ import annotations

from django.urls import URLPattern, path
from django.views import View

from config import converters  # noqa: F401  (registers <id:...>, a database id)

# A route, the class-based view that answers it and the route's name (reverse(), the schema).
Row = tuple[str, type[View], str]


def views(*rows: Row) -> list[URLPattern]:
    return [path(route, view.as_view(), name=name) for route, view, name in rows]
