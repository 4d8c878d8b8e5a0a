"""Reads for moderation: blocks, a player's reports and sanctions, a player's recent history."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import Case, Count, F, Q, QuerySet, When
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.models import Game
from moderation import words
from moderation.models import Block, Report, Sanction


def is_blocked(blocker_ids: Iterable[int | None], user: Any) -> bool:
    """Whether any of ``blocker_ids`` has blocked ``user``. One query (none for no ids)."""
    ids = [pk for pk in blocker_ids if pk is not None and pk != user.pk]
    if not ids:
        return False
    return Block.objects.filter(blocker_id__in=ids, blocked=user).exists()


def is_blocked_either_way(one: Any, other: Any) -> bool:
    """Whether ``one`` blocked ``other`` or ``other`` blocked ``one``. One query."""
    if one.pk == other.pk:
        return False
    return Block.objects.filter(
        Q(blocker=one, blocked=other) | Q(blocker=other, blocked=one)
    ).exists()


def blocked_either_way(user_id: Any) -> set[Any]:
    """The players ``user_id`` blocks or is blocked by. One query."""
    pairs = Block.objects.filter(Q(blocker_id=user_id) | Q(blocked_id=user_id)).values_list(
        "blocker_id", "blocked_id"
    )
    return {other for pair in pairs for other in pair if other != user_id}


def blocked_either_way_query(user_id: Any) -> QuerySet[Block]:
    """``blocked_either_way`` as a query of one column (``other``), unevaluated."""
    other = Case(When(blocker_id=user_id, then=F("blocked_id")), default=F("blocker_id"))
    return (
        Block.objects.filter(Q(blocker_id=user_id) | Q(blocked_id=user_id))
        .order_by()
        .values_list(other, flat=True)
    )


def blocks_of(user: Any) -> QuerySet[Block]:
    return Block.objects.filter(blocker=user).select_related("blocked")


def reports_by(user: Any) -> QuerySet[Report]:
    """``user``'s own reports, newest first."""
    return Report.objects.filter(reporter=user).select_related("reported")


def restriction_of(user: Any) -> Sanction | None:
    """The suspension or ban in force on ``user``, if any (the longest-running one)."""
    now = timezone.now()
    in_force = Sanction.objects.filter(
        user=user, kind__in=Sanction.RESTRICTING, lifted_at__isnull=True
    ).filter(Q(until__isnull=True) | Q(until__gt=now))
    # A ban without an end outranks any dated one.
    return in_force.order_by("until").filter(until__isnull=True).first() or (
        in_force.order_by("-until").first()
    )


# The bots' levels as the players' client names them.
BOT_LEVELS = {"random": _("easy"), "heuristic": _("medium"), "expert": _("hard")}


def seat_name(seat: Any) -> str:
    """Who sits in a seat, as a moderator needs it: the display name and the username of a
    person, a bot as a bot (its name and level), "(deleted account)" otherwise; in the
    moderator's language."""
    user = seat.user
    if user is not None:
        name = f"{user.public_name} (@{user.username})"
        return gettext("%(name)s, played by a bot") % {"name": name} if seat.bot_level else name
    if seat.bot_level:
        level = BOT_LEVELS.get(seat.bot_level, seat.bot_level)
        return gettext("%(name)s (bot, %(level)s)") % {
            "name": seat.bot_name or gettext("Bot"),
            "level": level,
        }
    return gettext("(deleted account)")


def recent_games(user: Any, *, limit: int = 10) -> list[Any]:
    """``user``'s latest games, each with ``player_names`` (bots named as bots). Two queries."""
    games = list(
        Game.objects.filter(seats__user=user)
        .order_by("-created_at")
        .distinct()
        .prefetch_related("seats__user")[:limit]
    )
    for game in games:
        seats = sorted(game.seats.all(), key=lambda s: (s.position is None, s.position))
        game.player_names = [seat_name(s) for s in seats]
        game.status_shown = words.status(game.status)
    return games


def reports_made_by(user: Any, *, limit: int = 10) -> tuple[list[Report], dict[str, int]]:
    """The reporter's history: their latest reports, and how all of theirs ended (by status),
    so a moderator can weigh one more report from them."""
    rows = list(
        Report.objects.filter(reporter=user)
        .select_related("reported")
        .order_by("-created_at")[:limit]
    )
    counts = dict(
        Report.objects.filter(reporter=user)
        .values_list("status")
        .annotate(n=Count("id"))
        .values_list("status", "n")
    )
    return rows, counts


def reports_against(user: Any, *, limit: int = 10) -> list[Report]:
    return list(
        Report.objects.filter(reported=user)
        .select_related("reporter")
        .order_by("-created_at")[:limit]
    )
