"""Every change to the chat: writing a message, a player's own switch and mutes, and the
moderators' deletions and mutes from chat (called by the moderation app, which audits them).

Functions take keyword-only arguments and refuse with a ``ServiceError`` carrying a stable code.
A new message (or a deletion's tombstone) is announced on the game's chat key after commit
(``chat.live``), which wakes the game streams that carry the chat.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from chat import access, live, selectors, signals
from chat.models import MAX_LENGTH, ChatBan, ChatMessage, ChatMute, ChatSettings
from chat.text import clean, is_filtered, mentions
from config import error_codes as codes
from config.errors import ServiceError
from games.models import Seat
from notifications.services import notify_chat_mention
from players.models import User
from social import services as social_services


def _channel(channel: str) -> str:
    if channel not in dict(ChatMessage.CHANNELS):
        raise ServiceError(
            codes.INVALID_REQUEST,
            "channel: must be players or spectators.",
            fields={"channel": ["Must be players or spectators."]},
        )
    return channel


def readable(user: User, game_id: Any, channel: str) -> access.Access:
    """The caller's access to a channel they may read, or the refusal: ``not_found`` for a
    game they may not see, ``not_in_chat`` for a channel not theirs."""
    found = access.access(user, game_id, _channel(channel))
    if found.read:
        return found
    if found.seated or access.may_see_game(user, game_id):
        raise ServiceError(codes.NOT_IN_CHAT, "This chat is not yours to read.")
    raise ServiceError(codes.NOT_FOUND, "No such game.")


def _text(text: str) -> str:
    cleaned = clean(text)
    if not cleaned:
        raise ServiceError(
            codes.INVALID_REQUEST,
            "text: a message needs some visible text.",
            fields={"text": ["A message needs some visible text."]},
        )
    if len(cleaned) > MAX_LENGTH:
        raise ServiceError(
            codes.INVALID_REQUEST,
            f"text: at most {MAX_LENGTH} characters.",
            fields={"text": [f"At most {MAX_LENGTH} characters."]},
        )
    return cleaned


def post(*, user: User, game_id: Any, channel: str, text: str) -> ChatMessage:
    """``user`` writes ``text`` in a channel of the game. The word filter's catch is stored
    (``filtered``): only its author sees it, and it counts toward moderation
    (``signals.message_filtered``, in the same transaction). Mentions (``@username`` of a
    seated player) notify in the players' chat."""
    found = readable(user, game_id, channel)
    if not found.write:
        raise ServiceError(codes.NOT_IN_CHAT, "Only a seated player writes in the players' chat.")
    ban = selectors.ban_of(user)
    if ban is not None:
        raise ServiceError(
            codes.CHAT_MUTED, "The moderators muted you from chat.", until=ban.until.isoformat()
        )
    if not selectors.chat_enabled(user):
        raise ServiceError(codes.CHAT_DISABLED, "Your chat is off: turn it on to write.")
    cleaned = _text(text)
    with transaction.atomic():
        message = ChatMessage.objects.create(
            game_id=game_id,
            channel=channel,
            author=user,
            author_name=user.public_name,
            author_username=user.username,
            text=cleaned,
            filtered=is_filtered(cleaned),
        )
        if message.filtered:
            signals.message_filtered.send(sender=ChatMessage, message=message)
        elif channel == ChatMessage.PLAYERS:
            _notify_mentions(message, user)
        live.announce_after_commit(game_id, message.pk)
    return message


def _notify_mentions(message: ChatMessage, author: User) -> None:
    """Each seated player named ``@username`` hears of it (kind ``chat_mention``) unless their
    chat is off or they muted the author: one query when the message names nobody seated."""
    names = mentions(message.text)
    if not names:
        return
    seats = Seat.objects.filter(game_id=message.game_id, user__isnull=False).select_related(
        "user", "game"
    )
    named = [s for s in seats if s.user.username.casefold() in names and s.user_id != author.pk]
    if not named:
        return
    ids = [s.user_id for s in named]
    off = set(
        ChatSettings.objects.filter(user_id__in=ids, enabled=False).values_list(
            "user_id", flat=True
        )
    )
    muting = set(
        ChatMute.objects.filter(user_id__in=ids, muted=author).values_list("user_id", flat=True)
    )
    for seat in named:
        if seat.user_id not in off and seat.user_id not in muting:
            notify_chat_mention(user=seat.user, by=author, game=seat.game, message_id=message.pk)


# ---------------------------------------------------------------------------------------------
# A player's own settings


def set_enabled(*, user: User, enabled: bool) -> bool:
    ChatSettings.objects.update_or_create(user=user, defaults={"enabled": enabled})
    return enabled


def mute(*, user: User, username: str) -> User:
    """``user`` no longer reads ``username`` in any chat (muting twice changes nothing)."""
    other = social_services.player_named(username)
    if other.pk == user.pk:
        raise ServiceError(codes.CANNOT_MUTE_YOURSELF, "You cannot mute yourself.")
    try:
        with transaction.atomic():
            ChatMute.objects.get_or_create(user=user, muted=other)
    except IntegrityError:
        pass  # a concurrent mute of the same pair: muted either way
    return other


def unmute(*, user: User, username: str) -> None:
    ChatMute.objects.filter(user=user, muted=social_services.player_named(username)).delete()


# ---------------------------------------------------------------------------------------------
# The moderators' acts (moderation.chat audits each, in the same transaction)


def message_of(message_id: Any) -> ChatMessage:
    try:
        return ChatMessage.objects.select_related("game").get(pk=message_id, deletes=None)
    except (ChatMessage.DoesNotExist, ValueError, TypeError) as exc:
        raise ServiceError(codes.NOT_FOUND, "No such message.") from exc


def delete(*, message: ChatMessage) -> bool:
    """Remove a message from every reader (and the record); its tombstone tells the streams.
    False when it was deleted already. Caller holds a transaction."""
    changed = ChatMessage.objects.filter(pk=message.pk, deleted_at=None).update(
        deleted_at=timezone.now()
    )
    if not changed:
        return False
    tombstone = ChatMessage.objects.create(
        game_id=message.game_id,
        channel=message.channel,
        author=None,
        author_name="",
        deletes=message,
    )
    live.announce_after_commit(message.game_id, tombstone.pk)
    return True


def ban(*, user: User, until: datetime, reason: str, by: User) -> ChatBan:
    """Mute ``user`` from every chat until ``until``. Caller holds a transaction."""
    return ChatBan.objects.create(user=user, until=until, reason=reason, created_by=by)


def lift_bans(*, user: User) -> int:
    """End ``user``'s mutes from chat now; how many were in force."""
    now = timezone.now()
    return ChatBan.objects.filter(user=user, until__gt=now).update(until=now)
