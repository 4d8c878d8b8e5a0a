"""deploy/nginx-tls.conf, run by Debian's nginx: HTTPS with a certificate, plain HTTP redirected,
and what the app behind it is told: ``X-Forwarded-Proto: https`` (whatever the client sent, for
``SECURE_PROXY_SSL_HEADER=true``) and the host with its port (for the CSRF origin check).

web is a small HTTP server that answers with the headers it received; live is down, and the
proxy says so in the API's error shape.
"""

from __future__ import annotations

import datetime
import json
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from tests.local_http import QuietHandler, self_signed, serving
from tests.stack.harness import nginx_argv
from tests.test_serve import ROOT, free_port

pytestmark = pytest.mark.stack


class Echo(QuietHandler):
    def do_GET(self) -> None:  # noqa: N802 - the http.server API
        body = json.dumps(dict(self.headers.items())).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture
def echo() -> Iterator[str]:
    with serving(Echo) as server:
        yield f"127.0.0.1:{server.server_address[1]}"


def test_the_tls_example_serves_https_redirects_http_and_says_https_upstream(
    tmp_path: Path, echo: str
) -> None:
    cert, key = tmp_path / "fullchain.pem", tmp_path / "privkey.pem"
    self_signed("localhost", cert, key, valid_for=datetime.timedelta(days=1))
    http_port, https_port = free_port(), free_port()
    site = (ROOT / "deploy" / "nginx-tls.conf").read_text()
    replacements = {
        "server web:8000;": f"server {echo};",
        # Nothing listens there: live is down.
        "server live:8001;": f"server 127.0.0.1:{free_port()};",
        "    listen [::]:80;\n": "",
        "    listen [::]:443 ssl http2;\n": "",
        "listen 80;": f"listen 127.0.0.1:{http_port};",
        "listen 443 ssl http2;": f"listen 127.0.0.1:{https_port} ssl http2;",
        "/etc/letsencrypt/live/example.org/fullchain.pem": str(cert),
        "/etc/letsencrypt/live/example.org/privkey.pem": str(key),
        "server_name example.org;": "server_name localhost;",
    }
    for old, new in replacements.items():
        assert old in site, old
        site = site.replace(old, new)
    nginx = nginx_argv(tmp_path, site)
    checked = subprocess.run([*nginx, "-t"], capture_output=True, text=True, timeout=30)
    assert checked.returncode == 0, checked.stderr
    process = subprocess.Popen([*nginx, "-g", "daemon off;"], stderr=subprocess.PIPE)
    base = f"https://localhost:{https_port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                answer = requests.get(
                    f"{base}/api/v1/games/",
                    headers={"X-Forwarded-Proto": "http"},  # a client's claim, replaced
                    verify=str(cert),
                    timeout=10,
                )
                break
            except requests.ConnectionError:
                assert process.poll() is None, process.stderr and process.stderr.read()
                assert time.monotonic() < deadline, "nginx never answered on HTTPS"
                time.sleep(0.2)
        assert answer.status_code == 200
        seen = {k.lower(): v for k, v in answer.json().items()}
        assert seen["x-forwarded-proto"] == "https"
        assert seen["host"] == f"localhost:{https_port}"
        # live is down: the proxy's own answer, in the API's error shape.
        stream = requests.get(f"{base}/api/v1/games/1/stream/", verify=str(cert), timeout=10)
        assert stream.status_code == 503 and stream.headers["Retry-After"] == "5"
        assert stream.json()["error"]["code"] == "service_unavailable"

        plain = requests.get(
            f"http://localhost:{http_port}/games/1?x=y", allow_redirects=False, timeout=10
        )
        assert plain.status_code == 301
        assert plain.headers["Location"] == "https://localhost/games/1?x=y"
    finally:
        process.terminate()
        process.wait(timeout=20)
