"""Account e-mails, sent by Celery tasks that take a user id.

Services queue these with ``transaction.on_commit``: the worker must see the committed user, and
an SMTP server that is slow (or down) must neither hold a transaction open nor slow the request
down, since the response time of ``password/reset`` would otherwise tell whether the address has
an account. Each task re-reads the user and quietly does nothing when the mail no longer makes
sense (account gone or deactivated, address removed, already verified).
"""

from __future__ import annotations

from celery import shared_task
from django.contrib.auth.tokens import PasswordResetTokenGenerator
from django.core.mail import send_mail
from django.core.management import call_command

from players import exports, links
from players.models import User


@shared_task
def send_password_reset_emails(email: str) -> int:
    """A reset link to every active account with this address; how many were sent. Takes the
    address, not user ids, so that the request queues the same task whether or not an account
    has it (``players.services.request_password_reset``)."""
    user_ids = User.objects.filter(email__iexact=email, is_active=True).values_list("pk", flat=True)
    return sum(send_password_reset_email(user_id) for user_id in list(user_ids))


# Each mail's text, filled by ``_send_link``: the same fields for both, so one function sends
# either.
RESET_SUBJECT = "Reset your Uno All Wild password"
RESET_BODY = (
    "Hello {name},\n\n"
    "Someone (hopefully you) asked to reset the password of the Uno All Wild account "
    "{username!r}. To choose a new password, open this link:\n\n"
    "{link}\n\n"
    "Or send uid={uid} and token={token} to /api/v1/auth/password/reset/confirm/.\n\n"
    "The link works once and for {lifetime}. If you did not ask for "
    "it, ignore this mail: your password stays as it is.\n"
)
VERIFY_SUBJECT = "Confirm your e-mail address"
VERIFY_BODY = (
    "Hello {name},\n\n"
    "Please confirm that {email} is the e-mail address of the Uno All Wild account "
    "{username!r} by opening this link:\n\n"
    "{link}\n\n"
    "Or send uid={uid} and token={token} to /api/v1/auth/email/verify/confirm/.\n\n"
    "The link works for {lifetime}.\n"
)


def _send_link(
    user: User, tokens: PasswordResetTokenGenerator, path: str, subject: str, body: str
) -> bool:
    """Mail ``user`` a link to the client's ``path`` carrying a token of ``tokens``."""
    uid = links.encode_uid(user)
    token = tokens.make_token(user)
    text = body.format(
        name=user.public_name,
        username=user.username,
        email=user.email,
        link=links.frontend_link(path, uid=uid, token=token),
        uid=uid,
        token=token,
        lifetime=links.link_lifetime(),
    )
    send_mail(subject, text, None, [user.email])
    return True


@shared_task
def send_password_reset_email(user_id: int) -> bool:
    user = User.objects.filter(pk=user_id, is_active=True).first()
    if user is None or not user.email or not user.has_usable_password():
        return False
    return _send_link(
        user, links.password_reset_tokens, "/reset-password", RESET_SUBJECT, RESET_BODY
    )


@shared_task
def send_verification_email(user_id: int) -> bool:
    user = User.objects.filter(pk=user_id, is_active=True).first()
    if user is None or not user.email or user.email_verified:
        return False
    return _send_link(
        user, links.email_verification_tokens, "/verify-email", VERIFY_SUBJECT, VERIFY_BODY
    )


@shared_task
def build_exports() -> int:
    """Periodic: build the data exports that players asked for (players/exports.py)."""
    return exports.build_pending()


@shared_task
def prune_exports() -> int:
    """Periodic: delete data exports a day old, with their files."""
    return exports.prune()


@shared_task(name="players.tasks.clear_expired_sessions")
def clear_expired_sessions() -> None:
    """Delete expired sessions: Django's `clearsessions`, on a schedule (players/jobs.py).

    Only rows past their expiry go, so a run late, twice, or beside another scheduler's is
    harmless.
    """
    call_command("clearsessions")
