"""One-time links in account e-mails: a ``uid`` (the user id, base64) and a ``token``.

Neither token is stored. Each is an HMAC over a few fields of the user plus a timestamp, so it stops
working by itself when one of those fields changes: a password-reset token dies when the password
changes (it is single use), a verification token dies when the address is verified or changed.
Both expire after ``settings.PASSWORD_RESET_TIMEOUT`` seconds.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.conf import settings
from django.contrib.auth.tokens import PasswordResetTokenGenerator, default_token_generator
from django.utils.encoding import force_bytes, force_str
from django.utils.http import urlsafe_base64_decode, urlsafe_base64_encode

from players.models import User


class EmailVerificationTokenGenerator(PasswordResetTokenGenerator):
    # A different salt: a password-reset token must never pass as a verification token.
    key_salt = "players.links.EmailVerificationTokenGenerator"

    def _make_hash_value(self, user: User, timestamp: int) -> str:  # type: ignore[override]
        return f"{user.pk}{user.email}{user.email_verified}{timestamp}"


password_reset_tokens = default_token_generator
email_verification_tokens = EmailVerificationTokenGenerator()


def encode_uid(user: User) -> str:
    return urlsafe_base64_encode(force_bytes(user.pk))


def user_from_uid(uid: str) -> User | None:
    """The user a ``uid`` names, or None for garbage or an unknown id (answered the same way)."""
    try:
        pk = int(force_str(urlsafe_base64_decode(uid)))
    except (TypeError, ValueError, OverflowError):
        return None
    return User.objects.filter(pk=pk).first()


def frontend_link(path: str, *, uid: str, token: str) -> str:
    return f"{settings.FRONTEND_URL}{path}?{urlencode({'uid': uid, 'token': token})}"


def link_lifetime() -> str:
    """How long a link works, in words for the e-mail: "24 hours", "30 minutes"."""
    seconds = settings.PASSWORD_RESET_TIMEOUT
    if seconds >= 2 * 3600:
        return f"{seconds // 3600} hours"
    return f"{max(1, seconds // 60)} minutes"
