"""OpenAPI (drf-spectacular) descriptions of the accounts' authentication classes.

Imported by ``PlayersConfig.ready`` so the extension is registered before any schema is built.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from django.urls import URLResolver, get_resolver
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.plumbing import build_bearer_security_scheme_object


class BearerTokenScheme(OpenApiAuthenticationExtension):  # type: ignore[misc]
    target_class = "players.auth.BearerTokenAuthentication"
    name = "bearerAuth"

    def get_security_definition(self, auto_schema: Any) -> dict[str, Any]:
        scheme: dict[str, Any] = build_bearer_security_scheme_object(
            header_name="Authorization", token_prefix="Bearer"
        )
        scheme["description"] = (
            "`Authorization: Bearer uaw_…` with a token from `POST /api/v1/auth/tokens/` or "
            "`POST /api/v1/auth/signup/`. A `read` token may only use GET."
        )
        return scheme


@cache
def _route_names(path: str) -> set[str]:
    """The URL names of the route the schema writes as ``path`` (``/api/v1/x/{id}/``): the
    schema's mock request was never resolved, and the account routes are known by name."""
    names: set[str] = set()

    def walk(patterns: list[Any], prefix: str) -> None:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                walk(pattern.url_patterns, prefix + str(pattern.pattern))
            elif pattern.name and _as_schema_path(prefix + str(pattern.pattern)) == path:
                names.add(pattern.name)

    walk(get_resolver().url_patterns, "/")
    return names


def _as_schema_path(route: str) -> str:
    return re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", route)


class OAuthScheme(OpenApiAuthenticationExtension):  # type: ignore[misc]
    """An app's OAuth token (players/oauth.py): the authorization-code flow with PKCE, and on
    each operation the scope it needs, as ``TokenScopePermission`` checks it."""

    target_class = "players.auth.OAuthAuthentication"
    name = "oauth2"

    def get_security_requirement(self, auto_schema: Any) -> dict[str, list[str]] | None:
        from players.oauth import ACCOUNT_ROUTES, ACCOUNT_ROUTES_UNSAFE

        safe = auto_schema.method in ("GET", "HEAD", "OPTIONS")
        names = _route_names(auto_schema.path)
        if names & ACCOUNT_ROUTES or (names & ACCOUNT_ROUTES_UNSAFE and not safe):
            return None  # an app's token is refused here
        return {self.name: ["read" if safe else "play"]}

    def get_security_definition(self, auto_schema: Any) -> dict[str, Any]:
        from players.oauth import SCOPES

        return {
            "type": "oauth2",
            "description": "A third-party app's token (`Bearer uao_…`), from the authorization "
            "code flow with PKCE (S256); see docs/oauth.md. `read` may only use GET; `play` "
            "may also act. Apps register at `POST /api/v1/me/oauth/apps/`.",
            "flows": {
                "authorizationCode": {
                    "authorizationUrl": "/oauth/authorize",
                    "tokenUrl": "/oauth/token/",
                    "refreshUrl": "/oauth/token/",
                    "scopes": dict(SCOPES),
                }
            },
        }
