"""The session webhooks and pushes go through (notifications/channels/outbound.py): it connects to
the address it checked, yet TLS still names the host (SNI) and checks the certificate against it,
and a redirect is handed back, not followed."""

from __future__ import annotations

import datetime
import ipaddress
import ssl
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import requests
from django.test import override_settings

from notifications.channels.addresses import AddressNotAllowed, address_allowed
from notifications.channels.outbound import pinned_session
from tests.local_http import QuietHandler, self_signed, serving
from tests.notifications.dns import FakeDNS

NAME = "hook.pinned.test"


@dataclass
class TLSServer:
    port: int
    ca_file: Path
    server_names: list[str | None] = field(default_factory=list)
    hosts: list[str] = field(default_factory=list)


@pytest.fixture
def tls_server(tmp_path: Path) -> Iterator[TLSServer]:
    """An HTTPS server on 127.0.0.1 with a certificate for ``NAME`` only; it answers 200, or 307
    to the metadata address for ``/redirect``."""
    cert_file, key_file = tmp_path / "cert.pem", tmp_path / "key.pem"
    self_signed(NAME, cert_file, key_file, valid_for=datetime.timedelta(hours=1), ca=True)
    server_names: list[str | None] = []
    hosts: list[str] = []

    class Handler(QuietHandler):
        def do_POST(self) -> None:  # noqa: N802  (http.server's name)
            self.rfile.read(int(self.headers.get("Content-Length", 0)))
            hosts.append(self.headers["Host"])
            if self.path == "/redirect":
                self.send_response(307)
                self.send_header("Location", "http://169.254.169.254/latest/meta-data/")
            else:
                self.send_response(200)
            self.send_header("Content-Length", "0")
            self.end_headers()

    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert_file, key_file)
    context.sni_callback = lambda sock, name, ctx: server_names.append(name)  # type: ignore[assignment,misc]
    with serving(Handler, tls=context) as server:
        yield TLSServer(server.server_address[1], cert_file, server_names, hosts)


@pytest.fixture(autouse=True)
def loopback_allowed() -> Iterator[None]:
    with override_settings(WEBHOOK_ALLOW_LOOPBACK=True):
        yield


def post(url: str, server: TLSServer) -> requests.Response:
    with pinned_session() as session:
        return session.post(url, data=b"{}", verify=str(server.ca_file), timeout=5)


def test_tls_names_the_host_and_checks_its_certificate(tls_server: TLSServer, dns: FakeDNS) -> None:
    dns.answers[NAME] = [["127.0.0.1"]]
    response = post(f"https://{NAME}:{tls_server.port}/hook", tls_server)
    assert response.status_code == 200
    assert tls_server.server_names == [NAME]
    assert tls_server.hosts == [f"{NAME}:{tls_server.port}"]
    assert dns.lookups == [NAME]  # resolved once: the address checked is the one connected to


def test_a_certificate_for_another_name_is_refused(tls_server: TLSServer, dns: FakeDNS) -> None:
    dns.answers["other.pinned.test"] = [["127.0.0.1"]]
    with pytest.raises(requests.exceptions.SSLError):
        post(f"https://other.pinned.test:{tls_server.port}/hook", tls_server)
    assert tls_server.hosts == []


def test_a_redirect_is_handed_back_not_followed(tls_server: TLSServer, dns: FakeDNS) -> None:
    dns.answers[NAME] = [["127.0.0.1"]]
    response = post(f"https://{NAME}:{tls_server.port}/redirect", tls_server)
    assert response.status_code == 307
    assert response.headers["Location"].startswith("http://169.254.169.254/")
    assert len(tls_server.hosts) == 1


def test_a_name_with_one_refused_address_among_several_is_refused(dns: FakeDNS) -> None:
    dns.answers["mixed.pinned.test"] = [["93.184.215.14", "10.0.0.7"]]
    with pytest.raises(AddressNotAllowed, match="10.0.0.7"):
        post("http://mixed.pinned.test/hook", TLSServer(0, Path("unused")))


@pytest.mark.parametrize(
    "address",
    [
        "::7f00:1",  # IPv4-compatible 127.0.0.1
        "2002:7f00:1::",  # 6to4 of 127.0.0.1
        "2002:a9fe:a9fe::1",  # 6to4 of 169.254.169.254
        "64:ff9b::a9fe:a9fe",  # NAT64 of 169.254.169.254
        "64:ff9b::a00:1",  # NAT64 of 10.0.0.1
        "2001:0:4136:e378:8000:63bf:80ff:fffe",  # Teredo, client 127.0.0.1
        "fec0::1",  # site-local
        "64:ff9b:1::1",  # local-use NAT64
        "::ffff:169.254.169.254",
    ],
)
def test_ipv6_forms_of_refused_addresses_are_refused(address: str) -> None:
    with override_settings(WEBHOOK_ALLOW_LOOPBACK=False, DEBUG=False):
        assert not address_allowed(ipaddress.ip_address(address))


@pytest.mark.parametrize(
    "address",
    ["2606:2800:21f:cb07:6820:80da:af6b:8b2c", "64:ff9b::5db8:d70e", "2002:5db8:d70e::1"],
)
def test_ipv6_forms_of_public_addresses_are_allowed(address: str) -> None:
    with override_settings(WEBHOOK_ALLOW_LOOPBACK=False, DEBUG=False):
        assert address_allowed(ipaddress.ip_address(address))
