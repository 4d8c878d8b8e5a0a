"""When a signed-in player was last seen: the "online now" and "last seen" of friends lists.

A request from a signed-in player stamps their profile's ``last_seen_at``, at most once a minute:
``cache.add`` of a one-minute key decides, so a busy player costs one cache call per request and
one database write per minute, not one per request. A live connection counts through its
requests: a long poll is one every 25 s or so (the web client keeps `games/live/` waiting on every
open page), a Server-Sent Events stream counts when it opens (its keep-alives are no requests).
With the cache down the stamp is skipped (presence is a courtesy, never worth failing a request
for).
"""

from __future__ import annotations

import logging
from typing import Any

from asgiref.sync import sync_to_async
from django.core.cache import cache
from django.http import HttpRequest
from django.utils import timezone
from django.utils.functional import SimpleLazyObject, empty

from config.middleware import HybridMiddleware
from social.models import Profile

logger = logging.getLogger(__name__)

STAMP_EVERY_SECONDS = 60


def _user_id(request: HttpRequest) -> Any:
    # Only a user that authentication already resolved (DRF sets it on the request it wraps):
    # reading Django's lazy session user would cost a session query on requests that never
    # asked who it was.
    user = request.__dict__.get("user")
    if isinstance(user, SimpleLazyObject):
        user = getattr(request, "_cached_user", None) if user._wrapped is empty else user._wrapped
    return getattr(user, "pk", None) if getattr(user, "is_authenticated", False) else None


def stamp(user_id: Any) -> bool:
    """Record that ``user_id`` was seen now, unless they were in the last minute."""
    try:
        fresh = cache.add(f"social:seen:{user_id}", 1, STAMP_EVERY_SECONDS)
    except Exception:  # the cache is down: skip, as documented above
        logger.warning("presence not recorded: the cache is unavailable", exc_info=True)
        return False
    if fresh:
        Profile.objects.filter(user_id=user_id).update(last_seen_at=timezone.now())
    return bool(fresh)


class LastSeenMiddleware(HybridMiddleware):
    """Last in the chain: stamps after the view, once DRF has authenticated the request."""

    def call_sync(self, request: HttpRequest) -> Any:
        response = self.get_response(request)
        user_id = _user_id(request)
        if user_id is not None:
            stamp(user_id)
        return response

    async def __acall__(self, request: HttpRequest) -> Any:
        response = await self.get_response(request)
        user_id = _user_id(request)
        if user_id is not None:
            await sync_to_async(stamp)(user_id)
        return response
