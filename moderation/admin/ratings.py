"""Ratings in the moderation admin: a rated game's rating changes on its page, with the form that
voids them (``moderation.void_ratings``), and a player's rating history on theirs."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from config import error_codes as codes
from config.errors import ServiceError
from games.models import Game
from moderation import interventions
from moderation.admin.base import GAME_PAGE, action_screen, service_error_message
from players.models import User
from ratings.models import RatingChange, VoidedMatch

# The latest changes a player's page lists.
HISTORY_ROWS = 50


class VoidRatingsForm(forms.Form):
    reason = forms.CharField(
        label=_("Reason"), widget=forms.Textarea(attrs={"rows": 2}), max_length=2000
    )


def game_context(request: HttpRequest, game: Game, *, seated: bool) -> dict[str, Any]:
    """The game page's ratings part: its changes, whether they were voided, and whether this
    moderator may void them."""
    if not game.rated:
        return {}
    voided = VoidedMatch.objects.filter(game=game).first()
    changes = list(RatingChange.objects.filter(game=game).select_related("user").order_by("place"))
    return {
        "rating_changes": changes,
        "ratings_voided": voided,
        "may_void": not seated
        and voided is None
        and game.status == Game.FINISHED
        and request.user.has_perm("moderation.void_ratings"),
    }


def player_history(user: User) -> list[RatingChange]:
    """A player's latest rating changes, every game kind, newest first."""
    return list(
        RatingChange.objects.filter(user=user)
        .select_related("game")
        .order_by("-created_at", "-id")[:HISTORY_ROWS]
    )


def void_view(request: HttpRequest, game_id: Any) -> HttpResponse:
    game, back, form = action_screen(
        request, "moderation.void_ratings", Game, game_id, GAME_PAGE, VoidRatingsForm
    )
    if form is None:
        return HttpResponseRedirect(back)
    moderator: Any = request.user
    try:
        done = interventions.void_ratings(
            moderator=moderator, game_id=game.pk, reason=form.cleaned_data["reason"]
        )
    except ServiceError as exc:
        if exc.error is codes.SEATED_MODERATOR:
            raise PermissionDenied from exc
        service_error_message(request, exc)
        return HttpResponseRedirect(back)
    messages.success(
        request,
        gettext("Voided the rating changes of this game.")
        + " "
        + ngettext(
            "%(count)d later match was rated again.",
            "%(count)d later matches were rated again.",
            done.matches,
        )
        % {"count": done.matches},
    )
    return HttpResponseRedirect(back)
