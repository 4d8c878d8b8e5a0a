"""A player's phone for the browser tests of issue 35: 390×844, touch, in English or Danish (the
profile's language and the browser's), signed in on a page."""

from __future__ import annotations

from typing import Any

import pytest

from players.models import User
from tests.web.conftest import Client
from tests.web.test_offline import PHONE_390

LANGUAGES = ("en", "da")
LOCALES = {"en": "en-GB", "da": "da-DK"}
# The marks of a test whose players also act through the API (no throttle in their way): it
# imports `lift_throttles` from here too, so that pytest finds the fixture.
API_AND_BROWSER = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("lift_throttles"),
]


def visitor(clients: Any, lang: str, name: str = "visitor") -> Client:
    """A phone nobody has signed in on yet."""
    client: Client = clients(name, locale=LOCALES[lang], **PHONE_390)
    return client


def phone_of(client: Client, user: User, token: str, lang: str, path: str) -> Client:
    """``client`` signed in as ``user`` on ``path``, ``lang`` chosen in the profile."""
    User.objects.filter(pk=user.pk).update(language=lang)
    client.sign_in_with_token(token, path)
    return client


def phone(clients: Any, user: User, token: str, lang: str, path: str) -> Client:
    """``user``'s phone on ``path``, ``lang`` chosen in the profile."""
    return phone_of(visitor(clients, lang, user.username), user, token, lang, path)
