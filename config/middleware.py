"""Django's own middleware, with their hooks run inline on Django's async path.

Under ASGI Django calls every hook of a ``MiddlewareMixin`` middleware (``process_request``,
``process_view``, ``process_response``) through ``sync_to_async``: a thread hop each, sixteen per
API request with the project's middleware, each a hand-over between the event loop and the
request's thread and a wait for the GIL on a busy process. These hooks do no I/O (they read and
set headers and cookies, build lazy objects) and so can run where they are called. The classes
below are Django's, with that one change; under WSGI they are exactly Django's.

The exceptions run in a thread still: the session middleware's response hook when it must save
the session (a database write), and the CSRF check of an unsafe request to a view that is not
exempt (it may parse the body). tests/test_middleware.py counts the hops.
"""

from __future__ import annotations

from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction, sync_to_async
from django.conf import settings
from django.contrib.auth.middleware import AuthenticationMiddleware as _Authentication
from django.contrib.messages.middleware import MessageMiddleware as _Messages
from django.contrib.sessions.middleware import SessionMiddleware as _Session
from django.http import HttpRequest, HttpResponseBase
from django.middleware.clickjacking import XFrameOptionsMiddleware as _XFrameOptions
from django.middleware.common import CommonMiddleware as _Common
from django.middleware.csrf import CsrfViewMiddleware as _Csrf
from django.middleware.security import SecurityMiddleware as _Security
from rest_framework.renderers import JSONRenderer


class InlineHooks:
    """``MiddlewareMixin.__acall__`` without the thread hops (see the module docstring)."""

    get_response: Any

    async def __acall__(self, request: HttpRequest) -> HttpResponseBase:
        response = None
        if hasattr(self, "process_request"):
            response = self.process_request(request)
        response = response or await self.get_response(request)
        if hasattr(self, "process_response"):
            response = await self._respond(request, response)
        return response

    async def _respond(self, request: HttpRequest, response: HttpResponseBase) -> Any:
        return self.process_response(request, response)  # type: ignore[attr-defined]


class SecurityMiddleware(InlineHooks, _Security):
    pass


class CommonMiddleware(InlineHooks, _Common):
    pass


class AuthenticationMiddleware(InlineHooks, _Authentication):
    pass


class MessageMiddleware(InlineHooks, _Messages):
    pass


class XFrameOptionsMiddleware(InlineHooks, _XFrameOptions):
    pass


class CsrfViewMiddleware(InlineHooks, _Csrf):
    def __init__(self, get_response: Any) -> None:
        super().__init__(get_response)
        # Django adapts a sync process_view with sync_to_async: an async one runs inline.
        if self.async_mode:
            self.process_view = self._async_process_view  # type: ignore[method-assign]

    async def _async_process_view(
        self, request: HttpRequest, callback: Any, args: Any, kwargs: Any
    ) -> Any:
        if request.method in _SAFE or getattr(callback, "csrf_exempt", False):
            # Nothing to check: no body is read, so no I/O.
            return _Csrf.process_view(self, request, callback, args, kwargs)
        # The check may parse the body (a multipart upload, files on disk) and render the
        # failure page: in a thread, as Django does, not on the event loop.
        return await sync_to_async(_Csrf.process_view, thread_sensitive=True)(
            self, request, callback, args, kwargs
        )


_SAFE = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})


class SessionMiddleware(InlineHooks, _Session):
    async def _respond(self, request: HttpRequest, response: HttpResponseBase) -> Any:
        session = getattr(request, "session", None)
        saves = session is not None and (session.modified or settings.SESSION_SAVE_EVERY_REQUEST)
        if saves:  # a database write: in the request's thread, as Django would
            return await sync_to_async(self.process_response, thread_sensitive=True)(
                request, response
            )
        return self.process_response(request, response)


class RenderJsonInline:
    """A DRF response rendered as JSON where the view returned it, not in a thread of its own.

    Django renders a response that has a ``render`` method (DRF's ``Response`` is a
    ``SimpleTemplateResponse``) through ``sync_to_async`` on its async path: one more thread hop
    per API request, after the view's. JSON rendering is ``json.dumps`` of data the view already
    built, no I/O, so ``process_template_response`` (which Django calls on the event loop right
    before that hop) renders it there and gives the response a coroutine ``render`` that only
    returns it, which Django awaits instead of hopping. Any other renderer (the browsable API's
    HTML may query the database) keeps Django's thread. Under WSGI this does nothing.
    """

    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response
        if iscoroutinefunction(get_response):
            markcoroutinefunction(self)
            self.process_template_response = self._render_json

    def __call__(self, request: HttpRequest) -> Any:
        return self.get_response(request)  # a coroutine under ASGI, awaited by Django

    async def _render_json(self, request: HttpRequest, response: Any) -> Any:
        renderer = getattr(response, "accepted_renderer", None)
        if type(renderer) is JSONRenderer and not response.is_rendered:
            response.render()

            async def rendered() -> Any:
                return response

            response.render = rendered
        return response
