"""config.static.StaticFilesMiddleware: WhiteNoise that keeps Django's async path async.

Under ASGI an API request must pass it without a thread hop (no ``sync_to_async``), and static
files are still served; under WSGI it is WhiteNoise's own middleware."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from asgiref import sync
from asgiref.sync import async_to_sync
from django.test import AsyncClient, Client

from config import static

pytestmark = pytest.mark.django_db


@pytest.fixture
def static_root(tmp_path: Path, settings: Any) -> Path:
    (tmp_path / "hello.txt").write_text("static hello\n")
    settings.STATIC_ROOT = tmp_path
    settings.DEBUG = False
    return tmp_path


# Django serves a sync file iterator to an async client with this warning, as it did with
# WhiteNoise's own middleware.
@pytest.mark.filterwarnings("ignore:StreamingHttpResponse must consume synchronous iterators")
def test_an_api_request_passes_without_a_thread_hop(
    static_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A sync-only middleware calls the async rest of the stack back through async_to_sync: the
    # only AsyncToSync of an API request must be this test's own.
    back_to_async: list[Any] = []
    real_call = sync.AsyncToSync.__call__

    def counted_call(self: Any, *args: Any, **kwargs: Any) -> Any:
        back_to_async.append(self)
        return real_call(self, *args, **kwargs)

    monkeypatch.setattr(sync.AsyncToSync, "__call__", counted_call)
    hops: list[Any] = []
    real = static.sync_to_async

    def counted(*args: Any, **kwargs: Any) -> Any:
        hops.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(static, "sync_to_async", counted)
    client = AsyncClient()

    response = async_to_sync(client.get)("/healthz")
    assert response.status_code == 200
    assert hops == []
    assert len(back_to_async) == 1

    response = async_to_sync(client.get)("/static/hello.txt")
    assert response.status_code == 200
    assert b"".join(async_to_sync(_read)(response)) == b"static hello\n"
    assert len(hops) == 1  # the file is served in a thread: it reads from disk


async def _read(response: Any) -> list[bytes]:
    return [chunk async for chunk in response]


def test_under_wsgi_it_serves_files_as_whitenoise_does(static_root: Path) -> None:
    response = Client().get("/static/hello.txt")
    assert response.status_code == 200
    assert b"".join(response.streaming_content) == b"static hello\n"
    assert Client().get("/healthz").status_code == 200
