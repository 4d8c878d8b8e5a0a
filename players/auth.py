"""Bearer-token authentication for phones and third-party apps.

``Authorization: Bearer uaw_…``. The token is looked up by its SHA-256 hash; revoked or expired
tokens and inactive users get 401.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils import timezone
from oauth2_provider.contrib.rest_framework import OAuth2Authentication
from rest_framework import authentication, exceptions
from rest_framework.request import Request

from players import oauth
from players.models import ApiToken, User, hash_token

# Writing last_used_at on every request would turn each read into a write; once a minute is
# precise enough for "last used" in the token list.
LAST_USED_RESOLUTION = timedelta(minutes=1)


class BearerTokenAuthentication(authentication.BaseAuthentication):
    keyword = "Bearer"

    def authenticate(self, request: Request) -> tuple[User, ApiToken] | None:
        header = authentication.get_authorization_header(request).split()
        if not header or header[0].decode(errors="replace").lower() not in ("bearer", "token"):
            return None
        if len(header) != 2:
            raise exceptions.AuthenticationFailed("Invalid Authorization header.")
        raw = header[1].decode(errors="replace")
        # A slice, not .first(): key_hash is unique, and .first() would add an ORDER BY.
        found = ApiToken.objects.select_related("user").filter(key_hash=hash_token(raw))[:1]
        token = next(iter(found), None)
        if token is None or not token.is_live or not token.user.is_active:
            raise exceptions.AuthenticationFailed("Invalid, expired or revoked token.")
        now = timezone.now()
        if token.last_used_at is None or now - token.last_used_at > LAST_USED_RESOLUTION:
            ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
        return token.user, token

    def authenticate_header(self, request: Request) -> str:
        return f'{self.keyword} realm="api"'


class OAuthAuthentication(OAuth2Authentication):  # type: ignore[misc]
    """An app's OAuth token (``Bearer uao_…``, players/oauth.py), checked by django-oauth-toolkit.

    Listed before ``BearerTokenAuthentication``, which refuses any token it does not know; a
    personal token is passed on without a query.
    """

    def authenticate(self, request: Request) -> tuple[User, Any] | None:
        header = authentication.get_authorization_header(request).split()
        if len(header) != 2 or not header[1].startswith(oauth.ACCESS_TOKEN_PREFIX.encode()):
            return None
        found = super().authenticate(request)
        if found is None or not found[0].is_active:
            raise exceptions.AuthenticationFailed("Invalid, expired or revoked token.")
        return found

    def authenticate_header(self, request: Request) -> str:
        return 'Bearer realm="api"'


def token_scope(request: Request) -> str | None:
    """The scope of the token behind this request (an app's token counts as the personal-token
    scope it was granted), or None for session authentication."""
    auth: Any = getattr(request, "auth", None)
    if oauth.is_app_token(auth):
        return oauth.app_token_scope(auth)
    return auth.scope if isinstance(auth, ApiToken) else None
