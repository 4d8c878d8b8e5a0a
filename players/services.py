"""Every change to an account: sign up, tokens, passwords, e-mail verification, profile, deletion.

Functions take keyword-only arguments and refuse with a ``ServiceError`` carrying a stable code.
Credentials are checked the same way everywhere: a wrong username, a wrong password and an
inactive account all give ``invalid_credentials``, so the answer never says which part was wrong
or whether an account exists. Mail goes out through Celery tasks queued on commit (see
``players.tasks``), never from inside a transaction.
"""

from __future__ import annotations

import hashlib
import logging
import threading
import unicodedata
from datetime import timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.contrib.auth import authenticate
from django.contrib.auth.password_validation import validate_password
from django.contrib.auth.tokens import PasswordResetTokenGenerator
from django.core.cache import cache
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError, connections, transaction
from django.db.models import Q
from django.http import HttpRequest
from django.utils import timezone

from config import error_codes as codes
from config.errors import ServiceError
from players import links, lockout, oauth, signals, tasks
from players.blocklist import look_key
from players.models import BOT_MARK, LOOKS_TAKEN, ApiToken, User

logger = logging.getLogger(__name__)

_PROFILE_FIELDS = frozenset({"email", "display_name", "time_zone", "language"})


def _invalid_credentials() -> ServiceError:
    return ServiceError(codes.INVALID_CREDENTIALS, "Wrong username or password.")


def username_taken(username: str) -> ServiceError:
    return ServiceError(codes.USERNAME_TAKEN, LOOKS_TAKEN, username=username)


def check_username_free(username: str) -> None:
    """``username_taken`` when an account has this name in any letter case, or one that looks
    the same (``User.username_look``). The unique indexes decide a race; this answers early."""
    same = Q(username__iexact=username) | Q(username_look=look_key(username))
    if User.objects.filter(same).exists():
        raise username_taken(username)


def check_display_name(name: str) -> None:
    """A name may not end in the mark that only bot accounts are shown with (``BOT_MARK``,
    ``User.public_name``): a person named "Alice (bot)" would pass for a program, and the
    mark is how players know they play one. Compared folded (NFKC, any letter case, with or
    without a space), so "ALICE（BOT）" is refused too."""
    folded = unicodedata.normalize("NFKC", name).casefold().rstrip()
    if folded.endswith(BOT_MARK):
        raise ServiceError(
            codes.NAME_MARKS_A_BOT,
            f"A display name cannot end in {BOT_MARK}: that mark shows a bot account.",
            field="display_name",
        )


def check_password_strength(password: str, *, user: User) -> None:
    """Django's AUTH_PASSWORD_VALIDATORS, refused as ``weak_password`` with their messages."""
    try:
        validate_password(password, user=user)
    except DjangoValidationError as exc:
        raise ServiceError(
            codes.WEAK_PASSWORD, "This password is too weak.", messages=list(exc.messages)
        ) from exc


def authenticate_credentials(
    *, username: str, password: str, request: HttpRequest | None = None
) -> User:
    """The active user with these credentials; ``invalid_credentials`` otherwise, or
    ``LoginDelayed`` while the account waits after failed log-ins (``players.lockout``, which
    Django's ``authenticate()`` consults through the authentication backend).

    Usernames are unique regardless of case, so any case finds the account (phones like to
    capitalise the first letter). Django's backend hashes the password even for an unknown name,
    which keeps the response time from telling whether the account exists.
    """
    found = User.objects.filter(username__iexact=username).values_list("username", flat=True)
    # A suspension that has run out is lifted here (moderation answers the signal); one in force
    # keeps the account inactive, which Django's backend refuses like a wrong password (nothing
    # says the account exists).
    signals.signing_in.send(sender=User, username=username)
    user = authenticate(request, username=found[0] if found else username, password=password)
    if not isinstance(user, User):  # None for a wrong password or an inactive account
        wait = lockout.retry_after(request)
        if wait is not None:
            raise lockout.LoginDelayed(wait)
        raise _invalid_credentials()
    return user


def _send_after_commit(task: Any, *args: Any) -> None:
    transaction.on_commit(partial(_enqueue, task, *args))


def _enqueue(task: Any, *args: Any) -> None:
    if settings.ACCOUNT_MAILS_IN_BACKGROUND:
        # Tasks run inline (the embedded mode, no broker): a thread of its own, so that the
        # response never waits on the mail server, whose answer time would tell who plays here.
        name = f"account-mail-{task.name}"
        threading.Thread(target=_run, args=(task, *args), name=name, daemon=True).start()
    else:
        _run(task, *args, own_thread=False)


