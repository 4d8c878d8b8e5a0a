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

import time
from typing import Any

from config import redis_clients
from players.models import ApiToken

TTL_SECONDS = 30
PREFIX = "uaw:tok:"
USER_PREFIX = "uaw:toku:"  # the set of a user's remembered token hashes, to forget them all

_FORGET = """
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


def remember(pipe: Any, token: ApiToken) -> None:
    """Queue the writes that remember ``token`` on a Redis pipeline (the caller executes it)."""
    found = entry_for(token)
    if found is None:
        return
    value, ttl = found
    pipe.set(key(token.key_hash), value, ex=ttl)
    pipe.sadd(USER_PREFIX + str(token.user_id), token.key_hash)
    pipe.expire(USER_PREFIX + str(token.user_id), TTL_SECONDS)


def parse(value: bytes | None) -> int | None:
    """The user id of a cached entry, or None."""
    if not value:
        return None
    user_id, _, _scope = value.decode().partition("|")
    return int(user_id)


def forget_user(user_id: int) -> None:
    """Drop every remembered token of ``user_id`` (revoked, suspended, banned, deleted).

    With Redis down the entries cannot be reached to delete; they expire within TTL_SECONDS."""
    client = redis_clients.sync_client()
    if client is None:
        return
    try:
        client.eval(_FORGET, 1, USER_PREFIX + str(user_id), PREFIX)
    except redis_clients.UNAVAILABLE as exc:
        redis_clients.failed(exc)


def forget_after_commit(user_id: int) -> None:
    """``forget_user`` once the current transaction commits (at once outside one)."""
    from functools import partial

    from django.db import transaction

    transaction.on_commit(partial(forget_user, user_id), robust=True)


def connect_signals() -> None:
    """Forget a user's tokens whenever a token row or a deactivated user is saved or deleted:
    the services call ``forget_after_commit`` themselves for their bulk updates; the signals
    cover every other save (the admin, the shell)."""
    from django.db.models.signals import post_delete, post_save

    from players.models import User

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
