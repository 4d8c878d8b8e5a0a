"""The optional error reporter (config/sentry.py): with ``SENTRY_DSN`` set, an exception in a
view reaches the Sentry server, without personal data; without it, nothing is initialised.

The service runs in a subprocess (settings initialise Sentry at start-up, once per process),
against a fake Sentry: an HTTP server of this test on a free port that keeps what it is sent.
"""

from __future__ import annotations

import gzip
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
import sentry_sdk

from tests.child_python import python_json
from tests.test_serve import ROOT

# A view that fails, for the test: healthz is replaced before the URLconf is first loaded.
SCRIPT = """
import json, django
django.setup()
import config.views
def boom(request):
    raise RuntimeError("boom-for-the-error-reporter")
config.views.healthz = boom
import sentry_sdk
from django.test import Client
response = Client(raise_request_exception=False).get(
    "/healthz",
    headers={"Cookie": "private=hunter2-cookie", "Host": "localhost"},
    REMOTE_ADDR="203.0.113.9",
)
sentry_sdk.flush(10)
print(json.dumps({"status": response.status_code, "active": sentry_sdk.get_client().is_active()}))
"""


class FakeSentry:
    def __init__(self) -> None:
        self.bodies: list[bytes] = []
        self.paths: list[str] = []
        received = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                if self.headers.get("Content-Encoding") == "gzip":
                    raw = gzip.decompress(raw)
                received.paths.append(self.path)
                received.bodies.append(raw)
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.end_headers()
                self.wfile.write(b"{}")

            def log_message(self, format: str, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]

    def events(self) -> list[dict[str, object]]:
        """The error events among the envelopes' items (one JSON document per line)."""
        found = []
        for body in self.bodies:
            for line in body.splitlines():
                try:
                    item = json.loads(line)
                except ValueError:
                    continue
                if isinstance(item, dict) and "exception" in item:
                    found.append(item)
        return found


@pytest.fixture
def fake_sentry() -> Iterator[FakeSentry]:
    sentry = FakeSentry()
    thread = threading.Thread(target=sentry.server.serve_forever, daemon=True)
    thread.start()
    yield sentry
    sentry.server.shutdown()
    sentry.server.server_close()


def run_service(tmp_path: Path, **environ: str) -> dict[str, object]:
    env = {
        "PATH": "/usr/bin:/bin",
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "SQLITE_PATH": str(tmp_path / "db.sqlite3"),
        "PYTHONPATH": str(ROOT),
        **environ,
    }
    result: dict[str, object] = python_json(SCRIPT, env=env, timeout=90)
    return result


def test_an_exception_in_a_view_is_reported_without_personal_data(
    fake_sentry: FakeSentry, tmp_path: Path
) -> None:
    dsn = f"http://publickey@127.0.0.1:{fake_sentry.port}/42"
    result = run_service(
        tmp_path, SENTRY_DSN=dsn, SENTRY_ENVIRONMENT="staging", SENTRY_RELEASE="v1.2.3"
    )

    assert result == {"status": 500, "active": True}
    assert all(path.startswith("/api/42/") for path in fake_sentry.paths), fake_sentry.paths
    (event,) = fake_sentry.events()
    exception = event["exception"]["values"][-1]  # type: ignore[index]
    assert exception["type"] == "RuntimeError"
    assert exception["value"] == "boom-for-the-error-reporter"
    assert event["environment"] == "staging"
    assert event["release"] == "v1.2.3"
    sent = b"".join(fake_sentry.bodies)
    assert b"hunter2-cookie" not in sent
    assert b"203.0.113.9" not in sent


def test_without_a_dsn_nothing_is_initialised_or_sent(
    fake_sentry: FakeSentry, tmp_path: Path
) -> None:
    result = run_service(tmp_path)
    assert result == {"status": 500, "active": False}
    assert fake_sentry.bodies == []
    # Nor in this test process, whose settings were read without SENTRY_DSN.
    assert not sentry_sdk.get_client().is_active()
