"""The keep-alives of the live streams under ASGI: one periodic loop per process, not a timer per
connection.

An idle Server-Sent Events stream needs, every ``HEARTBEAT_SECONDS``: a comment line (so proxies
keep it open), its player's "watching" mark renewed (``live.presence``), and its credentials
checked again (moves forwarded from the announcements' news check none): a token must not be
revoked, a session must not be logged out (``session_holds``), and the user must be active.
Done stream by stream, 2,000 idle streams cost 2,000 timers, 133 thread hops and as many token
queries and cache writes a second. Here one loop per event loop does it for all of them: each
stream joins a slot, every ``HEARTBEAT_SECONDS / SLOTS`` the loop takes the next slot's
streams, checks their tokens in one query, renews their marks in one cache round trip
(``presence.mark_watching_many``), all in one thread hop, and wakes each stream, which writes
its comment line (or its ``end`` event when its credentials are gone). The slots spread the work
over the period instead of a burst.

Under WSGI a stream holds its thread anyway and keeps its own timer, which makes the same check
(``live.driver``).
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import weakref
from collections.abc import Iterable
from dataclasses import dataclass, field
from importlib import import_module

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.db import close_old_connections
from django.utils.crypto import constant_time_compare

from live import presence
from players.models import ApiToken, User
from players.oauth import live_access_token_ids

logger = logging.getLogger(__name__)

# The period is cut into this many slots; each tick serves one.
SLOTS = 15


@dataclass(eq=False)
class Member:
    """One stream in the keep-alive loop."""

    user_id: int
    token_id: int | None  # None: a session (``session_key``) or an app's ``oauth_token_id``
    game_id: str
    tab: str
    slot: int
    session_key: str | None = None
    poke: asyncio.Event = field(default_factory=asyncio.Event)
    due: bool = False  # a keep-alive to write
    reason: str = ""  # why the stream must end ("": it may go on)
    oauth_token_id: int | None = None  # an app's OAuth token (``token_id`` None, no session)

    def take(self) -> str:
        """The keep-alive is being written: returns why the stream must end, or ""."""
        self.due = False
        return self.reason


def session_holds(session_key: str | None, user: User) -> bool:
    """Whether the session ``session_key`` still logs ``user`` in, as
    ``django.contrib.auth.get_user`` would find on the session's next request: the session exists
    and has not expired (logging out deletes it), names this user and a configured backend, and
    carries the user's session auth hash (changing the password changes it; a hash made with a
    ``SECRET_KEY_FALLBACKS`` key still counts). One session read (a query with the default
    engine). Reads only: unlike ``get_user`` it never flushes or re-keys the session, which is
    its next request's to do."""
    if not session_key:
        return False
    session = import_module(settings.SESSION_ENGINE).SessionStore(session_key=session_key)
    if str(session.get(SESSION_KEY)) != str(user.pk):
        return False
    if session.get(BACKEND_SESSION_KEY) not in settings.AUTHENTICATION_BACKENDS:
        return False
    held = session.get(HASH_SESSION_KEY)
    if not held:
        return False
    hashes = (user.get_session_auth_hash(), *user.get_session_auth_fallback_hash())
    return any(constant_time_compare(held, good) for good in hashes)


def _live_sessions(members: list[Member]) -> set[str]:
    """The session keys among ``members`` that still log their user in: one query for the users
    and a session read per session (tokens are what apps and the web client stream with)."""
    wanted = {m.session_key: m.user_id for m in members if m.token_id is None and m.session_key}
    if not wanted:
        return set()
    users = User.objects.filter(pk__in=set(wanted.values()), is_active=True).in_bulk()
    return {
        key
        for key, user_id in wanted.items()
        if user_id in users and session_holds(key, users[user_id])
    }


def check_and_mark(members: Iterable[Member], ttl: int) -> dict[int, str]:
    """Re-check the credentials of ``members`` (one query for the tokens, one for the sessions'
    users and a read per session) and renew the watching marks of those still allowed (one cache
    round trip). Returns why each refused one must end, by ``id()``."""
    members = list(members)
    refused: dict[int, str] = {}
    try:
        token_ids = {m.token_id for m in members if m.token_id is not None}
        live_tokens = {
            token.pk
            for token in ApiToken.objects.select_related("user").filter(pk__in=token_ids)
            if token.is_live and token.user.is_active
        }
        live_app_tokens = live_access_token_ids(
            m.oauth_token_id for m in members if m.oauth_token_id is not None
        )
        live_sessions = _live_sessions(members)
    finally:
        # This pool thread's connection: honour CONN_MAX_AGE, as a request's end does.
        close_old_connections()
    for member in members:
        if member.token_id is not None:
            allowed = member.token_id in live_tokens
        elif member.oauth_token_id is not None:  # an app's OAuth token (players.oauth)
            allowed = member.oauth_token_id in live_app_tokens
        else:
            allowed = member.session_key in live_sessions
        if not allowed:
            refused[id(member)] = "authentication_failed"
    presence.mark_watching_many(
        # An account's event stream (game_id "") watches no game.
        [(m.user_id, m.game_id, m.tab) for m in members if id(m) not in refused and m.game_id],
        ttl,
    )
    return refused


class KeepAlive:
    """The keep-alive loop of one event loop (``for_loop``)."""

    def __init__(self, heartbeat: float) -> None:
        self.heartbeat = heartbeat
        self.slots: list[set[Member]] = [set() for _ in range(SLOTS)]
        self._next_slot = itertools.count()
        self._task: asyncio.Task[None] | None = None
        self._check = sync_to_async(check_and_mark, thread_sensitive=False)

    def join_member(self, member: Member) -> Member:
        """Add ``member`` to the next slot (starting the loop if it is not running)."""
        member.slot = next(self._next_slot) % SLOTS
        self.slots[member.slot].add(member)
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run())
        return member

    def leave(self, member: Member) -> None:
        self.slots[member.slot].discard(member)

    def members(self) -> int:
        return sum(len(slot) for slot in self.slots)

    async def _run(self) -> None:
        tick = self.heartbeat / SLOTS
        ttl = int(2 * self.heartbeat + 5)
        for slot in itertools.cycle(range(SLOTS)):
            if not self.members():
                return  # the next stream to join starts the loop again
            await asyncio.sleep(tick)
            members = list(self.slots[slot])
            if not members:
                continue
            try:
                refused = await self._check(members, ttl)
            except Exception:
                # Fail open, as presence does: a keep-alive must not end a stream.
                logger.warning("live: the keep-alive check failed", exc_info=True)
                refused = {}
            for member in members:
                member.reason = refused.get(id(member), "")
                member.due = True
                member.poke.set()


_loops: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, KeepAlive] = (
    weakref.WeakKeyDictionary()
)


def for_loop(heartbeat: float) -> KeepAlive:
    """The keep-alive loop of the running event loop."""
    loop = asyncio.get_running_loop()
    keepalive = _loops.get(loop)
    if keepalive is None or keepalive.heartbeat != heartbeat:
        keepalive = _loops[loop] = KeepAlive(heartbeat)
    return keepalive
