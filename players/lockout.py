"""Failed log-ins, limited per account on every log-in path, with a delay that doubles.

One mechanism for the API's session log-in, token creation and the admin's form: the
authentication backend below, which Django's ``authenticate()`` consults whichever view calls it.

Per account, not per address: behind a proxy every client has the proxy's address, and a lock
per address shuts everybody out of every account; the API's throttle (``auth`` scope, which
honours ``NUM_PROXIES``) already limits what one address may try. An account's first
``LOGIN_FAILURES_BEFORE_DELAY`` failures cost nothing; each further failure makes the next attempt
wait 1 s, 2 s, 4 s, … up to ``LOGIN_MAX_DELAY_SECONDS``. While the account waits, an attempt is
refused without the password being checked (so guessing on learns nothing) and without counting
(so nobody can lengthen the wait without guessing). Someone else's failures therefore hold the
right password back for one delay at most, from any device, with no captcha; a success clears the
count. Unknown usernames are counted like real ones, so the answer never tells whether an account
exists. Failures are forgotten ``FAILURE_MEMORY`` after the first one.

Counters live in the cache (Redis in production, shared by every process; fails open when Redis
is down, like the throttles). Once the free failures are spent, attempts take turns: each wait
lets exactly one attempt through (``cache.add`` decides), so a burst of parallel requests gets
one guess, not one each.
"""

from __future__ import annotations

import contextlib
import hashlib
import math
import time
from typing import Any

from django.conf import settings
from django.contrib.auth.backends import ModelBackend
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest

from players.models import User

FAILURE_MEMORY = 24 * 3600
# How long a claimed turn is kept: longer than any password check, short enough that a turn key
# left behind (its wait's deadline evicted from the cache) holds nobody back for long.
TURN_SECONDS = 60
# Attribute set on the request when an attempt was refused for the delay, so that a view can say
# when to retry (Django's authenticate() turns the refusal into a plain None).
RETRY_AFTER_ATTR = "login_retry_after"


class LoginDelayed(PermissionDenied):
    """The account waits after failed log-ins; ``retry_after`` seconds until the next try."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(f"retry after {retry_after} s")
        self.retry_after = retry_after


def _keys(username: str) -> tuple[str, str]:
    # Hashed: a username is whatever the form was sent, of any length and alphabet.
    digest = hashlib.sha256(username.casefold().encode()).hexdigest()[:32]
    return f"players:login:{digest}:failures", f"players:login:{digest}:until"


def _free() -> int:
    return int(getattr(settings, "LOGIN_FAILURES_BEFORE_DELAY", 5))


def delay_after(failures: int) -> int:
    """Seconds the account waits after its ``failures``-th failure in a row."""
    extra = failures - _free()
    if extra < 0:
        return 0
    cap = int(getattr(settings, "LOGIN_MAX_DELAY_SECONDS", 900))
    return min(cap, 2 ** min(extra, 30))


def begin(username: str) -> None:
    """Count an attempt for ``username`` before its password is checked; ``LoginDelayed`` if the
    account must wait. Counted up front (and taken back when refused) so that parallel attempts
    each get their own number."""
    failures_key, until_key = _keys(username)
    cache.add(failures_key, 0, timeout=FAILURE_MEMORY)
    try:
        number = cache.incr(failures_key)
    except ValueError:  # expired between add() and incr()
        cache.set(failures_key, 1, timeout=FAILURE_MEMORY)
        number = 1
    if number <= _free():
        return
    until = float(cache.get(until_key) or 0.0)
    wait = until - time.time()
    # One attempt per wait: the first to add the turn's key goes on, any other is refused.
    if wait > 0 or not cache.add(f"{until_key}:{until!r}", 1, timeout=TURN_SECONDS):
        _take_back(failures_key)
        raise LoginDelayed(max(1, math.ceil(wait)))


def _take_back(failures_key: str) -> None:
    with contextlib.suppress(ValueError):  # forgotten meanwhile: nothing to take back
        cache.decr(failures_key)


def failed(username: str) -> None:
    failures_key, until_key = _keys(username)
    failures = int(cache.get(failures_key) or 0)
    delay = delay_after(failures)
    if delay:
        cache.set(until_key, time.time() + delay, timeout=FAILURE_MEMORY)


def forget(username: str) -> None:
    """Clear the account's failures (a successful log-in; tests)."""
    cache.delete_many(list(_keys(username)))


class LoginDelayBackend(ModelBackend):
    """Django's ModelBackend behind the per-account delay (``AUTHENTICATION_BACKENDS``)."""

    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> User | None:
        if username is None:
            username = kwargs.get(User.USERNAME_FIELD)
        if username is None or password is None:
            return None
        try:
            begin(username)
        except LoginDelayed as exc:
            if request is not None:
                setattr(request, RETRY_AFTER_ATTR, exc.retry_after)
            # PermissionDenied: authenticate() asks no other backend and returns None.
            raise
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if isinstance(user, User):
            forget(username)
            return user
        failed(username)
        return None


def retry_after(request: HttpRequest | None) -> int | None:
    """Seconds to wait if ``authenticate(request, …)`` was refused for the delay."""
    return getattr(request, RETRY_AFTER_ATTR, None) if request is not None else None
