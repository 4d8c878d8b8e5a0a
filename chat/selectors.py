"""Every read of the chat: what one reader sees of a channel, the context moderators get with a
report, the part kept in a game's record, and the marks live streams wait on."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Max, Q, QuerySet
from django.utils import timezone

from chat.models import ChatBan, ChatMessage, ChatMute, ChatSettings
from players.models import User
from social.selectors import blocked_ids

# A report carries this many messages around the reported one (half before, half after).
CONTEXT = 20


def chat_enabled(user: User) -> bool:
    return not ChatSettings.objects.filter(user_id=user.pk, enabled=False).exists()


def muted_by(user: User) -> QuerySet[ChatMute]:
    return ChatMute.objects.filter(user_id=user.pk).select_related("muted").order_by("-id")


def ban_of(user: User) -> ChatBan | None:
    """The moderators' mute from chat in force for ``user``, the longest first."""
    now = timezone.now()
    return ChatBan.objects.filter(user_id=user.pk, until__gt=now).order_by("-until").first()


def _visible(user: User, game_id: Any, channel: str) -> QuerySet[ChatMessage]:
    """The rows of a channel ``user`` sees: no deleted message, nobody they muted nor anybody
    blocked either way (blocks win over everything social), a filtered message only their own;
    tombstones included (streams learn of deletions from them)."""
    muted = ChatMute.objects.filter(user_id=user.pk).values("muted_id")
    rows = ChatMessage.objects.filter(game_id=game_id, channel=channel, deleted_at=None)
    blocked = blocked_ids(user.pk)
    if blocked:
        rows = rows.exclude(author_id__in=blocked)
    return rows.exclude(author_id__in=muted).exclude(Q(filtered=True) & ~Q(author_id=user.pk))


def messages_for(
    user: User,
    game_id: Any,
    channel: str,
    *,
    after: int | None = None,
    upto: int | None = None,
    limit: int = 100,
) -> tuple[list[ChatMessage], bool]:
    """The messages of a channel for ``user``: the latest ``limit`` (``after`` None), or the first
    ``limit`` after the cursor ``after`` (up to ``upto``); and whether more follow. None while
    their chat is off. Two queries (the switch, the rows)."""
    if not chat_enabled(user):
        return [], False
    rows = _visible(user, game_id, channel)
    if upto is not None:
        rows = rows.filter(id__lte=upto)
    if after is not None:
        found = list(rows.filter(id__gt=after).order_by("id")[: limit + 1])
        return found[:limit], len(found) > limit
    found = list(rows.filter(deletes=None).order_by("-id")[:limit])
    found.reverse()
    return found, False


def page(
    user: User, game_id: Any, channel: str, *, after: int | None, limit: int
) -> tuple[list[ChatMessage], int, bool]:
    """``messages_for`` with the cursor to go on from: the game's mark read first (then no
    message written meanwhile falls between the page and the cursor), or the last row's id
    when more follow. Three queries."""
    last = mark(game_id)
    if after is not None and last <= after:
        return [], after, False
    rows, more = messages_for(user, game_id, channel, after=after, upto=last, limit=limit)
    return rows, rows[-1].pk if more else last, more


def hidden_authors(user: User) -> frozenset[Any]:
    """Whom ``user`` never reads: the players they muted, and anybody blocked either way
    (``_visible``'s exclusions, for a live reader that filters shared rows itself)."""
    muted = ChatMute.objects.filter(user_id=user.pk).values_list("muted_id", flat=True)
    return frozenset(muted) | frozenset(blocked_ids(user.pk))


def channel_page(
    game_id: Any, channel: str, *, after: int, upto: int, limit: int
) -> tuple[list[ChatMessage], int, bool]:
    """Every reader's rows of a channel after the cursor, up to the mark ``upto`` (no deleted
    message; filtered ones and tombstones included: each reader drops what they may not see),
    the cursor to go on from and whether more follow: ``page`` before any reader's exclusions,
    the same for all the readers of a channel. One query."""
    if upto <= after:
        return [], after, False
    rows = ChatMessage.objects.filter(
        game_id=game_id, channel=channel, deleted_at=None, id__gt=after, id__lte=upto
    )
    found = list(rows.order_by("id")[: limit + 1])
    more = len(found) > limit
    return found[:limit], found[limit - 1].pk if more else upto, more


def context_of(message: ChatMessage) -> list[ChatMessage]:
    """The reported message with the ``CONTEXT`` messages around it in its channel, as written
    (deleted and filtered ones too: moderators judge what was said)."""
    same = ChatMessage.objects.filter(
        game_id=message.game_id, channel=message.channel, deletes=None
    )
    half = CONTEXT // 2
    before = list(same.filter(id__lt=message.pk).order_by("-id")[:half])
    after = list(same.filter(id__gt=message.pk).order_by("id")[: CONTEXT - len(before)])
    if len(after) < CONTEXT - half:
        more = CONTEXT - len(before) - len(after)
        before = list(same.filter(id__lt=message.pk).order_by("-id")[: half + more])
    return [*reversed(before), message, *after]


def record_part(game_id: Any) -> list[dict[str, Any]]:
    """The players' chat as a finished game's record keeps it (docs/records.md): what every
    seat could read, nothing filtered or deleted."""
    rows = ChatMessage.objects.filter(
        game_id=game_id,
        channel=ChatMessage.PLAYERS,
        deleted_at=None,
        deletes=None,
        filtered=False,
    ).order_by("id")
    return [
        {
            "id": m.pk,
            "player": m.author_name,
            "text": m.text,
            "at": m.created_at.isoformat().replace("+00:00", "Z"),
        }
        for m in rows
    ]


def marks(game_ids: list[str]) -> dict[str, int]:
    """Each game's last chat row (its live mark, one query): the live re-check reads these."""
    rows = (
        ChatMessage.objects.filter(game_id__in=game_ids)
        .values("game_id")
        .annotate(last=Max("id"))
        .values_list("game_id", "last")
    )
    return {str(game_id): last for game_id, last in rows}


def mark(game_id: Any) -> int:
    """The game's last chat row: a stream that starts reads its cursor from this."""
    return ChatMessage.objects.filter(game_id=game_id).aggregate(last=Max("id"))["last"] or 0


def export_chat(user: User) -> list[dict[str, Any]]:
    """``user``'s part of their data export (``players.selectors.export``): the messages they
    wrote, in every game and channel, deleted and filtered ones too, as stored."""
    rows = ChatMessage.objects.filter(author_id=user.pk, deletes=None).order_by("pk")
    return [
        {
            "game_id": m.game_id,
            "channel": m.channel,
            "text": m.text,
            "created_at": m.created_at,
            "filtered": m.filtered,
            "deleted_at": m.deleted_at,
        }
        for m in rows
    ]


def filtered_count(user_ids: list[Any]) -> dict[Any, int]:
    """How many of each player's messages the word filter caught (the moderators' count)."""
    rows = (
        ChatMessage.objects.filter(author_id__in=user_ids, filtered=True)
        .values("author_id")
        .annotate(n=Count("id"))
    )
    return {row["author_id"]: row["n"] for row in rows}
