"""Permissions: read-scoped tokens may only read."""

from __future__ import annotations

from typing import Any

from rest_framework import permissions
from rest_framework.request import Request

from players import oauth
from players.auth import token_scope
from players.models import ApiToken

ACCOUNT_ONLY = "An app's token cannot manage the account: this needs the player's own sign-in."


class TokenScopePermission(permissions.BasePermission):
    """Authenticated, and a `read` token may only use safe methods. An app's OAuth token counts
    as the scope it was granted, and never reaches the account's own routes
    (``players.oauth.ACCOUNT_ROUTES``)."""

    message = "This token is read-only: it cannot change anything."

    def has_permission(self, request: Request, view: Any) -> bool:
        if not (request.user and request.user.is_authenticated):
            return False
        if oauth.is_app_token(request.auth) and oauth.account_route(request):
            self.message = ACCOUNT_ONLY
            return False
        if request.method in permissions.SAFE_METHODS:
            return True
        return token_scope(request) != ApiToken.SCOPE_READ
