"""The frame of every middleware of ours that is sync and async capable, so that under ASGI a
chain of async middleware stays async (a waiting long-poll holds no thread): Django's own
recipe (``markcoroutinefunction`` when the next handler is async), written once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.http import HttpRequest


class HybridMiddleware:
    """A subclass does its work in ``call_sync`` and ``__acall__`` (the same work, awaiting
    ``get_response`` and anything that touches the database)."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Callable[[HttpRequest], Any]) -> None:
        self.get_response = get_response
        if iscoroutinefunction(get_response):
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest) -> Any:
        if iscoroutinefunction(self):
            return self.__acall__(request)
        return self.call_sync(request)

    def call_sync(self, request: HttpRequest) -> Any:
        raise NotImplementedError

    async def __acall__(self, request: HttpRequest) -> Any:
        raise NotImplementedError
