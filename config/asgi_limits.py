"""A bound on request bodies under ASGI, before Django reads them.

Django's ASGI handler reads a request's whole body before the view runs, into memory and then a
temporary file, however big it is; ``DATA_UPLOAD_MAX_MEMORY_SIZE`` is checked only afterwards,
when the view reads it. So a client could fill the disk with one endless upload, or hold a worker
thread while it trickles one in. This wrapper answers 413 (the API's ``request_too_large``) as soon
as the declared length or the bytes received pass ``DATA_UPLOAD_MAX_MEMORY_SIZE``: no body the
service takes comes near it (nothing is uploaded as a file).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from config import error_codes as codes
from config.errors import REQUEST_TOO_LARGE, error_body

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class _BodyTooLarge(Exception):
    pass


class BodySizeLimit:
    """Wrap an ASGI app; ``max_bytes`` is read once per request (tests change the setting)."""

    def __init__(self, app: ASGIApp, max_bytes: Callable[[], int | None]) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        limit = self.max_bytes() if scope["type"] == "http" else None
        if limit is None:
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length", b"")
        if declared.isdigit() and int(declared) > limit:
            await self._refuse(send)
            return
        received = 0
        started = False

        async def counting_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise _BodyTooLarge
            return message

        async def watching_send(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counting_receive, watching_send)
        except _BodyTooLarge:
            # Chunked, without a length: found out while reading, before any answer was sent
            # (Django reads the whole body before the view runs).
            if not started:
                await self._refuse(send)

    @staticmethod
    async def _refuse(send: Send) -> None:
        body = json.dumps(error_body(codes.REQUEST_TOO_LARGE.code, REQUEST_TOO_LARGE)).encode()
        await send(
            {
                "type": "http.response.start",
                "status": codes.REQUEST_TOO_LARGE.status,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    # The rest of the body is never read: the connection cannot be reused.
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})
