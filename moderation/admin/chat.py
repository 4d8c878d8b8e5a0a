"""The chat in the admin: a chat report's evidence and acts on the report's page (delete the
reported messages, mute the author from chat for a time), and read-only lists of the chat's
messages (the word filter's catches among them) and of the mutes from chat."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from chat import selectors as chat_selectors
from chat.models import ChatBan, ChatMessage
from config.errors import ServiceError
from moderation import chat
from moderation.admin.base import (
    REPORT_PAGE,
    ReadOnlyAdmin,
    done_message,
    game_link,
    posted_form,
    service_error_message,
    user_link,
)
from moderation.forms import ChatActionForm
from moderation.models import Report

PERMISSIONS = {
    "delete_chat": "moderation.resolve_report",
    "mute_chat": "moderation.sanction_player",
}


def report_context(request: HttpRequest, report: Report) -> dict[str, Any]:
    """What the report's page shows of its chat evidence: the rows (reported ones marked,
    each with whether it is deleted now) and the author's count of filtered messages."""
    evidence = report.chat if isinstance(report.chat, dict) else {}
    rows = evidence.get("messages") or []
    if not rows:
        return {}
    reported = set(evidence.get("reported") or [])
    deleted = set(
        ChatMessage.objects.filter(
            pk__in=[r["id"] for r in rows], deleted_at__isnull=False
        ).values_list("pk", flat=True)
    )
    shown = [
        {**r, "reported": r["id"] in reported, "deleted_now": r["id"] in deleted} for r in rows
    ]
    count = chat_selectors.filtered_count([report.reported_id]).get(report.reported_id, 0)
    return {
        "chat_rows": shown,
        "filtered_count": count,
        "may_delete_chat": request.user.has_perm(PERMISSIONS["delete_chat"]),
        "may_mute_chat": request.user.has_perm(PERMISSIONS["mute_chat"]),
    }


def _act(request: HttpRequest, report: Report, action: str, data: dict[str, Any]) -> None:
    if action == "mute_chat":
        chat.mute_from_chat(
            moderator=request.user,  # type: ignore[arg-type]
            user_id=report.reported_id,
            until=data["until"],
            reason=data["reason"],
            report=report,
        )
        return
    pending = ChatMessage.objects.filter(
        pk__in=(report.chat or {}).get("reported", []), deleted_at=None
    ).values_list("pk", flat=True)
    for message_id in pending:
        chat.delete_message(
            moderator=request.user,  # type: ignore[arg-type]
            message_id=message_id,
            reason=data["reason"],
            report=report,
        )


def chat_action_view(request: HttpRequest, report_id: int) -> HttpResponse:
    """The report page's chat form: delete the reported messages, or mute their author."""
    report = get_object_or_404(Report, pk=report_id)
    back = reverse(REPORT_PAGE, args=[report.pk])
    form = posted_form(request, ChatActionForm)
    if form is None:
        return HttpResponseRedirect(back)
    action = form.cleaned_data["action"]
    if not request.user.has_perm(PERMISSIONS[action]):
        raise PermissionDenied
    try:
        _act(request, report, action, form.cleaned_data)
    except ServiceError as exc:
        service_error_message(request, exc)
    else:
        messages.success(request, done_message(action, report.reported.username))
    return HttpResponseRedirect(back)


@admin.register(ChatMessage)
class ChatMessageAdmin(ReadOnlyAdmin):
    list_display = ["id", "created_at", "author_link", "channel", "text", "filtered", "deleted_at"]
    list_filter = ["filtered", "channel", ("deleted_at", admin.EmptyFieldListFilter)]
    search_fields = ["author_username", "author_name", "text"]
    list_select_related = ["author"]
    fields = [
        "id",
        "game_shown",
        "channel",
        "author_link",
        "text",
        "created_at",
        "filtered",
        "deleted_at",
    ]
    readonly_fields = fields

    def get_queryset(self, request: HttpRequest) -> Any:
        return super().get_queryset(request).filter(deletes=None)

    @admin.display(description=_("Author"), ordering="author_username")
    def author_link(self, message: ChatMessage) -> str:
        return user_link(message.author) if message.author else message.author_name

    @admin.display(description=_("Game"))
    def game_shown(self, message: ChatMessage) -> str:
        return game_link(message.game)


@admin.register(ChatBan)
class ChatBanAdmin(ReadOnlyAdmin):
    list_display = ["id", "player", "until", "reason", "created_by", "created_at"]
    list_select_related = ["user", "created_by"]
    search_fields = ["user__username"]

    @admin.display(description=_("Player"), ordering="user__username")
    def player(self, ban: ChatBan) -> str:
        return user_link(ban.user)
