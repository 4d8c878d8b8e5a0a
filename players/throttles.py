"""The throttle for sign-up, log-in and the other account endpoints that take a password or
send mail."""

from __future__ import annotations

from typing import Any

from rest_framework.request import Request
from rest_framework.settings import api_settings
from rest_framework.throttling import ScopedRateThrottle

from players.oauth import AppRateThrottle


class AuthRateThrottle(ScopedRateThrottle):
    """DRF's ScopedRateThrottle, with the rates read on every request.

    DRF copies ``DEFAULT_THROTTLE_RATES`` into a class attribute at import time, so a changed
    setting (a test's ``settings`` override) would never reach it. ``api_settings`` is reloaded
    whenever the setting changes.
    """

    @property  # type: ignore[override]
    def THROTTLE_RATES(self) -> dict[str, Any]:  # noqa: N802  (DRF's name)
        return api_settings.DEFAULT_THROTTLE_RATES

    def allow_request(self, request: Request, view: Any) -> bool:
        # Views throttle only the methods listed in `throttled_methods` (all when absent), so
        # that listing one's tokens does not eat into the log-in allowance.
        methods = getattr(view, "throttled_methods", None)
        if methods is not None and request.method not in methods:
            return True
        return super().allow_request(request, view)


# Mixin of a view that spends its ``throttle_scope``'s allowance (per account or address, and per
# OAuth app) on ``throttled_methods`` only: by default creating (POST) spends it and listing is
# free. A comment, not a docstring: the schema would take a docstring as the description of an
# operation that gives none.
class ScopeThrottled:
    throttle_classes = [AuthRateThrottle, AppRateThrottle]
    throttle_scope: str
    throttled_methods: frozenset[str] | None = frozenset({"POST"})
