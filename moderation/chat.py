"""Moderating the chat: a player reports a message (the report carries it and the messages
around it into the moderators' queue); moderators delete messages and mute a player from chat
for a time. Each act is one transaction with its audit entry; the chat's own changes are made
through ``chat.services``."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from chat import access, selectors
from chat import services as chat_services
from chat.models import ChatBan, ChatMessage
from config import error_codes as codes
from config.attributes import attributes_of
from config.errors import ServiceError
from moderation import audit
from moderation.models import Report
from moderation.services import file_report, notify_player, player_to_sanction, required_reason
from players.models import User


def _snapshot(message: ChatMessage) -> dict[str, Any]:
    keys = {"pk": "id", "author_name": "author", "author_username": "username"}
    return {
        **attributes_of(message, "pk author_id author_name author_username text", keys),
        "at": message.created_at.isoformat(),
        "filtered": message.filtered,
        "deleted": message.deleted_at is not None,
    }


def _evidence(report: Report, message: ChatMessage) -> dict[str, Any]:
    """The report's chat evidence with this message and its context merged in (by id)."""
    old = report.chat if isinstance(report.chat, dict) else {}
    rows = {row["id"]: row for row in old.get("messages", [])}
    rows.update({m.pk: _snapshot(m) for m in selectors.context_of(message)})
    reported = sorted({*old.get("reported", []), message.pk})
    return {"reported": reported, "messages": [rows[k] for k in sorted(rows)]}


def _record_message(
    message: ChatMessage,
    actor: User | None,
    action: str,
    reason: str,
    report: Report | None,
    **extra: Any,
) -> None:
    """The audit entry of a step on one chat message: its author is the player it concerns,
    and the entry keeps the message's text (it may be deleted from the chat later)."""
    about: dict[str, Any] = {
        "target_user": message.author,
        "target": f"chat message #{message.pk} in game {message.game_id}",
        "text": message.text,
    }
    audit.record(actor=actor, action=action, reason=reason, report=report, **about, **extra)


def report_message(*, reporter: User, message_id: Any, details: str = "") -> tuple[Report, bool]:
    """``reporter`` reports a chat message they can read: its author is reported (merged into
    an open report of theirs about the author, as any report), with the message and the
    ``selectors.CONTEXT`` messages around it. Returns the report and whether it was merged."""
    message = chat_services.message_of(message_id)
    seen = access.access(reporter, message.game_id, message.channel)
    if not seen.read or message.deleted_at is not None:
        raise ServiceError(codes.NOT_FOUND, gettext_noop("No such message."))
    if message.author_id is None:
        raise ServiceError(codes.NOT_FOUND, gettext_noop("No such player."))
    with transaction.atomic():
        report, merged = file_report(
            reporter=reporter,
            player_id=message.author_id,
            reason=Report.CHAT_MESSAGE,
            details=details,
        )
        report = Report.objects.select_for_update().get(pk=report.pk)
        report.chat = _evidence(report, message)
        report.game_id = report.game_id or message.game_id
        report.save(update_fields=["chat", "game"])
    return report, merged


def report_filtered(*, message: ChatMessage) -> Report:
    """The word filter caught ``message``: it counts toward its author's open report by the
    filter (no reporter, reason ``chat_filtered``; ``times`` counts the catches), made or merged
    into with the message and the messages around it, and audited. Caller holds the message's
    transaction (``chat.signals.message_filtered``)."""
    report, _ = file_report(
        reporter=None,
        player_id=message.author_id,
        reason=Report.CHAT_FILTERED,
        game_id=message.game_id,
    )
    report.chat = _evidence(report, message)
    report.save(update_fields=["chat"])
    reason = gettext_noop("The word filter caught a chat message.")
    _record_message(message, None, audit.CHAT_MESSAGE_FILTERED, reason, report)
    return report


def delete_message(
    *, moderator: User, message_id: Any, reason: str, report: Report | None = None
) -> ChatMessage:
    """Remove a message from every reader's chat and from the game's record (audited)."""
    reason = required_reason(reason)
    message = chat_services.message_of(message_id)
    with transaction.atomic():
        if not chat_services.delete(message=message):
            raise ServiceError(codes.CONFLICT, gettext_noop("That message was deleted already."))
        deleted = audit.CHAT_MESSAGE_DELETED
        _record_message(message, moderator, deleted, reason, report, target_game=message.game)
    return message


def mute_from_chat(
    *,
    moderator: User,
    user_id: Any,
    until: datetime | None,
    reason: str,
    report: Report | None = None,
) -> ChatBan:
    """``user_id`` may not write in any chat until ``until`` (audited; the player is told)."""
    reason = required_reason(reason)
    if until is None:
        raise ServiceError(codes.UNTIL_REQUIRED, gettext_noop("Say until when."))
    if until <= timezone.now():
        raise ServiceError(codes.INVALID_UNTIL, gettext_noop("The end date must be in the future."))
    with transaction.atomic():
        user = player_to_sanction(moderator, user_id)
        ban = chat_services.ban(user=user, until=until, reason=reason, by=moderator)
        audit.record(
            actor=moderator,
            action=audit.PLAYER_CHAT_MUTED,
            reason=reason,
            target_user=user,
            report=report,
            until=until.isoformat(),
        )
        notify_player(
            user,
            f"You are muted from chat until {until:%Y-%m-%d %H:%M} UTC. Reason: {reason}",
        )
    return ban
