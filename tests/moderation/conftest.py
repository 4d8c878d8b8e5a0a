"""Shared setup for the moderation tests: the players alice, bob, carol and dave (bearer-token API
clients, from tests/games), a moderator (staff in the "moderators" group) and an administrator
(superuser), each with a browser client logged in to the admin."""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import Group, Permission
from django.test import Client

from moderation.models import Report
from players import lockout
from players.models import User

PASSWORD = "correct-horse-battery-7"


@pytest.fixture(autouse=True)
def fast_hasher(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def fresh_login_counters() -> Iterator[None]:
    # The failed log-in counters live in the cache (Redis on the PostgreSQL pass): start and end
    # every test with none.
    names = ["mo", "root", "alice", "bob", "nobody"]
    for name in names:
        lockout.forget(name)
    yield
    for name in names:
        lockout.forget(name)


def moderators_group() -> Group:
    """The group migration 0002 creates. A transactional test (the browser test) flushes the
    database when it ends, so later tests may have to put it back the way the migration does."""
    group = Group.objects.filter(name="moderators").first()
    if group is None:
        migration = importlib.import_module("moderation.migrations.0002_moderators_group")
        group = Group.objects.create(name=migration.GROUP)
        later = importlib.import_module("moderation.migrations.0004_void_ratings")
        chat = importlib.import_module("moderation.migrations.0006_chat_permissions")
        group.permissions.set(
            Permission.objects.get(content_type__app_label=app, codename=codename)
            for app, codename in [*migration.PERMISSIONS, *later.PERMISSIONS, *chat.PERMISSIONS]
        )
    return group


def make_moderator(username: str = "mo") -> User:
    user = User.objects.create_user(username=username, password=PASSWORD, is_staff=True)
    user.groups.add(moderators_group())
    return user


@pytest.fixture
def moderator(db: None) -> User:
    return make_moderator()


@pytest.fixture
def superuser(db: None) -> User:
    return User.objects.create_superuser(username="root", password=PASSWORD, email="r@x.test")


def logged_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def mod_client(moderator: User) -> Client:
    return logged_in(moderator)


@pytest.fixture
def root_client(superuser: User) -> Client:
    return logged_in(superuser)


def cheating_report(reporter: User, reported: User) -> Report:
    """An open report the browser tests act on."""
    return Report.objects.create(
        reporter=reporter,
        reported=reported,
        reason=Report.CHEATING,
        reasons=[Report.CHEATING],
        details="Bob and a friend only ever target me.",
    )
