"""Static files are served by WhiteNoise's own middleware, under ASGI and WSGI alike, and an API
request passes it untouched."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from django.test import AsyncClient, Client

pytestmark = pytest.mark.django_db


@pytest.fixture
def static_root(tmp_path: Path, settings: Any) -> Path:
    (tmp_path / "hello.txt").write_text("static hello\n")
    settings.STATIC_ROOT = tmp_path
    settings.DEBUG = False
    return tmp_path


# Django serves a sync file iterator to an async client with this warning.
@pytest.mark.filterwarnings("ignore:StreamingHttpResponse must consume synchronous iterators")
def test_under_asgi_static_files_are_served_and_api_requests_pass(static_root: Path) -> None:
    client = AsyncClient()

    assert async_to_sync(client.get)("/healthz").status_code == 200
    response = async_to_sync(client.get)("/static/hello.txt")
    assert response.status_code == 200
    assert b"".join(async_to_sync(_read)(response)) == b"static hello\n"


async def _read(response: Any) -> list[bytes]:
    return [chunk async for chunk in response]


def test_under_wsgi_static_files_are_served_and_api_requests_pass(static_root: Path) -> None:
    response = Client().get("/static/hello.txt")
    assert response.status_code == 200
    assert b"".join(response.streaming_content) == b"static hello\n"
    assert Client().get("/healthz").status_code == 200
