"""WhiteNoise as middleware that stays async under uvicorn.

``whitenoise.middleware.WhiteNoiseMiddleware`` is sync-only. In Django's async request path a
sync-only middleware near the top costs every request two thread hops: Django runs it through
``sync_to_async``, and it calls the (async) rest of the stack back through ``async_to_sync``.
This subclass is both sync and async capable: under ASGI an API request passes it with one
dictionary lookup and no hop, and only a static file is served in a thread (it reads files).
Under WSGI (and the test client) it is WhiteNoise's own middleware, unchanged.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction, sync_to_async
from django.http import HttpRequest, HttpResponseBase
from whitenoise.middleware import WhiteNoiseMiddleware


class StaticFilesMiddleware(WhiteNoiseMiddleware):
    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Callable[[HttpRequest], Any]) -> None:
        super().__init__(get_response)
        self.async_mode = iscoroutinefunction(get_response)
        if self.async_mode:
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest) -> Any:
        if self.async_mode:
            return self.__acall__(request)
        return super().__call__(request)

    async def __acall__(self, request: HttpRequest) -> HttpResponseBase:
        if self.autorefresh:  # DEBUG: looks on disk, so in a thread
            static_file = await sync_to_async(self.find_file)(request.path_info)
        else:
            static_file = self.files.get(request.path_info)
        if static_file is not None:
            return await sync_to_async(self.serve)(static_file, request)
        response: Awaitable[HttpResponseBase] = self.get_response(request)
        return await response
