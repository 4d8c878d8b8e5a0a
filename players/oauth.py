"""OAuth 2 for third-party apps, on django-oauth-toolkit (DOT): its models, token endpoint and
oauthlib server; here only what this service adds (docs/oauth.md).

- The scopes are the personal tokens' own: ``read`` (GET only) and ``play`` (read and act). An
  app's token is checked by the same permission as a personal token
  (``players.permissions.TokenScopePermission`` through ``players.auth.token_scope``).
- Access and refresh tokens start with ``uao_`` / ``uar_`` so the authentication classes tell an
  app's token from a personal ``uaw_`` one without a query (``players.auth.OAuthAuthentication``).
- An app's token never manages the account it acts for (``ACCOUNT_ROUTES``): no personal tokens,
  password, e-mail, deletion, or apps and grants. Those need the player's own
  credentials.
- Revoking an app deletes every token and pending code it holds for the player, so its next
  request is refused and its live streams end at their next keep-alive
  (``live.keepalive``).
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.db.models import Count, Max, Min
from oauth2_provider.models import (
    AccessToken,
    Application,
    Grant,
    RefreshToken,
)
from rest_framework.request import Request
from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle

from players.models import User

ACCESS_TOKEN_PREFIX = "uao_"
REFRESH_TOKEN_PREFIX = "uar_"

# Today's personal-token scopes (players.models.ApiToken.SCOPES), with the words the consent
# screen shows (web/static/web/i18n: "oauth.scope.<name>").
SCOPES = {
    "read": "Read your profile, games, hands and notifications",
    "play": "Play for you: create and join games, make moves, chat",
}
SCOPE_NAMES = list(SCOPES)  # the schema's OAuthScopeEnum (ENUM_NAME_OVERRIDES)
DEFAULT_SCOPES = ["read"]

# Routes an app's token may not use, in any method: the account's own credentials and keys.
# (Views with permission classes of their own, such as log-out and data exports, which any
# token may use, are not checked here.)
# ``me`` (the profile) only for GET: a changed e-mail would let an app reset the password.
ACCOUNT_ROUTES = frozenset(
    {
        "auth-tokens",
        "auth-token",
        "auth-password-change",
        "auth-email-verify",
        "me-delete",
        "me-bots",
        "me-bot",
        "me-bot-token",
        "oauth-authorize",
        "oauth-apps",
        "oauth-app",
        "oauth-authorizations",
        "oauth-authorization",
    }
)
ACCOUNT_ROUTES_UNSAFE = frozenset({"me"})


def access_token(request: Any) -> str:
    """DOT's ACCESS_TOKEN_GENERATOR: random, and recognisable as an app's token."""
    return ACCESS_TOKEN_PREFIX + secrets.token_urlsafe(32)


def refresh_token(request: Any) -> str:
    """DOT's REFRESH_TOKEN_GENERATOR."""
    return REFRESH_TOKEN_PREFIX + secrets.token_urlsafe(32)


def is_app_token(auth: object) -> bool:
    return isinstance(auth, AccessToken)


def app_token_scope(token: AccessToken) -> str:
    """The personal-token scope an app's token is worth: ``play`` when granted, else ``read``."""
    return "play" if "play" in token.scope.split() else "read"


def account_route(request: Request) -> bool:
    """Whether this request is one an app's token may not make (``ACCOUNT_ROUTES``)."""
    match = getattr(request, "resolver_match", None)
    name = match.url_name if match is not None else None
    if name in ACCOUNT_ROUTES:
        return True
    return name in ACCOUNT_ROUTES_UNSAFE and request.method not in ("GET", "HEAD", "OPTIONS")


def live_access_token_ids(token_ids: Iterable[int]) -> set[int]:
    """Of ``token_ids`` (AccessToken ids), those still good: not revoked (deleted), not expired,
    their user active. One query."""
    ids = set(token_ids)
    if not ids:
        return set()
    return {
        token.pk
        for token in AccessToken.objects.select_related("user").filter(pk__in=ids)
        if not token.is_expired() and token.user is not None and token.user.is_active
    }


