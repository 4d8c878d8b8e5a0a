"""Where webhooks and pushes may be sent: http(s) URLs on public addresses.

The service POSTs to URLs that players (and their apps and browsers) give it, so a URL must not
make it reach what only it can reach: loopback, private, link-local and reserved addresses are
refused, at registration and again before every request (a name may have been pointed elsewhere
since). Loopback is allowed when ``DEBUG`` or ``WEBHOOK_ALLOW_LOOPBACK`` is on (development, tests).
A name re-pointed between the check and the request (DNS rebinding) is not caught.
"""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit

from django.conf import settings


class AddressNotAllowed(ValueError):
    """A URL that is malformed or points somewhere webhooks may not go."""


def loopback_allowed() -> bool:
    return bool(settings.DEBUG or getattr(settings, "WEBHOOK_ALLOW_LOOPBACK", False))


def address_allowed(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if ip.is_loopback:
        return loopback_allowed()
    return ip.is_global and not ip.is_multicast


def check_url(url: str, *, resolve: bool = True) -> str:
    """``url`` if webhooks may be sent to it, else ``AddressNotAllowed`` saying why."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise AddressNotAllowed("not a valid URL") from None
    if parts.scheme not in ("http", "https"):
        raise AddressNotAllowed("only http and https URLs")
    host = parts.hostname
    if not host:
        raise AddressNotAllowed("the URL has no host")
    if parts.username or parts.password:
        raise AddressNotAllowed("no user name or password in the URL; check the signature instead")
    try:
        literal = ipaddress.ip_address(host)
    except ValueError:
        literal = None
    if literal is not None:
        addresses = {literal}
    elif not resolve:
        return url
    else:
        try:
            infos = socket.getaddrinfo(
                host, port or (443 if parts.scheme == "https" else 80), type=socket.SOCK_STREAM
            )
        except (OSError, UnicodeError):
            raise AddressNotAllowed(f"cannot resolve {host}") from None
        addresses = {ipaddress.ip_address(info[4][0].split("%", 1)[0]) for info in infos}
    refused = sorted(str(a) for a in addresses if not address_allowed(a))
    if refused or not addresses:
        raise AddressNotAllowed(
            f"{host} is a loopback, private or reserved address ({', '.join(refused)})"
        )
    return url
