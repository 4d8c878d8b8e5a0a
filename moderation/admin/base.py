"""What every moderation screen shares: the admin site's log-in and titles, links to players
and games, and the read-only base of every model admin."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html, format_html_join

from config.errors import ServiceError
from moderation.forms import RateLimitedAdminLoginForm

admin.site.login_form = RateLimitedAdminLoginForm
admin.site.site_header = "Uno All Wild moderation"
admin.site.site_title = "Uno All Wild moderation"
admin.site.index_title = "Moderation"


def user_link(user: Any) -> str:
    if user is None:
        return "(deleted)"
    url = reverse("admin:players_user_change", args=[user.pk])
    return format_html('<a href="{}">{}</a>', url, user.username)


def named_user_link(user: Any) -> str:
    """A player as "Display name (@username)", linked to their page."""
    if user is None:
        return "(deleted account)"
    url = reverse("admin:players_user_change", args=[user.pk])
    return format_html('<a href="{}">{} (@{})</a>', url, user.public_name, user.username)


def game_link(game: Any) -> str:
    if game is None:
        return "-"
    url = reverse("admin:games_game_change", args=[game.pk])
    return format_html('<a href="{}">{} ({})</a>', url, str(game.pk)[:8], game.status)


def service_error_message(request: HttpRequest, exc: ServiceError) -> None:
    messages.error(request, f"{exc.message} ({exc.code})")


class ReadOnlyAdmin(admin.ModelAdmin):
    """Shown, never edited through a form: every change is a service call with a reason."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


def done_message(action: str, username: str) -> str:
    # Verbs first: the admin capitalises the first letter of every message.
    return {
        "dismiss": f"Dismissed the report; {username} was not sanctioned.",
        "warn": f"Warned {username}.",
        "suspend": f"Suspended {username}.",
        "ban": f"Banned {username}.",
        "unban": f"Unbanned {username}: they may play again.",
        "reset_name": f"Reset the display name of {username}.",
    }.get(action, "Done.")


def seats_html(game: Any) -> str:
    seats = sorted(game.seats.all(), key=lambda s: (s.position is None, s.position))
    return format_html_join(
        ", ", "{}", ((user_link(s.user) if s.user else "(deleted)",) for s in seats)
    )
