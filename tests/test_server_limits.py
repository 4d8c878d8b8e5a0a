"""Every server the project starts bounds what a client may send before the application runs
(issue 36): an oversized header is refused at once and the server keeps answering others.

And the ASGI server takes a client's address from X-Forwarded-For only from a configured proxy.
"""

from __future__ import annotations

import asyncio
import socket
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from config.asgi_server import MAX_HEADER_BYTES, uvicorn_options
from tests.test_serve import embedded_environ, free_port, serve_command, server_process

ROOT = Path(__file__).resolve().parent.parent
OVERSIZED = 1024 * 1024  # 1 MB of one header: far over every bound, quick to send


def gunicorn_command(port: int) -> list[str]:
    """The API's server as deployed (config/gunicorn.conf.py), one worker, on ``port``."""
    return [
        sys.executable, "-m", "gunicorn", "--config", "config/gunicorn.conf.py",
        "--bind", f"127.0.0.1:{port}", "--workers", "1", "config.wsgi:application",
    ]  # fmt: skip


@contextmanager
def running(kind: str, tmp_path: Path) -> Iterator[int]:
    """The embedded `manage.py serve` (uvicorn) or gunicorn with config/gunicorn.conf.py."""
    port = free_port()
    command = serve_command(port) if kind == "serve" else gunicorn_command(port)
    with server_process(command, embedded_environ(tmp_path), port, tmp_path / "server.log"):
        yield port


# One server of each kind for the module: `serve` takes seconds to migrate and collect.
@pytest.fixture(scope="module")
def serve_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    with running("serve", tmp_path_factory.mktemp("serve")) as port:
        yield port


@pytest.fixture(scope="module")
def gunicorn_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    with running("gunicorn", tmp_path_factory.mktemp("gunicorn")) as port:
        yield port


@pytest.fixture(params=["serve", "gunicorn"])
def server(request: pytest.FixtureRequest) -> int:
    port: int = request.getfixturevalue(f"{request.param}_server")
    return port


def send_header_of(port: int, size: int) -> bytes:
    """Send a GET with one header of ``size`` bytes; what the server answered (b"": closed)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        head = b"GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Big: "
        try:
            sock.sendall(head)
            chunk = b"a" * 65536
            for _ in range(size // len(chunk)):
                sock.sendall(chunk)
            sock.sendall(b"\r\n\r\n")
        except (BrokenPipeError, ConnectionResetError):
            pass  # refused before we finished: what an attacker would see too
        answer = b""
        try:
            while data := sock.recv(65536):
                answer += data
                if b"\r\n\r\n" in answer:
                    break
        except (ConnectionResetError, TimeoutError):
            pass
        return answer


def test_an_oversized_header_is_refused_at_once_and_the_server_still_answers(server: int) -> None:
    started = time.monotonic()
    answer = send_header_of(server, OVERSIZED)
    took = time.monotonic() - started
    status = answer.split(b"\r\n", 1)[0]
    # Refused: 400/431 (or the connection closed without an answer), never a 200.
    assert status == b"" or status.split()[1] in {b"400", b"431"}, status
    assert took < 5, f"the oversized header took {took:.1f} s to be refused"
    with urllib.request.urlopen(f"http://127.0.0.1:{server}/healthz", timeout=2) as response:
        assert response.status == 200


def test_a_header_within_the_bound_is_served(server: int) -> None:
    answer = send_header_of(server, 4000)
    assert answer.startswith(b"HTTP/1.1 200"), answer[:200]


def post_raw(port: int, head: bytes, chunks: Iterator[bytes]) -> bytes:
    """Send a request head, then body chunks until the server answers or closes; its answer."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        try:
            sock.sendall(head)
            for chunk in chunks:
                sock.sendall(chunk)
        except (BrokenPipeError, ConnectionResetError):
            pass
        answer = b""
        try:
            while data := sock.recv(65536):
                answer += data
        except (ConnectionResetError, TimeoutError):
            pass
        return answer


def test_a_body_declared_over_the_bound_is_refused_before_it_is_sent(server: int) -> None:
    head = (
        b"POST /api/v1/auth/signup/ HTTP/1.1\r\nHost: localhost\r\n"
        b"Content-Type: application/json\r\nContent-Length: 100000000\r\n\r\n"
    )
    started = time.monotonic()
    answer = post_raw(server, head, iter([b"{"]))
    assert answer.startswith(b"HTTP/1.1 413"), answer[:300]
    assert b"request_too_large" in answer
    assert time.monotonic() - started < 5


def test_an_endless_chunked_body_is_cut_off_under_asgi(serve_server: int) -> None:
    # No length declared: uvicorn passes the chunks on, and the bound counts them.
    head = (
        b"POST /api/v1/auth/signup/ HTTP/1.1\r\nHost: localhost\r\n"
        b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
    )
    chunk = b"a" * 65536
    endless = (b"%x\r\n%s\r\n" % (len(chunk), chunk) for _ in range(10_000))  # 640 MB
    started = time.monotonic()
    answer = post_raw(serve_server, head, endless)
    assert answer.startswith(b"HTTP/1.1 413"), answer[:300]
    assert time.monotonic() - started < 10


async def client_seen(options: dict[str, Any], peer: str, forwarded_for: str) -> Any:
    """The client address the application sees behind uvicorn's proxy handling."""
    seen: dict[str, Any] = {}

    async def app(scope: Any, receive: Any, send: Any) -> None:
        seen["client"] = scope["client"]

    config = uvicorn.Config(app, **options)
    config.load()
    scope = {
        "type": "http",
        "client": (peer, 40000),
        "headers": [(b"x-forwarded-for", forwarded_for.encode())],
    }
    await config.loaded_app(scope, None, None)
    return seen["client"][0]


@pytest.mark.parametrize(
    ("num_proxies", "peer", "expected"),
    [
        # No proxy in front: a header the client wrote itself changes nothing.
        (0, "127.0.0.1", "127.0.0.1"),
        # One proxy: the address it appended (the right-most), not the client's own claim.
        (1, "127.0.0.1", "203.0.113.7"),
        # A peer that is not a configured proxy: its header is ignored.
        (1, "198.51.100.9", "198.51.100.9"),
    ],
)
def test_uvicorn_takes_the_client_from_x_forwarded_for_only_from_a_configured_proxy(
    settings: Any, num_proxies: int, peer: str, expected: str
) -> None:
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": num_proxies}
    settings.FORWARDED_ALLOW_IPS = "127.0.0.1"
    options = {k: v for k, v in uvicorn_options().items() if k != "lifespan"}
    assert asyncio.run(client_seen(options, peer, "6.6.6.6, 203.0.113.7")) == expected


def test_uvicorn_parses_with_the_bounded_h11() -> None:
    options = uvicorn_options()
    assert options["http"] == "h11"
    assert options["h11_max_incomplete_event_size"] == MAX_HEADER_BYTES
