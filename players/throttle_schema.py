"""The API's AutoSchema (drf-spectacular's ``DEFAULT_SCHEMA_CLASS``): drf-spectacular's own,
which also declares the 429 an operation's throttles may answer, with ``Retry-After``. It lives
with the accounts, whose throttles (``players.throttles``, the per-app ``players.oauth``) it reads.

A view declares its own refusals (``error_response``); a rate limit is the stack's, read from the
view's throttles rather than restated by each view (issue 33 §5: "429 ... declared where they
can happen"): a scoped throttle with a scope (for the methods it counts), any other throttle
always, and the per-app throttle where an app's token reaches the operation (its ``oauth2``
security requirement)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.openapi import AutoSchema as SpectacularAutoSchema
from rest_framework.throttling import ScopedRateThrottle

from config.api_responses import THROTTLED
from players.oauth import AppRateThrottle

RETRY_AFTER_HEADER = {
    "schema": {"type": "integer"},
    "description": "Seconds to wait before retrying.",
}


class AutoSchema(SpectacularAutoSchema):
    def get_operation(self, *args: Any, **kwargs: Any) -> dict[str, Any] | None:
        operation: dict[str, Any] | None = super().get_operation(*args, **kwargs)
        if operation is None or not self._may_throttle(operation):
            return operation
        responses = operation.setdefault("responses", {})
        throttled = responses.setdefault(
            "429",
            {
                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
                "description": THROTTLED.description,
            },
        )
        throttled.setdefault("headers", {}).setdefault("Retry-After", dict(RETRY_AFTER_HEADER))
        return operation

    def _may_throttle(self, operation: dict[str, Any]) -> bool:
        app_reaches = any("oauth2" in requirement for requirement in operation.get("security", []))
        for throttle in self.view.get_throttles():
            if isinstance(throttle, AppRateThrottle):
                if app_reaches:
                    return True
            elif isinstance(throttle, ScopedRateThrottle):
                if self._scope_counts(throttle):
                    return True
            else:
                return True
        return False

    def _scope_counts(self, throttle: ScopedRateThrottle) -> bool:
        """A scoped throttle limits a view that names a scope, for the methods it counts
        (``throttled_methods``: all when absent, players.throttles.AuthRateThrottle)."""
        if getattr(self.view, throttle.scope_attr, None) is None:
            return False
        methods = getattr(self.view, "throttled_methods", None)
        return methods is None or self.method in methods
