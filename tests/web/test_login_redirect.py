"""After logging in, the web client goes to `?next=` only when it is a path on this site: no
form of it sends the browser to another one (issue 36: `/%5C…` and `/%09/…` did)."""

from __future__ import annotations

import secrets
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from players.models import User
from tests.web.conftest import Client

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "a-long-Enough-passw0rd"
# Nothing listens there; a browser sent there shows up in the client's requests all the same.
ELSEWHERE = "127.0.0.1:8793"


def log_in(client: Client, next_: str) -> None:
    username = f"alice-{secrets.token_hex(3)}"
    User.objects.create_user(username=username, password=PASSWORD)
    client.goto(f"/login?next={next_}")
    client.page.get_by_label("Username").fill(username)
    client.page.get_by_label("Password").fill(PASSWORD)
    client.page.get_by_role("button", name="Log in").click()


@pytest.mark.parametrize(
    "next_",
    [
        f"/%5C{ELSEWHERE}/x",  # a backslash: read as //
        f"/%09/{ELSEWHERE}/x",  # a tab, which the URL parser drops
        f"/%0A/{ELSEWHERE}/x",  # a newline, likewise
        f"//{ELSEWHERE}/x",
        f"http://{ELSEWHERE}/x",
        "javascript:alert(1)",
        f"%20//{ELSEWHERE}/x",
    ],
)
def test_log_in_never_follows_next_to_another_site(clients: Any, next_: str) -> None:
    alice = clients("alice")
    log_in(alice, next_)
    expect(alice.page.get_by_role("heading", name="My games")).to_be_visible()
    url = urlsplit(alice.page.url)
    assert (url.netloc, url.path) == (urlsplit(alice.base).netloc, "/games")
    assert not [u for _, u, _ in alice.requests if ELSEWHERE in urlsplit(u).netloc]


def test_log_in_follows_next_to_a_path_on_this_site(clients: Any) -> None:
    alice = clients("alice")
    log_in(alice, "/settings%3Ftab%3Dx")
    expect(alice.page.get_by_role("heading", name="Settings")).to_be_visible()
    assert urlsplit(alice.page.url).path == "/settings"
