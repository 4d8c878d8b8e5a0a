"""Permissions: read-scoped tokens may only read."""

from __future__ import annotations

from typing import Any

from rest_framework import permissions
from rest_framework.request import Request

from players.auth import token_scope
from players.models import ApiToken


class TokenScopePermission(permissions.BasePermission):
    """Authenticated, and a `read` token may only use safe methods."""

    message = "This token is read-only: it cannot change anything."

    def has_permission(self, request: Request, view: Any) -> bool:
        if not (request.user and request.user.is_authenticated):
            return False
        if request.method in permissions.SAFE_METHODS:
            return True
        return token_scope(request) != ApiToken.SCOPE_READ
