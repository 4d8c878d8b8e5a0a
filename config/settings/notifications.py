"""Notifications: reminders, retries, Web Push, webhooks, retention.

Included by ``config/settings/__init__.py`` into one namespace: names from the parts
included before this one are in scope."""

from __future__ import annotations

from email.utils import parseaddr
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

from config.env import env_bool, env_int, env_list, env_str


def _fractions(name: str, default: list[str], help: str) -> list[float]:
    raw = env_list(name, default=default, help=help)
    try:
        values = sorted({float(x) for x in raw}, reverse=True)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a list of numbers, got {raw!r}.") from None
    if any(not 0 < v < 1 for v in values):
        raise ImproperlyConfigured(f"{name} must be fractions between 0 and 1, got {raw!r}.")
    return values


NOTIFY_REMINDER_FRACTIONS = _fractions(
    "NOTIFY_REMINDER_FRACTIONS",
    ["0.5", "0.1"],
    "Turn reminders when this fraction of the turn's time is left (comma-separated).",
)
NOTIFY_MAX_ATTEMPTS = env_int(
    "NOTIFY_MAX_ATTEMPTS",
    default=8,
    min_value=1,
    help="Tries of an e-mail (or other external) notification before it is given up.",
)
NOTIFY_RETRY_BASE_SECONDS = env_int(
    "NOTIFY_RETRY_BASE_SECONDS",
    default=30,
    min_value=1,
    help="Wait before the first retry of a failed delivery; doubles with every retry.",
)
NOTIFY_RETRY_MAX_SECONDS = env_int(
    "NOTIFY_RETRY_MAX_SECONDS",
    default=3600,
    min_value=1,
    help="Longest wait between two retries of a delivery.",
)
NOTIFY_CLAIM_TIMEOUT_SECONDS = env_int(
    "NOTIFY_CLAIM_TIMEOUT_SECONDS",
    default=600,
    min_value=30,
    help="A delivery claimed this long ago and not finished is sent again (its worker died).",
)

# Web Push (notifications/vapid.py). Without a configured key pair, debug and embedded (SQLite)
# mode generate one once and keep it beside the SQLite file, so restarts keep the subscriptions;
# elsewhere Web Push is off and the key endpoint answers 404 `push_unavailable`.
VAPID_PRIVATE_KEY = env_str(
    "VAPID_PRIVATE_KEY",
    default="",
    help="Web Push: the VAPID private key (base64url raw 32 bytes, base64 DER or PEM).",
)
VAPID_PUBLIC_KEY = env_str(
    "VAPID_PUBLIC_KEY",
    default="",
    help="Web Push: the VAPID public key (base64url); optional, must match the private key.",
)
VAPID_SUBJECT = env_str(
    "VAPID_SUBJECT",
    default="mailto:" + (parseaddr(DEFAULT_FROM_EMAIL)[1] or "noreply@localhost"),
    help="Web Push: who push services may contact about our pushes (mailto: or https: URL).",
)
if not VAPID_SUBJECT.startswith(("mailto:", "https://")):
    raise ImproperlyConfigured("VAPID_SUBJECT must be a mailto: address or an https:// URL.")
# A VAPID_PRIVATE_KEY that does not parse or match VAPID_PUBLIC_KEY is refused when the
# notifications app is ready (notifications/apps.py): settings import no app code.
if VAPID_PUBLIC_KEY and not VAPID_PRIVATE_KEY:
    raise ImproperlyConfigured("VAPID_PUBLIC_KEY is set without VAPID_PRIVATE_KEY.")
# Where a generated pair is kept (debug or embedded mode only); ignored when the keys are set.
VAPID_KEY_FILE: Path | None = (
    Path(SQLITE_PATH).with_name(Path(SQLITE_PATH).name + ".vapid-key.pem")
    if DEBUG or not DATABASE_URL
    else None
)

# Webhooks (notifications/channels/webhook.py).
WEBHOOK_MAX_FAILURES = env_int(
    "WEBHOOK_MAX_FAILURES",
    default=10,
    min_value=1,
    help="Webhook deliveries in a row that may fail before the endpoint is switched off.",
)
WEBHOOK_TIMEOUT_SECONDS = env_int(
    "WEBHOOK_TIMEOUT_SECONDS",
    default=10,
    min_value=1,
    help="How long a webhook receiver (or a push service) has to answer one request.",
)
WEBHOOK_ALLOW_LOOPBACK = env_bool(
    "WEBHOOK_ALLOW_LOOPBACK",
    default=False,
    help="Allow webhook URLs on this machine (127.0.0.1, ::1, localhost) also when DEBUG is off.",
)

# Retention (notifications/retention.py, games/idempotency.py): what is old enough to delete.
NOTIFICATION_RETENTION_DAYS = env_int(
    "NOTIFICATION_RETENTION_DAYS",
    default=90,
    min_value=1,
    help="Days inbox notifications and their finished deliveries are kept.",
)
WEBHOOK_LOG_RETENTION_DAYS = env_int(
    "WEBHOOK_LOG_RETENTION_DAYS",
    default=30,
    min_value=1,
    help="Days finished webhook deliveries and their attempt log are kept.",
)
IDEMPOTENCY_KEY_DAYS = env_int(
    "IDEMPOTENCY_KEY_DAYS",
    default=7,
    min_value=1,
    help="Days an Idempotency-Key and its stored answer are remembered.",
)
