"""The OAuth consent screen and the apps in settings (docs/oauth.md), in a browser: a third-party
app sends the player to /oauth/authorize; signed out, the player signs in first and comes back;
Allow sends the browser to the app with a code that buys a working token, Deny with
access_denied; settings lists the allowed app and revokes it at once. English and Danish, with
a screenshot of each consent screen kept as a test artifact (docs/screenshots/consent-*.png
come from ``python -m tests.web.screenshots consent``)."""

from __future__ import annotations

import secrets
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import Route, expect
from rest_framework.test import APIClient

from players.models import ApiToken, User
from tests.players.oauth import REDIRECT_URI, authorize_query, exchange, pkce, register
from tests.web.conftest import Client

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "a-long-Enough-passw0rd"


def app_side(client: Client) -> list[str]:
    """The app's redirect URI answered in the browser (nothing listens at app.example): the
    URLs the browser was sent to."""
    arrived: list[str] = []

    def answer(route: Route) -> None:
        arrived.append(route.request.url)
        route.fulfill(status=200, content_type="text/plain", body="the app got it")

    client.page.route(f"{REDIRECT_URI}**", answer)
    return arrived


def back_at_the_app(client: Client, arrived: list[str]) -> None:
    """The browser left for the app, as it must: that one request is not the client's (the
    ``clients`` fixture fails any request outside the API)."""
    client.page.wait_for_url(f"{REDIRECT_URI}**")
    assert len(arrived) == 1
    client.requests[:] = [r for r in client.requests if not r[1].startswith(REDIRECT_URI)]


def test_a_signed_out_player_signs_in_allows_and_the_app_gets_a_working_token(
    clients: Any,
) -> None:
    name = f"alice-{secrets.token_hex(3)}"
    alice = User.objects.create_user(username=name, password=PASSWORD, display_name="Alice")
    owner = User.objects.create_user(username=f"bob-{secrets.token_hex(3)}", display_name="Bob")
    app = register(owner, name="Card Buddy")
    verifier, challenge = pkce()
    browser = clients("alice", locale="en-GB")
    arrived = app_side(browser)
    browser.goto(f"/oauth/authorize?{authorize_query(app, scope='read play', challenge=challenge)}")
    page = browser.page
    # Not signed in: the log-in screen first, then back to the request.
    page.get_by_label("Username").fill(name)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    heading = page.get_by_role("heading", name="Allow Card Buddy to use your account?")
    browser.shot(
        "oauth-consent-en",
        heading,
        page.get_by_text("An app made by Bob."),
        page.get_by_text("Play for you: create and join games, make moves and chat"),
        page.get_by_text("You will then go back to app.example."),
    )
    browser.axe("consent")
    page.get_by_role("button", name="Allow").click()
    back_at_the_app(browser, arrived)
    params = parse_qs(urlsplit(arrived[0]).query)
    assert params["state"] == ["xyz"]
    tokens = exchange(app, params["code"][0], verifier)
    assert tokens.status_code == 200, tokens.content
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {tokens.json()['access_token']}")
    assert api.get("/api/v1/me/").json()["username"] == name

    # Settings: the app is listed; Revoke ends its access at once.
    browser.goto("/settings")
    item = page.locator(".app-list li", has_text="Card Buddy")
    expect(item).to_be_visible()
    browser.shot("oauth-settings-en", item)
    item.get_by_role("button", name="Revoke").click()
    expect(page.get_by_text("You have not allowed any app to use your account.")).to_be_visible()
    assert api.get("/api/v1/me/").status_code == 401
    assert alice.tokens.count() == 1  # the browser's own sign-in stays


def test_in_danish_deny_sends_the_player_back_with_access_denied(clients: Any) -> None:
    alice = User.objects.create_user(
        username=f"alice-{secrets.token_hex(3)}", display_name="Alice", language="da"
    )
    _, raw = ApiToken.issue(alice, name="browser")
    app = register(User.objects.create_user(username=f"bob-{secrets.token_hex(3)}"))
    _, challenge = pkce()
    browser = clients("alice", locale="da-DK")
    arrived = app_side(browser)
    query = authorize_query(app, scope="read", challenge=challenge)
    browser.sign_in_with_token(raw, f"/oauth/authorize?{query}")
    page = browser.page
    browser.shot(
        "oauth-consent-da",
        page.get_by_role("heading", name="Må Card Buddy bruge din konto?"),
        page.get_by_text("Se din profil, dine spil, dine hænder og dine notifikationer"),
    )
    expect(page.get_by_text("Spille for dig")).to_have_count(0)  # only what the app asked
    browser.axe("consent (da)")
    page.get_by_role("button", name="Afvis").click()
    back_at_the_app(browser, arrived)
    params = parse_qs(urlsplit(arrived[0]).query)
    assert params["error"] == ["access_denied"] and "code" not in params


def test_a_request_without_pkce_says_so_and_offers_the_way_back(clients: Any) -> None:
    alice = User.objects.create_user(username=f"alice-{secrets.token_hex(3)}")
    _, raw = ApiToken.issue(alice, name="browser")
    app = register(User.objects.create_user(username=f"bob-{secrets.token_hex(3)}"))
    browser = clients("alice", locale="en-GB")
    browser.sign_in_with_token(
        raw, f"/oauth/authorize?{authorize_query(app, scope='read', challenge=None)}"
    )
    page = browser.page
    expect(page.get_by_role("heading", name="This app's request cannot be used")).to_be_visible()
    back = page.get_by_role("link", name="Back to the app")
    assert (back.get_attribute("href") or "").startswith(f"{REDIRECT_URI}?error=invalid_request")
    expect(page.get_by_role("button", name="Allow")).to_have_count(0)


def test_a_player_registers_an_app_in_settings_and_sees_its_secret_once(clients: Any) -> None:
    alice = User.objects.create_user(username=f"alice-{secrets.token_hex(3)}")
    _, raw = ApiToken.issue(alice, name="browser")
    browser = clients("alice", locale="en-GB", viewport={"width": 1280, "height": 1400})
    browser.sign_in_with_token(raw, "/settings")
    page = browser.page
    page.get_by_text("Developers: your apps").click()
    page.get_by_label("App name").fill("Card Buddy")
    page.get_by_label("Redirect URIs").fill("https://cardbuddy.example/callback")
    page.get_by_label("Confidential: a server that can keep a secret").check()
    page.get_by_role("button", name="Register app").click()
    expect(page.get_by_text("Card Buddy is registered.")).to_be_visible()
    expect(page.get_by_text("Copy the secret now: it is not shown again.")).to_be_visible()
    app = alice.oauth2_provider_application.get()
    assert app.name == "Card Buddy" and app.redirect_uris == "https://cardbuddy.example/callback"
    expect(page.locator(".developer-apps .app-list li", has_text=app.client_id)).to_be_visible()
    browser.shot("oauth-register-en", page.locator(".developer-apps"))
    # A redirect URI the server refuses: the form says why.
    page.get_by_label("App name").fill("Leaky")
    page.get_by_label("Redirect URIs").fill("http://leaky.example/callback")
    page.get_by_role("button", name="Register app").click()
    expect(page.locator(".developer-apps .error-box")).to_contain_text("redirect_uris")
    assert alice.oauth2_provider_application.count() == 1
