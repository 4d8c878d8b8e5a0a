"""Bearer tokens remembered in Redis for the game view's fast path (games/api/fast_view.py).

Only that one read-only endpoint trusts this cache; every other request authenticates against the
database (players/auth.py). An entry is written after the token passed that database check, lives
``TTL_SECONDS`` at most (never past the token's own expiry), and is deleted at once, after the
commit, when a token is revoked or a player suspended, banned or deleted: ``forget_user`` is called
by those services, and by signals for any other save or delete of a token or a deactivated user.
The TTL bounds what a missed invalidation could cost: a revoked token reading its own player's
game views for that long.
"""

from __future__ import annotations

import logging
import time
from functools import partial
from typing import Any

from django.db import transaction
from django.db.models.signals import post_delete, post_save

from config import redis_clients
from players.models import ApiToken, User

logger = logging.getLogger(__name__)

TTL_SECONDS = 30
PREFIX = "uaw:tok:"
USER_PREFIX = "uaw:toku:"  # the set of a user's remembered token hashes, to forget them all
FORGOT_PREFIX = "uaw:tokx:"  # when a user's tokens were last forgotten (ms since the epoch)
# Longer than any request could take between its database check and its write (the write is
# refused when the user's tokens were forgotten after that check).
FORGOT_TTL_SECONDS = 600

# KEYS: entry, user's set, user's forgotten-at. ARGV: value, ttl, hash, checked at (ms), set ttl.
# A token checked before its user's tokens were last forgotten is not remembered: the check may
# predate the revocation that the forgetting was for.
_REMEMBER = """
local forgot = tonumber(redis.call('GET', KEYS[3]) or '-1')
if forgot >= tonumber(ARGV[4]) then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
redis.call('SADD', KEYS[2], ARGV[3])
redis.call('EXPIRE', KEYS[2], ARGV[5])
return 1
"""

# KEYS: user's set, user's forgotten-at. ARGV: entry prefix, now (ms), forgotten-at ttl.
_FORGET = """
redis.call('SET', KEYS[2], ARGV[2], 'EX', ARGV[3])
local hashes = redis.call('SMEMBERS', KEYS[1])
for _, h in ipairs(hashes) do redis.call('DEL', ARGV[1] .. h) end
redis.call('DEL', KEYS[1])
return #hashes
"""


def key(key_hash: str) -> str:
    return PREFIX + key_hash


def entry_for(token: ApiToken) -> tuple[bytes, int] | None:
    """The cached form of a live token (user id and scope) and its TTL; None when not live."""
    ttl = TTL_SECONDS
    if token.expires_at is not None:
        ttl = min(ttl, int(token.expires_at.timestamp() - time.time()))
    if ttl <= 0 or not token.is_live or not token.user.is_active:
        return None
    return f"{token.user_id}|{token.scope}".encode(), ttl


def mark_checked(token: ApiToken) -> None:
    """Note when ``token`` passed the database check (players/auth.py), for ``remember``."""
    token._checked_at_ms = int(time.time() * 1000)  # type: ignore[attr-defined]


def remember(pipe: Any, token: ApiToken) -> None:
    """Queue the write that remembers ``token`` on a Redis pipeline (the caller executes it):
    one script, refused when the user's tokens were forgotten after the token was checked."""
    found = entry_for(token)
    checked_at = getattr(token, "_checked_at_ms", None)
    if found is None or checked_at is None:
        return
    value, ttl = found
    user = str(token.user_id)
    pipe.eval(
        _REMEMBER,
        3,
        key(token.key_hash),
        USER_PREFIX + user,
        FORGOT_PREFIX + user,
        value,
        ttl,
        token.key_hash,
        checked_at,
        TTL_SECONDS,
    )


def parse(value: bytes | None) -> int | None:
    """The user id of a cached entry, or None."""
    if not value:
        return None
    user_id, _, _scope = value.decode().partition("|")
    return int(user_id)


def forget_user(user_id: int) -> None:
    """Drop every remembered token of ``user_id`` (revoked, suspended, banned, deleted), and
    refuse to remember any token of theirs checked before now.

    Tried even when this process marked Redis down a moment ago: a revocation must reach the
    other processes' fast path. If Redis cannot be reached, the entries expire within
    TTL_SECONDS."""
    client = redis_clients.sync_client(force=True)
    if client is None:
        return
    try:
        client.eval(
            _FORGET,
            2,
            USER_PREFIX + str(user_id),
            FORGOT_PREFIX + str(user_id),
            PREFIX,
            int(time.time() * 1000),
            FORGOT_TTL_SECONDS,
        )
    except redis_clients.UNAVAILABLE as exc:
        logger.warning("Could not forget the tokens of user %s in Redis: %s", user_id, exc)
        redis_clients.failed(exc)


def forget_after_commit(user_id: int) -> None:
    """``forget_user`` once the current transaction commits (at once outside one)."""
    transaction.on_commit(partial(forget_user, user_id), robust=True)


def connect_signals() -> None:
    """Forget a user's tokens whenever a token row or a deactivated user is saved or deleted:
    the services call ``forget_after_commit`` themselves for their bulk updates; the signals
    cover every other save (the admin, the shell)."""

    def token_changed(sender: Any, instance: ApiToken, **kwargs: Any) -> None:
        if kwargs.get("created"):
            return  # a new token was never remembered
        forget_after_commit(instance.user_id)

    def user_saved(sender: Any, instance: User, **kwargs: Any) -> None:
        if not instance.is_active:  # suspended or banned
            forget_after_commit(instance.pk)

    def user_deleted(sender: Any, instance: User, **kwargs: Any) -> None:
        forget_after_commit(instance.pk)

    post_save.connect(token_changed, sender=ApiToken, dispatch_uid="token_cache.token_saved")
    post_delete.connect(token_changed, sender=ApiToken, dispatch_uid="token_cache.token_deleted")
    post_save.connect(user_saved, sender=User, dispatch_uid="token_cache.user_saved")
    post_delete.connect(user_deleted, sender=User, dispatch_uid="token_cache.user_deleted")
