"""A live request's thread: held while its sync code runs, given back while it waits.

Django runs each ASGI request inside an ``asgiref.sync.ThreadSensitiveContext``, and the sync
parts of the request (the ``request_started`` receivers, sync middleware, the DRF view) run on a
thread of the request's own: a ``ThreadPoolExecutor(max_workers=1)`` that asgiref creates at the
first such call and shuts down when the request ends. A long-poll or a stream would keep that
thread, idle, for as long as it waits: 2,000 streams, 2,000 threads. Calling sync code with
``thread_sensitive=False`` does not avoid it (Django's own ``request_started`` receivers made the
thread before the view ran).

asgiref lets the caller own the request's executor instead: ``ThreadSensitiveContext(executor=…)``
(asgiref 3.13: "the caller owns the executor: it is not shut down on exit"), entered outside
Django's own context, which then adds none. ``RequestThreads`` is that ASGI middleware, wrapped
around Django's application in ``config/asgi.py`` (Django's documented place for ASGI
middleware); its executor, ``RequestThread``, runs one call at a time on one thread as asgiref
requires, starts that thread on demand, and lets it go on ``release``: the stream driver and the
long polls call ``release_request_thread`` before they wait. The thread closes its database
connections as its last work before it ends: a connection left open on it (the last-seen
middleware's write, a session saved after the view) would otherwise go with the thread, and with
a connection pool its slot would never come back (the live process's pool ran dry under load).
The request's next sync call starts a new thread. Under WSGI, or under Django's handler without
the middleware (the test client's ``AsyncClient``), there is nothing to release and it does
nothing.
"""

from __future__ import annotations

import contextvars
import threading
from collections.abc import Awaitable, Callable, MutableMapping
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from typing import Any

from asgiref.sync import ThreadSensitiveContext
from django.db import connections

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def release_connections() -> None:
    """Close this thread's database connections (back to the pool, when there is one), so a
    waiting client holds none.

    Not inside a transaction: that is a test's (or ATOMIC_REQUESTS') and must stay open."""
    for connection in connections.all(initialized_only=True):
        if not connection.in_atomic_block:
            connection.close()


class RequestThread(Executor):
    """One request's sync calls, one at a time on one thread, started when needed and given
    back by ``release`` (between calls: the caller awaits each one before the next)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pool: ThreadPoolExecutor | None = None
        self._closed = False

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        with self._lock:
            if self._closed:
                raise RuntimeError("the request has ended")
            if self._pool is None:
                self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="request")
            return self._pool.submit(fn, *args, **kwargs)

    def release(self) -> None:
        """Let the thread go, its database connections closed first (it ends once that is
        done); the next call starts another."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.submit(release_connections)
            pool.shutdown(wait=False)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        with self._lock:
            pool, self._pool, self._closed = self._pool, None, True
        if pool is not None:
            if not cancel_futures:
                pool.submit(release_connections)  # as ``release``: none goes with the thread
            pool.shutdown(wait=wait, cancel_futures=cancel_futures)


_current: contextvars.ContextVar[RequestThread | None] = contextvars.ContextVar(
    "live_request_thread", default=None
)


def release_request_thread() -> None:
    """Give back this request's thread, and its database connections, while it waits
    (``RequestThreads``); call it from the event loop, between sync calls."""
    executor = _current.get()
    if executor is not None:
        executor.release()


class RequestThreads:
    """ASGI middleware: each HTTP request's thread-sensitive calls go to a ``RequestThread`` it
    owns, which the stream driver may give back while the request waits."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        executor = RequestThread()
        token = _current.set(executor)
        try:
            async with ThreadSensitiveContext(executor=executor):
                await self.app(scope, receive, send)
        finally:
            _current.reset(token)
            # Not waiting: a worker blocked on this event loop would deadlock a join here (as
            # asgiref's own exit avoids); an idle one ends at once.
            executor.shutdown(wait=False)
