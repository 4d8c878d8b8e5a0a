"""The HTTP session that webhooks and Web Push send through: it connects only to addresses that
``addresses.checked_addresses`` approved, at the moment it connects, and never follows a redirect.

Checking a URL and then letting ``requests`` connect would resolve the name twice: a name that
answers a public address to the check and a private one to the connection (DNS rebinding) would
get through, and so would a redirect to a refused address, since ``requests`` follows redirects
without asking us. Here the socket is opened by ``_pinned_socket`` to the very address just checked;
everything else is urllib3's own: the request still names the host (``Host`` header), and TLS
still sends the host name (SNI) and verifies the certificate against it, because only the socket's
destination changes, not the connection's ``host``.
"""

from __future__ import annotations

import socket
from typing import Any

import requests
from requests.adapters import HTTPAdapter
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool
from urllib3.exceptions import ConnectTimeoutError, NewConnectionError
from urllib3.util import connection

from notifications.channels.addresses import checked_addresses


def _pinned_socket(conn: HTTPConnection) -> socket.socket:
    """A socket to one of the checked addresses of ``conn``'s host, tried in the resolver's
    order. Raises ``AddressNotAllowed`` (not a connection error: retrying will not help) when any
    of them is refused."""
    port = conn.port or (443 if isinstance(conn, HTTPSConnection) else 80)
    error: OSError | None = None
    # _dns_host: the host as urllib3 itself would resolve it (no brackets, no trailing dot).
    for address in checked_addresses(conn._dns_host, port):
        try:
            return connection.create_connection(
                (str(address), port),
                conn.timeout,
                source_address=conn.source_address,
                socket_options=conn.socket_options,
            )
        except TimeoutError as exc:
            raise ConnectTimeoutError(
                conn, f"Connection to {conn.host} timed out. (connect timeout={conn.timeout})"
            ) from exc
        except OSError as exc:
            error = exc
    raise NewConnectionError(conn, f"Failed to establish a new connection: {error}")


class _PinnedHTTPConnection(HTTPConnection):
    def _new_conn(self) -> socket.socket:
        return _pinned_socket(self)


class _PinnedHTTPSConnection(HTTPSConnection):
    def _new_conn(self) -> socket.socket:
        return _pinned_socket(self)


class _PinnedHTTPPool(HTTPConnectionPool):
    ConnectionCls = _PinnedHTTPConnection


class _PinnedHTTPSPool(HTTPSConnectionPool):
    ConnectionCls = _PinnedHTTPSConnection


class PinnedAdapter(HTTPAdapter):
    """requests' adapter with urllib3 pools whose connections open ``_pinned_socket``."""

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        super().init_poolmanager(*args, **kwargs)
        self.poolmanager.pool_classes_by_scheme = {
            "http": _PinnedHTTPPool,
            "https": _PinnedHTTPSPool,
        }

    def proxy_manager_for(self, proxy: str, **proxy_kwargs: Any) -> Any:
        # Through a proxy the socket goes to the proxy, and the check would be about it.
        raise requests.exceptions.InvalidProxyURL("outgoing webhooks and pushes use no proxy")


class PinnedSession(requests.Session):
    """A session for URLs that players give: no proxies from the environment, every connection
    through ``PinnedAdapter``, and redirects returned as they are instead of followed (a
    3xx is an answer the caller judges; pywebpush cannot be told ``allow_redirects=False``)."""

    def __init__(self) -> None:
        super().__init__()
        self.trust_env = False  # no proxies, no .netrc: the check must be about the receiver
        adapter = PinnedAdapter()
        self.mount("http://", adapter)
        self.mount("https://", adapter)

    def request(self, *args: Any, **kwargs: Any) -> requests.Response:  # type: ignore[override]
        kwargs["allow_redirects"] = False
        return super().request(*args, **kwargs)


def pinned_session() -> PinnedSession:
    return PinnedSession()
