"""The latest game view of each running game, kept in Redis for the view's fast path.

After a move the next player reads the game view: without this, that read costs as much as the
move's own database work (the game, its seats, the state). The move already has all of it in
hand, so its answer is kept here as a *snapshot*: the view with everything personal taken out
(whose turn it is for "you", your seat, your hand), plus the engine state to render any seat's
hand from. games/api/fast_view.py serves a seated player's view from it without the database.

Correctness rests on versions. Each snapshot is stored with its game version, and a write never
replaces a newer version. Every new version voids older snapshots twice: inside its own
transaction, before the commit (``void``, from games.services), and again in the same Redis
call as its announcement after the commit (``games.live.publish``). A void marker of version N
makes the fast path miss until a snapshot of N (or newer) is stored, so it never serves a version
older than a committed one unless both calls were lost. A change that does not bump the version
(a display name) is seen at the next version, as with the view's ETag, which is made of the
version too. ``TTL_SECONDS`` bounds what lost voids (Redis unreachable twice in a row) could leave
behind.
"""

from __future__ import annotations

import json
from typing import Any

from config import redis_clients

PREFIX = "uaw:gv:"
TTL_SECONDS = 30

# KEYS[1] snapshot; ARGV: version, data, ttl. A newer version, or a void marker of this version,
# is replaced; an older one never replaces a newer.
_STORE = """
local cur = redis.call('HMGET', KEYS[1], 'v', 'void')
local v = tonumber(ARGV[1])
if cur[1] then
  local cv = tonumber(cur[1])
  if cv > v or (cv == v and cur[2] == '0') then return 0 end
end
redis.call('HSET', KEYS[1], 'v', ARGV[1], 'void', '0', 'd', ARGV[2])
redis.call('EXPIRE', KEYS[1], ARGV[3])
return 1
"""

# KEYS[1] snapshot; ARGV: version, ttl. Void any older snapshot (the start of both scripts below).
_VOID_OLDER = """
local cv = tonumber(redis.call('HGET', KEYS[1], 'v') or '-1')
if cv < tonumber(ARGV[1]) then
  redis.call('HSET', KEYS[1], 'v', ARGV[1], 'void', '1', 'd', '')
  redis.call('EXPIRE', KEYS[1], ARGV[2])
end
"""
_VOID = _VOID_OLDER + "return 0\n"
# ARGV[3]: the live channel, told the new version once older snapshots are void.
_VOID_AND_PUBLISH = _VOID_OLDER + "return redis.call('PUBLISH', ARGV[3], ARGV[1])\n"


def key(game_id: Any) -> str:
    return PREFIX + str(game_id)


def void_and_publish(client: Any, game_id: str, version: int, channel: str) -> None:
    """Announce ``version`` on ``channel`` and void older snapshots, in one Redis call.
    Raises what the client raises (games.live handles it)."""
    client.eval(_VOID_AND_PUBLISH, 1, key(game_id), version, TTL_SECONDS, channel)


def void(game_id: Any, version: int) -> None:
    """Void snapshots older than ``version``, now: called inside the transaction that makes
    ``version``, before it commits, so no fast answer can be older than a committed version
    even when the announcement after the commit is lost or late. Never raises."""
    client = redis_clients.sync_client()
    if client is None:
        return
    try:
        client.eval(_VOID, 1, key(game_id), version, TTL_SECONDS)
    except redis_clients.UNAVAILABLE as exc:
        redis_clients.failed(exc)


def snapshot(payload: dict[str, Any], state: dict[str, Any] | None, current_user_id: Any) -> bytes:
    """The stored form of a rendered view (``payload``, anyone's): the personal parts unset."""
    base = {
        **payload,
        "your_turn": False,
        "your_seat": None,
        "players": [{**p, "you": False} for p in payload["players"]],
        "table": None,
    }
    return json.dumps(
        {"base": base, "state": state, "current": current_user_id},
        separators=(",", ":"),
        default=str,
    ).encode()


def store(pipe: Any, game_id: Any, version: int, data: bytes) -> None:
    """Queue a snapshot write on a Redis pipeline (the caller executes it)."""
    pipe.eval(_STORE, 1, key(game_id), version, data, TTL_SECONDS)


def cacheable(payload: dict[str, Any]) -> bool:
    """Lobbies are left out: the invite code is personal there, and they change without moves."""
    return payload.get("status") != "lobby"


def run(pipe_work: Any) -> None:
    """Run ``pipe_work(pipeline)`` and execute it; a Redis failure is logged, never raised."""
    client = redis_clients.sync_client()
    if client is None:
        return
    try:
        pipe = client.pipeline(transaction=False)
        pipe_work(pipe)
        pipe.execute()
    except redis_clients.UNAVAILABLE as exc:
        redis_clients.failed(exc)
