"""Where webhooks and pushes may be sent: http(s) URLs on public addresses.

The service POSTs to URLs that players (and their apps and browsers) give it, so a URL must not
make it reach what only it can reach: loopback, private, link-local and reserved addresses are
refused, at registration and again when each connection is opened: ``outbound.pinned_session``
connects to the very addresses ``checked_addresses`` approved, so a name re-pointed between the
check and the request (DNS rebinding) gains nothing. Loopback is allowed when ``DEBUG`` or
``WEBHOOK_ALLOW_LOOPBACK`` is on (development, tests).

IPv6 forms that carry an IPv4 address (IPv4-mapped ``::ffff:a.b.c.d``, IPv4-compatible
``::a.b.c.d``, 6to4 ``2002:AABB:CCDD::``, Teredo, NAT64 ``64:ff9b::a.b.c.d``) are judged by the
IPv4 address inside: a host or router that translates them reaches that address. Site-local
``fec0::/10`` (deprecated, still routed inside some networks) and the local-use NAT64 prefix are
refused like private ranges.
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


IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

# RFC 6052's well-known NAT64 prefix (the IPv4 address is the last 32 bits) and RFC 4291's
# deprecated IPv4-compatible addresses (::a.b.c.d; :: and ::1 themselves are not IPv4).
NAT64 = ipaddress.IPv6Network("64:ff9b::/96")
IPV4_COMPATIBLE = ipaddress.IPv6Network("::/96")
# Never public, though Python 3.11's ipaddress calls them global.
NOT_GLOBAL = (
    ipaddress.IPv6Network("fec0::/10"),  # site-local (RFC 3879)
    ipaddress.IPv6Network("64:ff9b:1::/48"),  # local-use NAT64 (RFC 8215)
)


def embedded_ipv4(ip: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 transition form reaches, if ``ip`` is one."""
    if ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    if ip.sixtofour is not None:
        return ip.sixtofour
    if ip.teredo is not None:
        return ip.teredo[1]
    if ip in NAT64 or (ip in IPV4_COMPATIBLE and int(ip) > 1):
        return ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    return None


def address_allowed(ip: IPAddress) -> bool:
    if isinstance(ip, ipaddress.IPv6Address):
        if any(ip in network for network in NOT_GLOBAL):
            return False
        inner = embedded_ipv4(ip)
        if inner is not None:
            ip = inner
    if ip.is_loopback:
        return loopback_allowed()
    return ip.is_global and not ip.is_multicast


def checked_addresses(host: str, port: int) -> list[IPAddress]:
    """Every address ``host`` resolves to (itself, when it is an address), in the resolver's
    order, if all of them may be reached; else ``AddressNotAllowed``. Refusing the whole name
    when one of its addresses is refused keeps a round-robin answer from being half-private."""
    literal = _literal(host)
    if literal is not None:
        return _checked([literal], host)
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        raise AddressNotAllowed(f"cannot resolve {host}") from None
    addresses: list[IPAddress] = []
    for info in infos:
        address = ipaddress.ip_address(str(info[4][0]).split("%", 1)[0])
        if address not in addresses:
            addresses.append(address)
    return _checked(addresses, host)


def _literal(host: str) -> IPAddress | None:
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        return None


def _checked(addresses: list[IPAddress], host: str) -> list[IPAddress]:
    refused = sorted(str(a) for a in addresses if not address_allowed(a))
    if refused or not addresses:
        raise AddressNotAllowed(
            f"{host} is a loopback, private or reserved address ({', '.join(refused)})"
        )
    return addresses


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
    if resolve:
        checked_addresses(host, port or (443 if parts.scheme == "https" else 80))
    else:
        literal = _literal(host)
        if literal is not None:
            _checked([literal], host)
    return url
