"""Forms of the moderation screens: every act takes a reason; suspensions take an end date."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.core.cache import cache
from django.utils.translation import gettext_lazy as _

from moderation import services


class _ReasonForm(forms.Form):
    reason = forms.CharField(
        label=_("Reason"),
        widget=forms.Textarea(attrs={"rows": 2}),
        max_length=2000,
        help_text=_("Required. Goes into the audit log; sanctions also quote it to the player."),
    )
    until = forms.DateTimeField(
        label=_("Until"),
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
        help_text=_("End of a suspension (required), or of a ban (optional). UTC."),
    )


class ReportActionForm(_ReasonForm):
    action = forms.ChoiceField(label=_("Action"), choices=[(a, a) for a in services.REPORT_ACTIONS])


PLAYER_ACTIONS = ("warn", "suspend", "ban", "unban", "reset_name")


class PlayerActionForm(_ReasonForm):
    action = forms.ChoiceField(label=_("Action"), choices=[(a, a) for a in PLAYER_ACTIONS])


GAME_ACTIONS = ("abort", "remove", "timeout")


class GameActionForm(forms.Form):
    action = forms.ChoiceField(label=_("Action"), choices=[(a, a) for a in GAME_ACTIONS])
    reason = forms.CharField(
        label=_("Reason"), widget=forms.Textarea(attrs={"rows": 2}), max_length=2000
    )
    player = forms.IntegerField(label=_("Player to remove"), required=False)


# ---------------------------------------------------------------------------------------------
# Admin log-in, rate-limited


def _login_keys(ip: str, username: str) -> list[str]:
    return [f"moderation:admin-login:ip:{ip}", f"moderation:admin-login:user:{username.lower()}"]


def reset_login_failures(*, ip: str, username: str = "") -> None:
    cache.delete_many(_login_keys(ip, username))


class RateLimitedAdminLoginForm(AdminAuthenticationForm):
    """The admin's log-in form, refusing further attempts after ADMIN_LOGIN_MAX_FAILURES failed
    ones within ADMIN_LOGIN_WINDOW_SECONDS, per client address and per username (so neither one
    address guessing many names nor many addresses guessing one name gets far).

    A refused attempt does not even check the password, so guessing on cannot reveal the right
    one. Counters live in the cache (Redis in production, shared by every web process).
    """

    error_messages = {
        **AdminAuthenticationForm.error_messages,
        "throttled": _("Too many failed log-in attempts. Try again in %(minutes)s minutes."),
    }

    def clean(self) -> dict[str, Any]:
        from django.conf import settings

        limit = getattr(settings, "ADMIN_LOGIN_MAX_FAILURES", 5)
        window = getattr(settings, "ADMIN_LOGIN_WINDOW_SECONDS", 900)
        request = self.request
        ip = request.META.get("REMOTE_ADDR", "") if request is not None else ""
        keys = _login_keys(ip, self.cleaned_data.get("username") or "")
        counts = cache.get_many(keys)
        if any(int(count or 0) >= limit for count in counts.values()):
            raise forms.ValidationError(
                self.error_messages["throttled"],
                code="throttled",
                params={"minutes": max(1, window // 60)},
            )
        try:
            return super().clean()
        except forms.ValidationError:
            for key in keys:
                # add() starts the window at the first failure; incr() never extends it.
                cache.add(key, 0, timeout=window)
                try:
                    cache.incr(key)
                except ValueError:  # expired between add() and incr()
                    cache.set(key, 1, timeout=window)
            raise
