"""Usernames are unique by what they look like (``User.username_look``): "a1ice", or "alice"
spelt with a Cyrillic "а", would pass for alice in a friend request or an invitation.

Held on every way in (sign-up, bot accounts, the admin's form), by a unique index that decides
when look-alikes race, and filled in for accounts older than the rule (migration 0007).
"""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from django.apps import apps
from django.test import Client
from rest_framework.test import APIClient

from config.errors import ServiceError
from players import bots
from players.blocklist import look_key
from players.models import User
from tests.errors import error_code
from tests.games.test_concurrency import at_once
from tests.live.servers import request
from tests.players.conftest import PASSWORD
from tests.players.test_signup import URL, signup

CYRILLIC_A = "\u0430"
# Each looks like "alice" (in some letter case): a Cyrillic letter, digits for letters, a
# capital I for a small l, full-width letters.
LOOK_LIKE_ALICE = [
    f"{CYRILLIC_A}lice",
    "a1ice",
    "aIice",
    "ALICE",
    "\uff41\uff4c\uff49\uff43\uff45",
]


@pytest.mark.parametrize("name", LOOK_LIKE_ALICE)
def test_look_alikes_share_a_key(name: str) -> None:
    assert look_key(name) == look_key("alice")


@pytest.mark.parametrize(
    ("one", "other"),
    [("b0b", "bob"), ("m", "rn"), (f"b{CYRILLIC_A}rt", "bart"), ("Ian", "lan")],
)
def test_more_look_alikes_share_a_key(one: str, other: str) -> None:
    assert look_key(one) == look_key(other)


@pytest.mark.parametrize("other", ["alice2", "alice_", "alicé", "malice", "bob"])
def test_names_that_look_different_have_different_keys(other: str) -> None:
    assert look_key(other) != look_key("alice")


@pytest.mark.django_db
@pytest.mark.parametrize("name", LOOK_LIKE_ALICE)
def test_sign_up_refuses_a_name_that_looks_like_a_taken_one(client: Any, name: str) -> None:
    assert signup(client).status_code == 201
    response = signup(client, username=name)
    assert response.status_code == 409, response.json()
    assert error_code(response) == "username_taken"
    assert response.json()["error"]["details"] == {"username": name}
    assert User.objects.count() == 1


@pytest.mark.django_db
def test_sign_up_takes_a_name_that_only_resembles_a_taken_one(client: Any) -> None:
    assert signup(client).status_code == 201
    assert signup(client, username="alice2").status_code == 201
    assert signup(client, username="malice").status_code == 201


@pytest.mark.django_db
def test_a_bot_account_cannot_look_like_a_player(client: Any) -> None:
    signup(client)
    owner = User.objects.create_user(username="carol")
    with pytest.raises(ServiceError) as refused:
        bots.create_bot(owner=owner, username=f"{CYRILLIC_A}lice")
    assert refused.value.code == "username_taken"
    assert not owner.bot_accounts.exists()


@pytest.mark.django_db
def test_the_admin_refuses_a_look_alike_with_the_forms_error(admin_client: Client) -> None:
    User.objects.create_user(username="alice")
    response = admin_client.post(
        "/admin/players/user/add/",
        {
            "username": "a1ice",
            "password1": PASSWORD,
            "password2": PASSWORD,
            "usable_password": "true",
        },
    )
    assert response.status_code == 200
    assert "looks just like one that is" in response.content.decode()
    assert not User.objects.filter(username="a1ice").exists()


@pytest.mark.django_db
def test_saving_an_old_account_keeps_its_look_and_a_rename_takes_a_new_one() -> None:
    user = User.objects.create_user(username="alice")
    assert user.username_look == look_key("alice")
    loaded = User.objects.get(pk=user.pk)
    loaded.display_name = "Alice"
    loaded.save(update_fields=["display_name"])
    loaded.username = "bob"
    loaded.save(update_fields=["username"])
    assert User.objects.get(pk=user.pk).username_look == look_key("bob")
    # The old name is free again.
    assert User.objects.create_user(username="a1ice").username_look == look_key("alice")


@pytest.mark.django_db
def test_the_migration_gives_the_oldest_of_look_alikes_the_look() -> None:
    fill_looks = importlib.import_module("players.migrations.0007_user_username_look").fill_looks
    alice = User.objects.create_user(username="alice")
    # Accounts made before the rule: no look yet, and one looks like alice.
    User.objects.filter(pk=alice.pk).update(username_look=None)
    older_names = [f"{CYRILLIC_A}lice", "bob"]
    User.objects.bulk_create([User(username=name) for name in older_names])
    fill_looks(apps, None)
    looks = dict(User.objects.values_list("username", "username_look"))
    assert looks == {"alice": look_key("alice"), f"{CYRILLIC_A}lice": None, "bob": look_key("bob")}
    # A new account may look like none of them.
    assert error_code(signup(APIClient(), username="a1ice")) == "username_taken"


@pytest.mark.django_db(transaction=True)
def test_look_alikes_signing_up_at_once_get_one_account(
    live_server: Any, lift_throttles: None
) -> None:
    names = ["alice", *LOOK_LIKE_ALICE]

    def sign_up(i: int) -> tuple[int, Any]:
        body = {"username": names[i], "password": PASSWORD}
        status, _, answer = request(live_server.url + URL, method="POST", body=body)
        return status, answer

    results = at_once(len(names), sign_up)
    statuses = sorted(status for status, _ in results)
    assert statuses == [201] + [409] * (len(names) - 1), results
    assert {answer["error"]["code"] for status, answer in results if status == 409} == {
        "username_taken"
    }
    assert User.objects.count() == 1
