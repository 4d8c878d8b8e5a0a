"""URL path converters shared by the API's routes, registered with Django when this module is
first imported: every URL module that uses one imports it (a URL module may be imported on its
own, before the root URLconf).

Django's ``<int:...>`` takes any run of digits, and a number past what the database stores
(2^63 - 1, SQLite's and PostgreSQL's bigint) crashed the lookup with OverflowError (a 500). An
``<id:...>`` is a database id or no match: a path with a larger number is an unknown URL, the
API's JSON 404 like any other.
"""

from __future__ import annotations

from django.urls import register_converter

# The largest value a BigAutoField (DEFAULT_AUTO_FIELD) holds, in SQLite and in PostgreSQL.
MAX_ID = 2**63 - 1


class IdConverter:
    regex = "[0-9]{1,19}"

    def to_python(self, value: str) -> int:
        number = int(value)
        if number > MAX_ID:
            raise ValueError("beyond any id")  # Django: this route does not match
        return number

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(IdConverter, "id")