def _run(task: Any, *args: Any, own_thread: bool = True) -> None:
    try:
        task.delay(*args)
    except Exception:
        # A broker that is down, or (with tasks run inline) an SMTP server that is, must not turn
        # a 202 into a 500: for password/reset that would reveal that the address has an account.
        logger.exception("could not send %s", task.name)
    finally:
        if own_thread:
            connections.close_all()  # this thread's own, which no request_finished will close


def _queue_verification_email(user: User) -> None:
    _send_after_commit(tasks.send_verification_email, user.pk)


# ---------------------------------------------------------------------------------------------
# Sign-up and tokens


def sign_up(
    *,
    username: str,
    password: str,
    email: str = "",
    display_name: str = "",
    language: str = "en",
    time_zone: str = "UTC",
    token_name: str = "signup",
) -> tuple[User, ApiToken, str]:
    """Create an account and its first (play-scoped) token. Returns the raw token string too,
    which is never stored and can be shown only now."""
    check_display_name(display_name)
    check_username_free(username)
    user = User(
        username=username,
        email=User.objects.normalize_email(email or ""),
        display_name=display_name,
        language=language,
        time_zone=time_zone,
    )
    # Validated against the unsaved user so that "alice" cannot choose "alice2024!".
    check_password_strength(password, user=user)
    user.set_password(password)
    try:
        with transaction.atomic():
            user.save()
            token, raw = ApiToken.issue(user, name=token_name, scope=ApiToken.SCOPE_PLAY)
    except IntegrityError as exc:
        # Two sign-ups raced for the same name, or two look-alikes: a unique index decided.
        raise username_taken(username) from exc
    if user.email:
        _queue_verification_email(user)
    return user, token, raw


def issue_token(
    *,
    username: str,
    password: str,
    name: str,
    scope: str,
    expires_in_days: int | None = None,
    request: HttpRequest | None = None,
) -> tuple[ApiToken, str]:
    """Log in for an app or a device: a new named token. Returns the raw string (shown once)."""
    user = authenticate_credentials(username=username, password=password, request=request)
    token, raw = ApiToken.issue(user, name=name, scope=scope)
    if expires_in_days is not None:
        token.expires_at = token.created_at + timedelta(days=expires_in_days)
        token.save(update_fields=["expires_at"])
    User.objects.filter(pk=user.pk).update(last_login=timezone.now())
    return token, raw


def revoke_token(*, user: User, token_id: int) -> None:
    """Revoke one of ``user``'s live tokens. Someone else's token is ``not_found``, exactly like a
    token that does not exist, so ids cannot be probed."""
    now = timezone.now()
    # Compare-and-set: two concurrent revokes of the same token give one 204 and one 404.
    changed = (
        ApiToken.objects.filter(pk=token_id, user=user, revoked_at__isnull=True)
        .exclude(expires_at__lte=now)
        .update(revoked_at=now)
    )
    if changed != 1:
        raise ServiceError(codes.NOT_FOUND, "No such token.")


def revoke_all_tokens(*, user: User, keep: ApiToken | None = None) -> int:
    qs = ApiToken.objects.filter(user=user, revoked_at__isnull=True)
    if keep is not None:
        qs = qs.exclude(pk=keep.pk)
    revoked = qs.update(revoked_at=timezone.now())
    # The apps the player allowed go too (players/oauth.py): a password change or a ban must
    # shut out whoever held the account, and an app they allowed would otherwise stay.
    return revoked + oauth.revoke_all_apps(user=user)


# ---------------------------------------------------------------------------------------------
# Passwords


def change_password(
    *, user: User, old_password: str, new_password: str, current_token: ApiToken | None = None
) -> None:
    """Set a new password and revoke every token but the one making the request. Other browser
    sessions end by themselves: Django ties a session to a hash of the password."""
    if not user.check_password(old_password):
        raise _invalid_credentials()
    check_password_strength(new_password, user=user)
    with transaction.atomic():
        user.set_password(new_password)
        user.save(update_fields=["password"])
        revoke_all_tokens(user=user, keep=current_token)


def request_password_reset(*, email: str) -> None:
    """Mail a reset link to every active account with this address. Says nothing either way:
    the caller answers 202 whether or not an account exists.

    The request does the same work for a known and an unknown address: it counts the address
    against PASSWORD_RESET_MAILS_PER_HOUR and queues one task, after commit, that looks the
    address up and sends the mails (``players.tasks``). Neither the look-up nor the mail server
    is waited on, so the response time cannot tell who plays here. Past the cap nothing is queued,
    so nobody can bury an inbox in reset mails.
    """
    email = email.strip()
    if not email or not _within_reset_cap(email):
        return
    _send_after_commit(tasks.send_password_reset_emails, email)


