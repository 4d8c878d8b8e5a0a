"""The server's VAPID key pair (RFC 8292), which signs every Web Push request.

Browsers subscribe with the public key (``GET notifications/webpush/key/``); a push service only
accepts pushes to that subscription signed with the matching private key. So the pair must stay
the same across restarts, or every subscription stops working.

Where the pair comes from, in order:

1. ``VAPID_PRIVATE_KEY`` (and optionally ``VAPID_PUBLIC_KEY``, which must match) from the
   environment: base64url of the raw 32-byte private number (what ``vapid --gen`` and the npm
   ``web-push generate-vapid-keys`` print), base64 DER, or PEM.
2. Otherwise, in debug or embedded (SQLite) mode, a pair generated once and kept in
   ``VAPID_KEY_FILE`` (beside the SQLite file), so restarts keep it.
3. Otherwise none: Web Push is off, and the key endpoint answers 404 ``push_unavailable``.

No Django models here: ``check_settings`` validates the configured pair when the app is ready.
"""

from __future__ import annotations

import base64
import contextlib
import logging
import os
from dataclasses import dataclass
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.core.exceptions import ImproperlyConfigured
from py_vapid import Vapid02

logger = logging.getLogger(__name__)


class VapidKeyError(ValueError):
    """A configured VAPID key that does not parse or does not match its public half."""


@dataclass(frozen=True)
class VapidKeys:
    vapid: Vapid02  # signs the JWTs
    public_key: str  # base64url (no padding) of the uncompressed P-256 point: what browsers want


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64url_decode(text: str) -> bytes:
    text = text.strip()
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def public_key_of(vapid: Vapid02) -> str:
    return b64url(
        vapid.public_key.public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
    )


def parse_private_key(text: str) -> Vapid02:
    """A private key given as base64url raw, base64 DER or PEM."""
    text = text.strip()
    try:
        if text.startswith("-----BEGIN"):
            key = serialization.load_pem_private_key(text.encode(), password=None)
        else:
            raw = b64url_decode(text.replace("\n", "").replace("+", "-").replace("/", "_"))
            if len(raw) == 32:
                key = ec.derive_private_key(int.from_bytes(raw, "big"), ec.SECP256R1())
            else:
                key = serialization.load_der_private_key(raw, password=None)
    except Exception as exc:
        raise VapidKeyError(f"not a P-256 private key ({exc.__class__.__name__})") from None
    if not isinstance(key, ec.EllipticCurvePrivateKey) or not isinstance(key.curve, ec.SECP256R1):
        raise VapidKeyError("not a P-256 (prime256v1) private key")
    return Vapid02(key)


def from_settings(private_key: str, public_key: str) -> VapidKeys:
    """The configured pair; raises ``VapidKeyError`` when the halves do not match."""
    vapid = parse_private_key(private_key)
    derived = public_key_of(vapid)
    if public_key and public_key.strip().rstrip("=") != derived:
        raise VapidKeyError("VAPID_PUBLIC_KEY is not the public half of VAPID_PRIVATE_KEY")
    return VapidKeys(vapid=vapid, public_key=derived)


def load_or_create(path: Path) -> VapidKeys:
    """The pair kept in ``path``, generated and written (mode 0600) on first use. Safe when two
    processes start at once: the file is created exclusively and the loser reads the winner's."""
    if not path.exists():
        key = ec.generate_private_key(ec.SECP256R1())
        pem = key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
        path.parent.mkdir(parents=True, exist_ok=True)
        with contextlib.suppress(FileExistsError):
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "wb") as out:
                out.write(pem)
            logger.info("Web Push: generated a VAPID key pair in %s", path)
    vapid = parse_private_key(path.read_text())
    return VapidKeys(vapid=vapid, public_key=public_key_of(vapid))


_cache: dict[tuple[str, str, str], VapidKeys | None] = {}


def current() -> VapidKeys | None:
    """The pair to sign with, or None when Web Push is not configured (see the module doc)."""
    from django.conf import settings

    private = getattr(settings, "VAPID_PRIVATE_KEY", "") or ""
    public = getattr(settings, "VAPID_PUBLIC_KEY", "") or ""
    key_file = getattr(settings, "VAPID_KEY_FILE", None)
    cache_key = (private, public, str(key_file or ""))
    if cache_key not in _cache:
        if private:
            _cache[cache_key] = from_settings(private, public)
        elif key_file:
            try:
                _cache[cache_key] = load_or_create(Path(key_file))
            except (OSError, VapidKeyError):
                logger.exception("Web Push is off: cannot read or write %s", key_file)
                return None  # not cached: the next call tries again
        else:
            _cache[cache_key] = None
    return _cache[cache_key]


def check_settings(private_key: str, public_key: str) -> None:
    """Refuse a configured pair that does not parse or whose halves do not match, at start-up
    (``NotificationsConfig.ready``) rather than at the first push."""
    if not private_key:
        return
    try:
        from_settings(private_key, public_key)
    except VapidKeyError as exc:
        raise ImproperlyConfigured(f"VAPID_PRIVATE_KEY / VAPID_PUBLIC_KEY: {exc}.") from None
