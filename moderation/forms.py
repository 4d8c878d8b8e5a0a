"""Forms of the moderation screens: every act takes a reason; suspensions take an end date."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.utils.translation import gettext_lazy as _

from moderation import services
from players import lockout


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


CHAT_ACTIONS = ("delete_chat", "mute_chat")


class ChatActionForm(_ReasonForm):
    action = forms.ChoiceField(label=_("Action"), choices=[(a, a) for a in CHAT_ACTIONS])


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
# Admin log-in, behind the per-account delay after failed log-ins


class RateLimitedAdminLoginForm(AdminAuthenticationForm):
    """The admin's log-in form. The limit itself is the one every log-in path shares
    (``players.lockout``, an authentication backend): this form only says how long the account
    must wait when the backend refused to check the password."""

    error_messages = {
        **AdminAuthenticationForm.error_messages,
        "throttled": _("Too many failed log-in attempts. Try again in %(seconds)s seconds."),
    }

    def clean(self) -> dict[str, Any]:
        try:
            return super().clean()
        except forms.ValidationError:
            wait = lockout.retry_after(self.request)
            if wait is not None:
                raise forms.ValidationError(
                    self.error_messages["throttled"], code="throttled", params={"seconds": wait}
                ) from None
            raise
