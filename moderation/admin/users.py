"""Players in the moderation admin: search, and warn / suspend / ban / unban / reset the display
name, each with a reason (moderation.services writes the audit entry).

Moderators may only look (``players.view_user``) and act through the moderation form; changing an
account itself (groups, permissions, staff status, passwords) is for administrators alone, so a
moderator can never grant permissions, whatever permissions a group was given by mistake.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.contrib.auth.forms import UserChangeForm
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.utils.formats import date_format
from django.utils.timezone import localtime
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _

from config.errors import ServiceError
from moderation import audit, selectors, services
from moderation.admin import ratings
from moderation.admin.base import (
    USER_PAGE,
    ScreensMixin,
    action_screen,
    done_message,
    service_error_message,
)
from moderation.forms import PLAYER_ACTIONS, PlayerActionForm
from moderation.models import Report, Sanction
from players import oauth
from players.models import User

MODERATORS_GROUP = "moderators"  # created by migration moderation/0002


def _is_moderator(user: User) -> bool:
    return bool(user.is_staff) and user.groups.filter(name=MODERATORS_GROUP).exists()


# The players app's own fields, named in the moderator's language (Django's own fields, such as
# the username, come with Django's translations).
PROFILE_LABELS = {
    "display_name": _("display name"),
    "time_zone": _("time zone"),
    "language": _("language"),
    "email_verified": _("email verified"),
    "bot_owner": _("bot of"),
}


class PlayerChangeForm(UserChangeForm):
    class Meta(UserChangeForm.Meta):
        model = User
        labels = PROFILE_LABELS


@admin.register(User)
class UserAdmin(ScreensMixin, DjangoUserAdmin):
    form = PlayerChangeForm
    list_display = [
        "username",
        "display_name_shown",
        "moderation_status",
        "is_staff",
        "bot_of",
        "date_joined",
        "last_login",
    ]
    list_filter = ["is_active", "is_staff", "is_superuser", "groups"]
    list_select_related = ["bot_owner"]
    search_fields = ["username", "display_name", "email"]
    ordering = ["username"]
    change_form_template = "admin/moderation/user_change_form.html"
    fieldsets = (
        *DjangoUserAdmin.fieldsets,
        (
            _("Profile"),
            {"fields": ("display_name", "time_zone", "language", "email_verified", "bot_owner")},
        ),
    )
    # A bot account's owner answers for it (players/bots.py): moderators see who that is.
    readonly_fields = ["bot_owner"]
    # What a moderator sees: no password hash, no permission lists.
    moderator_fieldsets = (
        (None, {"fields": ("username", "display_name", "email", "email_verified", "bot_owner")}),
        (_("Account"), {"fields": ("is_active", "is_staff", "date_joined", "last_login")}),
    )

    screens = (("<int:user_id>/moderate/", "moderate_view", "players_user_moderate"),)

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> Any:
        if obj is not None and not request.user.is_superuser:
            return self.moderator_fieldsets
        return super().get_fieldsets(request, obj)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.is_superuser)

    # Granting or removing the moderator role (staff status plus the "moderators" group) is a
    # moderation act like any other: it goes to the audit log, with the administrator who did it.

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        stored = User.objects.filter(pk=obj.pk).first() if change else None
        obj._was_moderator = stored is not None and _is_moderator(stored)
        super().save_model(request, obj, form, change)

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        super().save_related(request, form, formsets, change)
        user = form.instance
        was, now = getattr(user, "_was_moderator", False), _is_moderator(user)
        if was == now:
            return
        audit.record(
            actor=request.user,
            action=audit.MODERATOR_GRANTED if now else audit.MODERATOR_REMOVED,
            # English in the log; the audit list shows it in the reader's language.
            reason=(
                gettext_noop(
                    "Made a moderator (staff status and the moderators group) in the user admin."
                )
                if now
                else gettext_noop(
                    "No longer a moderator (staff status or the moderators group removed)."
                )
            ),
            target_user=user,
        )

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.is_superuser)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.is_superuser)

    @admin.display(description=_("bot of"), ordering="bot_owner__username")
    def bot_of(self, user: User) -> str:
        return user.bot_owner.username if user.bot_owner_id is not None else ""

    @admin.display(description=_("display name"), ordering="display_name")
    def display_name_shown(self, user: User) -> str:
        return user.display_name

    @admin.display(description=_("Moderation"))
    def moderation_status(self, user: User) -> str:
        if user.is_active:
            return gettext("ok")
        restriction = selectors.restriction_of(user)
        if restriction is None:
            return gettext("inactive")
        kind = restriction.get_kind_display().lower()
        if restriction.until is None:
            return kind
        return gettext("%(kind)s until %(date)s") % {
            "kind": kind,
            "date": date_format(localtime(restriction.until), "SHORT_DATE_FORMAT"),
        }

    def change_context(self, request: HttpRequest, user: Any) -> dict[str, Any]:
        return dict(
            restriction=selectors.restriction_of(user),
            sanctions=list(Sanction.objects.filter(user=user).select_related("created_by")),
            reports_against=selectors.reports_against(user),
            recent_games=selectors.recent_games(user),
            rating_history=ratings.player_history(user),
            # Third-party apps acting for the player (players/oauth.py): allowed, and own.
            allowed_apps=oauth.authorized_apps(user=user),
            registered_apps=oauth.registered_apps(user=user),
            may_sanction=request.user.has_perm("moderation.sanction_player")
            and request.user.pk != user.pk,
            player_actions=PLAYER_ACTIONS,
            open_reports=Report.objects.filter(reported=user, status=Report.OPEN).count(),
        )

    def moderate_view(self, request: HttpRequest, user_id: int) -> HttpResponse:
        player, back, form = action_screen(
            request, "moderation.sanction_player", User, user_id, USER_PAGE, PlayerActionForm
        )
        if form is None:
            return HttpResponseRedirect(back)
        action, reason, until = (form.cleaned_data[k] for k in ("action", "reason", "until"))
        moderator: Any = request.user
        try:
            if action == "warn":
                services.warn(moderator=moderator, user_id=player.pk, reason=reason)
            elif action in ("suspend", "ban"):
                services.suspend(
                    moderator=moderator,
                    user_id=player.pk,
                    reason=reason,
                    until=until,
                    ban=action == "ban",
                )
            elif action == "unban":
                services.unban(moderator=moderator, user_id=player.pk, reason=reason)
            else:
                services.reset_display_name(moderator=moderator, user_id=player.pk, reason=reason)
        except ServiceError as exc:
            service_error_message(request, exc)
        else:
            messages.success(request, done_message(action, player.username))
        return HttpResponseRedirect(back)
