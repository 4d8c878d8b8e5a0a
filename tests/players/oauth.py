"""The authorization-code + PKCE flow as a third-party app and its player go through it, with
Django's test client: the app registered, the player's consent through the API the web client's
consent screen uses, the code traded for tokens at ``/oauth/token/``."""

from __future__ import annotations

import base64
import hashlib
import secrets
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

from django.test import Client
from rest_framework.test import APIClient

from players import oauth
from players.models import User

REDIRECT_URI = "https://app.example/callback"


@dataclass
class App:
    id: int
    client_id: str
    secret: str  # "" for a public app


@dataclass
class Grant:
    access: str
    refresh: str
    scope: str
    api: APIClient  # sends the access token


def register(owner: User, *, name: str = "Card Buddy", confidential: bool = False) -> App:
    app, secret = oauth.register_app(
        user=owner, name=name, redirect_uris=[REDIRECT_URI], confidential=confidential
    )
    return App(app.pk, app.client_id, secret)


def pkce() -> tuple[str, str]:
    """A code verifier and its S256 challenge (RFC 7636)."""
    verifier = secrets.token_urlsafe(48)
    digest = hashlib.sha256(verifier.encode()).digest()
    return verifier, base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def authorize_query(app: App, *, scope: str, challenge: str | None, state: str = "xyz") -> str:
    params = {
        "response_type": "code",
        "client_id": app.client_id,
        "redirect_uri": REDIRECT_URI,
        "state": state,
    }
    if scope:  # none at all: the default scope
        params["scope"] = scope
    if challenge is not None:
        params |= {"code_challenge": challenge, "code_challenge_method": "S256"}
    return urlencode(params)


def consent(player: APIClient, query: str, *, allow: bool = True) -> Any:
    return player.post(f"/api/v1/oauth/authorize/?{query}", {"allow": allow}, format="json")


def code_from(redirect_to: str) -> dict[str, list[str]]:
    parts = urlsplit(redirect_to)
    assert f"{parts.scheme}://{parts.netloc}{parts.path}" == REDIRECT_URI
    return parse_qs(parts.query)


def exchange(app: App, code: str, verifier: str) -> Any:
    body = {
        "grant_type": "authorization_code",
        "code": code,
        "redirect_uri": REDIRECT_URI,
        "client_id": app.client_id,
        "code_verifier": verifier,
    }
    if app.secret:
        body["client_secret"] = app.secret
    return Client().post("/oauth/token/", body)


def grant(player: APIClient, app: App, *, scope: str = "read play") -> Grant:
    """The whole flow: consent, code, tokens."""
    verifier, challenge = pkce()
    answer = consent(player, authorize_query(app, scope=scope, challenge=challenge))
    assert answer.status_code == 200, answer.content
    params = code_from(answer.json()["redirect_to"])
    assert params["state"] == ["xyz"]
    tokens = exchange(app, params["code"][0], verifier)
    assert tokens.status_code == 200, tokens.content
    body = tokens.json()
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {body['access_token']}")
    return Grant(body["access_token"], body["refresh_token"], body["scope"], api)
