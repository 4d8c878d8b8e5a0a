"""Bearer-token authentication for phones and third-party apps.

``Authorization: Bearer uaw_…``. The token is looked up by its SHA-256 hash; revoked or expired
tokens and inactive users get 401.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils import timezone
from rest_framework import authentication, exceptions
from rest_framework.request import Request

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


def token_scope(request: Request) -> str | None:
    """The scope of the token behind this request, or None for session authentication."""
    auth: Any = getattr(request, "auth", None)
    return auth.scope if isinstance(auth, ApiToken) else None
