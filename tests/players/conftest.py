"""Fixtures for the accounts API: the personas alice and bob, clients, tokens."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from players.models import ApiToken, User

PASSWORD = "correct-horse-battery-7"


def link_parts(body: str, page: str) -> dict[str, str]:
    """The uid and token of the link to the web client's ``page`` in an account mail."""
    found = re.search(page + r"\?uid=([\w-]+)&token=([\w-]+)", body)
    assert found, body
    return {"uid": found.group(1), "token": found.group(2)}


@pytest.fixture(autouse=True)
def fast_hasher(settings: Any) -> None:
    # PBKDF2's hundreds of thousands of rounds would dominate the run; the behaviour under test
    # does not depend on the hasher.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def fresh_throttles() -> Iterator[None]:
    # Throttle counters live in the cache and every test client comes from 127.0.0.1: without
    # this, the auth allowance would run out part-way through the module.
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def make_user(db: None) -> Callable[..., User]:
    def make(username: str, **fields: Any) -> User:
        fields.setdefault("email", f"{username}@example.com")
        fields.setdefault("display_name", username.capitalize())
        return User.objects.create_user(username=username, password=PASSWORD, **fields)

    return make


@pytest.fixture
def alice(make_user: Callable[..., User]) -> User:
    return make_user("alice")


@pytest.fixture
def bob(make_user: Callable[..., User]) -> User:
    return make_user("bob")


@pytest.fixture
def carol(make_user: Callable[..., User]) -> User:
    return make_user("carol")


@pytest.fixture
def client() -> APIClient:
    """Anonymous. Named `client` on purpose: it shadows pytest-django's plain Django client."""
    return APIClient()


def bearer(raw: str) -> APIClient:
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {raw}")
    return api


@pytest.fixture
def token_for() -> Callable[..., tuple[ApiToken, APIClient]]:
    """A token of `user` and a client that sends it."""

    def issue(user: User, *, scope: str = ApiToken.SCOPE_PLAY, name: str = "test"):
        token, raw = ApiToken.issue(user, name=name, scope=scope)
        return token, bearer(raw)

    return issue


@pytest.fixture
def alice_api(alice: User, token_for: Callable[..., tuple[ApiToken, APIClient]]) -> APIClient:
    return token_for(alice)[1]
