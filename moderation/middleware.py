"""The moderators' panel speaks its moderator's language.

Django's LocaleMiddleware picks the language from the browser (Accept-Language); the panel's
user has chosen one in their profile (``players.User.language``), as every player has, and the
web client follows that choice. So once the session's user is known, their own language wins.
Only the panel's pages (the admin's URLs) are concerned: the API's requests authenticate later
(DRF, bearer tokens) and say their language with Accept-Language, and nothing else is slowed by
a session lookup. The log-in page, without a signed-in user, keeps the browser's language.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils import translation

from config.middleware import HybridMiddleware


class ProfileLanguageMiddleware(HybridMiddleware):
    """After LocaleMiddleware and AuthenticationMiddleware: activate the signed-in user's
    profile language, when it is one the service speaks. Only the panel's pages read the
    session's user."""

    def __init__(self, get_response: Callable[[HttpRequest], Any]) -> None:
        super().__init__(get_response)
        self.languages = {code for code, _name in settings.LANGUAGES}
        self.prefix = ""  # the admin's root, known once the URLconf is loaded

    def _in_panel(self, request: HttpRequest) -> bool:
        if not self.prefix:
            self.prefix = reverse("admin:index")
        return request.path.startswith(self.prefix)

    def _activate(self, request: HttpRequest) -> None:
        user = getattr(request, "user", None)
        language = getattr(user, "language", "") if user is not None else ""
        if user is not None and user.is_authenticated and language in self.languages:
            translation.activate(language)
            request.LANGUAGE_CODE = language  # type: ignore[attr-defined]

    def call_sync(self, request: HttpRequest) -> HttpResponse:
        if self._in_panel(request):
            self._activate(request)
        response: HttpResponse = self.get_response(request)
        return response

    async def __acall__(self, request: HttpRequest) -> HttpResponse:
        if self._in_panel(request):
            # The user is read lazily from the session, in the database: not on the event loop.
            await sync_to_async(self._activate)(request)
        response: HttpResponse = await self.get_response(request)
        return response
