"""Every read of the social app: who I follow, my friends and their presence, player search,
my challenges. Blocks (moderation's, through ``signals.listing_blocks``) hide a player from all
of them, both ways."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from django.core.cache import cache
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils import timezone

from players.models import User
from social import signals
from social.models import Challenge, Follow, Profile
from social.search import search_key

# "Online now": a request in the last five minutes (the middleware stamps once a minute).
ONLINE_SECONDS = 300
SEARCH_LIMIT = 20

ONLINE, OFFLINE, HIDDEN = "online", "offline", "hidden"


def blocked_ids(user_id: Any) -> set[Any]:
    """The players ``user_id`` blocks or is blocked by (one query, moderation's)."""
    found: set[Any] = set()
    for _receiver, ids in signals.listing_blocks.send(sender=Profile, user_id=user_id):
        found.update(ids or ())
    return found


def exclude_blocked(query: QuerySet[Any], user_id: Any, field: str = "user_id") -> QuerySet[Any]:
    """``query`` without the rows whose ``field`` is a player ``user_id`` blocks or is blocked
    by, in the same query (moderation's answer to ``signals.blocks_query``)."""
    for _receiver, blocked in signals.blocks_query.send(sender=Profile, user_id=user_id):
        if blocked is not None:
            query = query.exclude(**{f"{field}__in": blocked})
    return query


def is_blocked_between(a: User, b: User) -> bool:
    return b.pk in blocked_ids(a.pk)


# Slotted: the friends list makes three of these per friend, and a list of 500 friends made
# enough objects that Python's collector ran during the request (docs/performance.md).
@dataclass(frozen=True, slots=True)
class Presence:
    status: str  # ONLINE, OFFLINE or HIDDEN
    last_seen_on: date | None  # day precision; None while online, hidden or never seen


_ONLINE, _HIDDEN, _NEVER_SEEN = (
    Presence(ONLINE, None),
    Presence(HIDDEN, None),
    Presence(OFFLINE, None),
)


def presence_of(last_seen_at: datetime | None, hidden: bool | None, now: datetime) -> Presence:
    """``hidden`` None: the player has no profile row (nothing to show)."""
    if hidden is None or hidden:
        return _HIDDEN
    if last_seen_at is None:
        return _NEVER_SEEN
    if last_seen_at >= now - timedelta(seconds=ONLINE_SECONDS):
        return _ONLINE
    return Presence(OFFLINE, last_seen_at.date())


@dataclass(frozen=True, slots=True)
class Person:
    """A player as lists show them: what the API names them by and the name others see."""

    username: str
    public_name: str


@dataclass(frozen=True, slots=True)
class Friend:
    user: Person
    presence: Presence


# How long a player's friends (names, last-seen stamps, hidden or not) are kept in the cache.
# A stamp is written at most once a minute anyway (middleware.py); follows, a new name and the
# presence setting drop the entries they change (receivers.py, services.py); blocks are read
# afresh on every call.
FRIENDS_CACHE_SECONDS = 60


def friends_cache_key(user_id: Any) -> str:
    return f"social:friends:{user_id}"


def _friend_rows(user: User) -> list[tuple[Any, str, str, datetime | None, bool | None]]:
    """The friends' five columns, from the cache or one query (and then cached). Five columns
    each: building 500 full User objects would cost more than the query."""
    key = friends_cache_key(user.pk)
    rows = cache.get(key)
    if rows is None:
        rows = list(
            User.objects.filter(follows_received__follower=user, follows_made__followee=user)
            .order_by()
            .values_list(
                "pk", "username", "display_name", "social__last_seen_at", "social__hide_presence"
            )
        )
        cache.set(key, rows, FRIENDS_CACHE_SECONDS)
    return rows


def forget_friends(user_ids: Iterable[Any]) -> None:
    """Drop these players' cached friends (their follows, or a friend's name, changed)."""
    cache.delete_many([friends_cache_key(user_id) for user_id in user_ids])


def friends(*, user: User) -> list[Friend]:
    """Mutual follows, online ones first, then by name. Two queries whatever their number (the
    blocks, then the friends with their presence); one within a minute of the last call (the
    blocks: always read afresh, they win over everything)."""
    hidden = blocked_ids(user.pk)
    now = timezone.now()
    found = [
        Friend(Person(username, name or username), presence_of(seen, hide, now))
        for pk, username, name, seen, hide in _friend_rows(user)
        if pk not in hidden
    ]
    found.sort(key=lambda f: (f.presence.status != ONLINE, f.user.public_name.casefold()))
    return found


@dataclass(frozen=True)
class Followed:
    user: User
    friend: bool
    since: datetime


def following(*, user: User) -> list[Followed]:
    """The players ``user`` follows (blocked ones left out), newest first, each with whether
    they follow back."""
    hidden = blocked_ids(user.pk)
    back = Follow.objects.filter(follower=OuterRef("followee"), followee=user)
    rows = (
        Follow.objects.filter(follower=user)
        .exclude(followee__in=hidden)
        .annotate(friend=Exists(back))
        .select_related("followee")
        .order_by("-created_at")
    )
    return [Followed(row.followee, row.friend, row.created_at) for row in rows]


def search_players(*, user: User, query: str) -> list[User]:
    """Players whose public name starts with ``query``, ignoring case and accents; never the
    searcher, nor anyone blocked either way. At most SEARCH_LIMIT, by name."""
    key = search_key(query)
    if not key:
        return []
    hidden = blocked_ids(user.pk) | {user.pk}
    # The range lets a plain B-tree index answer on SQLite and PostgreSQL alike (a LIKE prefix
    # needs a pattern operator class on PostgreSQL); startswith keeps it exact under any
    # collation's ordering.
    matches = Profile.objects.filter(
        search_name__gte=key, search_name__lt=key + "\U0010ffff", search_name__startswith=key
    )
    rows = (
        matches.exclude(user_id__in=hidden)
        .filter(user__is_active=True)
        .select_related("user")
        .order_by("search_name", "user_id")[:SEARCH_LIMIT]
    )
    return [row.user for row in rows]


def relation(*, user: User, other: User) -> tuple[bool, bool]:
    """(``user`` follows ``other``, ``other`` follows ``user``)."""
    pairs = set(
        Follow.objects.filter(
            Q(follower=user, followee=other) | Q(follower=other, followee=user)
        ).values_list("follower_id", flat=True)
    )
    return user.pk in pairs, other.pk in pairs


def challenges(*, user: User) -> list[Challenge]:
    """``user``'s pending challenges, sent and received, newest first."""
    return list(
        Challenge.objects.filter(
            Q(challenger=user) | Q(challenged=user), status=Challenge.PENDING
        ).select_related("challenger", "challenged", "game")
    )


def challenge_of(*, user: User, challenge_id: Any) -> Challenge | None:
    """One of ``user``'s challenges (sent or received); someone else's is None."""
    return (
        Challenge.objects.filter(Q(challenger=user) | Q(challenged=user), pk=challenge_id)
        .select_related("challenger", "challenged", "game")
        .first()
    )


def followed_among(*, user: User, others: list[User]) -> set[Any]:
    """Which of ``others`` ``user`` follows (one query; none for nobody)."""
    if not others:
        return set()
    return set(
        Follow.objects.filter(follower=user, followee__in=others).values_list(
            "followee_id", flat=True
        )
    )


def export_social(user: User) -> dict[str, Any]:
    """``user``'s part of their data export (``players.selectors.export``): their settings and
    last-seen time, whom they follow, and the challenges they sent or received. Other players
    appear by username only."""
    profile = Profile.objects.filter(user=user).first()
    follows = Follow.objects.filter(follower=user).select_related("followee").order_by("pk")
    sent_or_received = (
        Challenge.objects.filter(Q(challenger=user) | Q(challenged=user))
        .select_related("challenger", "challenged")
        .order_by("pk")
    )
    return {
        "hide_presence": profile.hide_presence if profile else False,
        "challenges_from": profile.challenges_from if profile else Profile.FRIENDS,
        "last_seen_at": profile.last_seen_at if profile else None,
        "following": [{"username": f.followee.username, "since": f.created_at} for f in follows],
        "challenges": [
            {
                "challenger": c.challenger.username,
                "challenged": c.challenged.username,
                "status": c.status,
                "game_id": c.game_id,
                "created_at": c.created_at,
            }
            for c in sent_or_received
        ],
    }