def register_app(
    *, user: User, name: str, redirect_uris: list[str], confidential: bool
) -> tuple[Application, str]:
    """Register ``user``'s app. Returns it with its raw client secret (confidential apps; ""
    for public ones), which is stored hashed and shown only now."""
    secret = secrets.token_urlsafe(48) if confidential else ""
    app = Application(
        user=user,
        name=name,
        redirect_uris=" ".join(redirect_uris),
        client_type=(
            Application.CLIENT_CONFIDENTIAL if confidential else Application.CLIENT_PUBLIC
        ),
        authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE,
        client_secret=secret,
        algorithm=Application.NO_ALGORITHM,
    )
    app.full_clean()  # DOT's own checks: redirect URI schemes, no fragments
    app.save()
    return app, secret


def authorized_apps(*, user: User) -> list[dict[str, Any]]:
    """The apps ``user`` allowed that still hold a token: name, scopes, first and last grant."""
    rows = (
        AccessToken.objects.filter(user=user, application__isnull=False)
        .values(
            "application_id",
            "application__name",
            "application__client_id",
            "application__user__username",
        )
        .annotate(first=Min("created"), last=Max("created"), tokens=Count("id"))
        .order_by("-last")
    )
    scopes: dict[int, set[str]] = {}
    for app_id, scope in AccessToken.objects.filter(user=user).values_list(
        "application_id", "scope"
    ):
        scopes.setdefault(app_id, set()).update(scope.split())
    return [
        {
            "id": row["application_id"],
            "name": row["application__name"],
            "client_id": row["application__client_id"],
            "owner": row["application__user__username"] or "",
            "scopes": sorted(scopes.get(row["application_id"], ())),
            "authorized_at": row["first"],
            "last_authorized_at": row["last"],
        }
        for row in rows
    ]


def registered_apps(*, user: User) -> list[Application]:
    """The apps ``user`` registered as a developer, newest first."""
    return list(Application.objects.filter(user=user).order_by("-created"))


def revoke_app(*, user: User, application_id: int) -> int:
    """Revoke everything ``user`` gave the app: its access and refresh tokens and pending codes.
    Returns how many access tokens went (0: the app held none)."""
    with transaction.atomic():
        # Refresh tokens first: deleting an access token would otherwise leave a refresh token
        # that mints a new one.
        RefreshToken.objects.filter(user=user, application_id=application_id).delete()
        Grant.objects.filter(user=user, application_id=application_id).delete()
        gone, _ = AccessToken.objects.filter(user=user, application_id=application_id).delete()
    return gone


def revoke_all_apps(*, user: User) -> int:
    """Revoke every app's grant of ``user`` (a password change, a ban): whoever held the account
    may have allowed an app of theirs. Returns how many access tokens went."""
    with transaction.atomic():
        RefreshToken.objects.filter(user=user).delete()
        Grant.objects.filter(user=user).delete()
        gone, _ = AccessToken.objects.filter(user=user).delete()
    return gone


class AppRateThrottle(SimpleRateThrottle):
    """Requests per app (the ``apps`` rate, ``THROTTLE_APPS``), over all the players who allowed
    it, beside each player's own limits: one app cannot crowd out the others. Requests not made
    with an app's token are not counted."""

    scope = "apps"

    @property  # type: ignore[override]
    def THROTTLE_RATES(self) -> dict[str, Any]:  # noqa: N802  (DRF's name)
        # Read on every request, as players.throttles.AuthRateThrottle does (settings overrides).
        return api_settings.DEFAULT_THROTTLE_RATES

    def allow_request(self, request: Request, view: Any) -> bool:
        if not is_app_token(getattr(request, "auth", None)):
            return True
        return super().allow_request(request, view)

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        token = request.auth
        if not isinstance(token, AccessToken) or token.application_id is None:
            return None
        return self.cache_format % {"scope": self.scope, "ident": token.application_id}
