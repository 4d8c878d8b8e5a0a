"""OpenAPI (drf-spectacular) descriptions of the accounts' authentication classes.

Imported by ``PlayersConfig.ready`` so the extension is registered before any schema is built.
"""

from __future__ import annotations

from typing import Any

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
