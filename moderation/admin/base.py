"""What every moderation screen shares: the admin site's log-in and titles, links to players
and games, and the read-only base of every model admin."""

from __future__ import annotations

from typing import Any, TypeVar

from django import forms
from django.apps import apps
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db import models
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from config.errors import ServiceError
from games.models import Game
from moderation import words
from moderation.forms import RateLimitedAdminLoginForm

FormT = TypeVar("FormT", bound=forms.Form)
ModelT = TypeVar("ModelT", bound=models.Model)

# The admin's change pages of the objects moderators act on (URL names, each taking the pk).
USER_PAGE = "admin:players_user_change"
GAME_PAGE = "admin:games_game_change"
REPORT_PAGE = "admin:moderation_report_change"

admin.site.login_form = RateLimitedAdminLoginForm
# Lazy: each request's language (the moderator's own, moderation.middleware) decides the words.
admin.site.site_header = _("Uno All Wild moderation")
admin.site.site_title = _("Uno All Wild moderation")
admin.site.index_title = _("Moderation")

# The panel also names, in the moderator's language, the apps and the model it shows from the
# games and players apps: their own names are English literals (AppConfig.verbose_name, Game's
# default verbose name). Lazy names change no English word, and no migration: migrations compare
# a model's declared Meta options, not these runtime names.
apps.get_app_config("games").verbose_name = _("Games")
apps.get_app_config("players").verbose_name = _("Players")
Game._meta.verbose_name = _("game")
Game._meta.verbose_name_plural = _("games")


def user_link(user: Any) -> str:
    if user is None:
        return gettext("(deleted)")
    url = reverse(USER_PAGE, args=[user.pk])
    return format_html('<a href="{}">{}</a>', url, user.username)


def named_user_link(user: Any) -> str:
    """A player as "Display name (@username)", linked to their page."""
    if user is None:
        return gettext("(deleted account)")
    url = reverse(USER_PAGE, args=[user.pk])
    return format_html('<a href="{}">{} (@{})</a>', url, user.public_name, user.username)


def game_link(game: Any) -> str:
    if game is None:
        return "-"
    url = reverse(GAME_PAGE, args=[game.pk])
    return format_html('<a href="{}">{} ({})</a>', url, str(game.pk)[:8], words.status(game.status))


def service_error_message(request: HttpRequest, exc: ServiceError) -> None:
    # The services' messages are English (the API's clients read the code); those a moderator
    # can meet are marked with gettext_noop where they are raised, so the catalogue has them.
    messages.error(request, f"{gettext(exc.message)} ({exc.code})")


class ScreensMixin:
    """A model admin with screens of its own beside its pages (``screens``: each one's route,
    its view, a method name or a function, and its URL name) and a change form that shows more
    of the object (``change_context``)."""

    screens: tuple[tuple[str, Any, str], ...] = ()

    def get_urls(self) -> list[Any]:
        site = self.admin_site
        own = [
            path(
                route,
                site.admin_view(getattr(self, view) if isinstance(view, str) else view),
                name=name,
            )
            for route, view, name in self.screens
        ]
        return own + super().get_urls()

    def change_context(self, request: HttpRequest, obj: Any) -> dict[str, Any]:
        return {}

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        obj = self.get_object(request, object_id)
        context = dict(extra_context or {})
        if obj is not None:
            context.update(self.change_context(request, obj))
        return super().change_view(request, object_id, form_url, context)


class ReadOnlyAdmin(admin.ModelAdmin):
    """Shown, never edited through a form: every change is a service call with a reason."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


DONE_MESSAGES = {
    "dismiss": _("Dismissed the report; %(username)s was not sanctioned."),
    "warn": _("Warned %(username)s."),
    "suspend": _("Suspended %(username)s."),
    "ban": _("Banned %(username)s."),
    "unban": _("Unbanned %(username)s: they may play again."),
    "reset_name": _("Reset the display name of %(username)s."),
    "delete_chat": _("Deleted the reported chat messages of %(username)s."),
    "mute_chat": _("Muted %(username)s from chat."),
}


def done_message(action: str, username: str) -> str:
    # Verbs first: the admin capitalises the first letter of every message.
    text = DONE_MESSAGES.get(action)
    return str(text) % {"username": username} if text is not None else gettext("Done.")


def form_errors_message(request: HttpRequest, form: Any) -> None:
    """A form's errors as messages, each under its field's label in the moderator's language."""
    for field, errors in form.errors.items():
        label = form.fields[field].label if field in form.fields else field
        messages.error(request, f"{label}: {' '.join(errors)}")


def posted_form(request: HttpRequest, form_class: type[FormT]) -> FormT | None:
    """An action screen's form, bound to the POST and valid; None when there is nothing to act
    on (a GET, or errors, shown as messages): the screen then goes back to its page."""
    if request.method != "POST":
        return None
    form = form_class(request.POST)
    if not form.is_valid():
        form_errors_message(request, form)
        return None
    return form


def action_screen(
    request: HttpRequest,
    permission: str,
    model: type[ModelT],
    pk: Any,
    page: str,
    form_class: type[FormT],
) -> tuple[ModelT, str, FormT | None]:
    """What an action screen on one object starts with: the moderator's permission (refused
    before the object is looked up, so a 403 tells nothing of which ids exist), the object or
    a 404, the URL of its admin ``page`` to go back to, and the posted form (``posted_form``)."""
    if not request.user.has_perm(permission):
        raise PermissionDenied
    obj = get_object_or_404(model, pk=pk)
    return obj, reverse(page, args=[obj.pk]), posted_form(request, form_class)


def seats_html(game: Any) -> str:
    seats = sorted(game.seats.all(), key=lambda s: (s.position is None, s.position))
    return format_html_join(
        ", ", "{}", ((user_link(s.user) if s.user else gettext("(deleted)"),) for s in seats)
    )
