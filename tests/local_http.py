"""Small HTTP(S) servers that tests run in a thread of their own process (a webhook receiver, a
push service, an upstream behind nginx), and self-signed certificates for the HTTPS ones."""

from __future__ import annotations

import datetime
import ssl
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID


class QuietHandler(BaseHTTPRequestHandler):
    """A handler that logs no request line: the test reads what its handler recorded instead."""

    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextmanager
def serving(
    handler: type[BaseHTTPRequestHandler], *, tls: ssl.SSLContext | None = None
) -> Iterator[ThreadingHTTPServer]:
    """``handler`` answering on 127.0.0.1 (a free port: ``server.server_address[1]``), over
    ``tls`` if given, in a daemon thread until the block ends."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    if tls is not None:
        server.socket = tls.wrap_socket(server.socket, server_side=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


def self_signed(
    name: str, cert_file: Path, key_file: Path, *, valid_for: datetime.timedelta, ca: bool = False
) -> None:
    """A new key and a certificate for the host ``name`` signed by that key (a CA's, when ``ca``:
    for a client that trusts it as its own authority), both written as PEM."""
    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    now = datetime.datetime.now(datetime.UTC)
    builder = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + valid_for)
        .add_extension(x509.SubjectAlternativeName([x509.DNSName(name)]), critical=False)
    )
    if ca:
        builder = builder.add_extension(
            x509.BasicConstraints(ca=True, path_length=None), critical=True
        )
    cert = builder.sign(key, hashes.SHA256())
    cert_file.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
