"""live.threads: a request's thread gives back its database connections when it is let go.

A connection left open on a released thread (the last-seen middleware's write after a stream's
view, a session saved after the view) went with the thread: with PostgreSQL's connection pool its
slot never came back, and a live process under load ran out of connections (503s on every stream
setup). ``test_stream_pool`` shows the same through a real server.
"""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connections

from live.threads import RequestThread

pytestmark = pytest.mark.django_db(transaction=True)


def open_a_connection() -> tuple[threading.Thread, Any]:
    """On the request's thread: use the database, as a middleware after the view does."""
    connection = connections["default"]
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return threading.current_thread(), connection


@pytest.mark.parametrize("let_go", ["release", "shutdown"])
def test_a_request_thread_closes_its_connections_before_it_ends(let_go: str) -> None:
    executor = RequestThread()
    thread, connection = executor.submit(open_a_connection).result(timeout=10)
    assert connection.connection is not None  # open on the request's thread
    if let_go == "release":
        executor.release()  # a stream about to wait
    else:
        executor.shutdown(wait=False)  # the request's end
    thread.join(timeout=10)
    assert not thread.is_alive()
    assert connection.connection is None


def test_the_next_call_after_a_release_runs_on_a_new_thread_with_a_working_connection() -> None:
    executor = RequestThread()
    first, _ = executor.submit(open_a_connection).result(timeout=10)
    executor.release()
    second, connection = executor.submit(open_a_connection).result(timeout=10)
    try:
        assert second is not first
        assert connection.connection is not None
    finally:
        executor.shutdown(wait=True)
    assert connection.connection is None