def _within_reset_cap(email: str) -> bool:
    # Hashed: the cache need not hold addresses. Counted from the first request of the hour.
    digest = hashlib.sha256(email.casefold().encode()).hexdigest()[:32]
    key = f"players:password-reset:{digest}"
    cache.add(key, 0, timeout=3600)
    try:
        count = cache.incr(key)
    except ValueError:  # expired between add() and incr()
        cache.set(key, 1, timeout=3600)
        count = 1
    return count <= settings.PASSWORD_RESET_MAILS_PER_HOUR


def _invalid_link() -> ServiceError:
    return ServiceError(codes.INVALID_TOKEN, "This link is invalid or has expired.")


def _linked_user(uid: str, token: str, tokens: PasswordResetTokenGenerator) -> User:
    """The active account that a link of ``tokens`` names. Caller holds the transaction: the
    row is locked and re-checked so that two requests with the same link cannot both succeed."""
    found = links.user_from_uid(uid)
    if found is None:
        raise _invalid_link()
    user = User.objects.select_for_update().get(pk=found.pk)
    if not user.is_active or not tokens.check_token(user, token):
        raise _invalid_link()
    return user


def reset_password(*, uid: str, token: str, new_password: str) -> User:
    """Set a new password from a reset link, and revoke every token: whoever asked for a reset
    may be locking out someone who stole the old password."""
    with transaction.atomic():
        user = _linked_user(uid, token, links.password_reset_tokens)
        check_password_strength(new_password, user=user)
        user.set_password(new_password)
        # The link came to this address (the token covers it), which proves the mailbox.
        user.email_verified = bool(user.email)
        user.save(update_fields=["password", "email_verified"])
        revoke_all_tokens(user=user)
    return user


# ---------------------------------------------------------------------------------------------
# E-mail verification


def request_email_verification(*, user: User) -> None:
    if not user.email:
        raise ServiceError(codes.NO_EMAIL, "Add an e-mail address to your profile first.")
    if user.email_verified:
        raise ServiceError(codes.EMAIL_ALREADY_VERIFIED, "This address is already verified.")
    _queue_verification_email(user)


def confirm_email_verification(*, uid: str, token: str) -> User:
    with transaction.atomic():
        user = _linked_user(uid, token, links.email_verification_tokens)
        user.email_verified = True
        user.save(update_fields=["email_verified"])
    return user


# ---------------------------------------------------------------------------------------------
# Profile and account


def update_profile(*, user: User, password: str | None = None, **changes: Any) -> User:
    """Change profile fields (already validated by the caller).

    A new e-mail address needs the password: the address is where password resets go, so
    changing it with nothing but a token would turn a stolen token into a stolen account. The
    new address starts unverified and gets a verification mail.
    """
    unknown = set(changes) - _PROFILE_FIELDS
    if unknown:
        raise ValueError(f"not profile fields: {sorted(unknown)}")
    if "display_name" in changes:
        check_display_name(changes["display_name"] or "")
    fields = []
    if "email" in changes:
        email = User.objects.normalize_email(changes.pop("email") or "")
        if email.lower() != user.email.lower():
            if not password:
                raise ServiceError(
                    codes.PASSWORD_REQUIRED, "Changing the e-mail address needs your password."
                )
            if not user.check_password(password):
                raise _invalid_credentials()
            user.email_verified = False
            fields.append("email_verified")
        user.email = email
        fields.append("email")
    for name, value in changes.items():
        setattr(user, name, value)
        fields.append(name)
    if fields:
        user.save(update_fields=fields)
        if "email_verified" in fields and user.email:
            _queue_verification_email(user)
    return user


def delete_account(*, user: User, password: str) -> None:
    """Delete the account after checking the password.

    The player first leaves every lobby and every game in progress (the games app answers
    ``signals.account_deleting``), so that nobody waits out turn timers for a seat that will
    never move again. Finished games stay
    intact: their seats keep the scores and lose the user (``SET_NULL``).
    """
    if not user.check_password(password):
        raise _invalid_credentials()
    remove_account(user=user)


def remove_account(*, user: User) -> None:
    """Delete an account whose deletion is decided (its password checked, or its owner asked:
    ``players.bots``), and its bot accounts first, each the same way: every seat they hold in a
    game in progress is freed rather than left for the turn timers."""
    for bot in User.objects.filter(bot_owner=user):
        remove_account(user=bot)
    signals.account_deleting.send(sender=User, user=user)
    user.delete()
