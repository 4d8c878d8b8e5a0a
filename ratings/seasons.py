"""Monthly season boards (docs/ratings.md, "Seasons"): per game and calendar month (UTC), the
players who won the most rated games that month, ties broken by their rating at the month's end
(the rating after their last rated game of it), so a past month's board stays as it was."""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

from django.db.models import Count, OuterRef, Subquery
from django.utils import timezone

from ratings.models import RatingChange

SEASON_SIZE = 100
# Months before this have no seasons (nothing was rated then): a bound on the path value.
FIRST_SEASON = date(2000, 1, 1)


def current_month(now: datetime | None = None) -> date:
    now = now or timezone.now()
    return date(now.year, now.month, 1)


def parse_month(text: str) -> date | None:
    """ "2026-12" -> 1 December 2026; None for anything else, or a month outside the seasons
    played (before the first, after the current)."""
    try:
        year, month = text.split("-")
        if len(year) != 4 or len(month) != 2:
            return None
        start = date(int(year), int(month), 1)
    except ValueError:
        return None
    if start < FIRST_SEASON or start > current_month():
        return None
    return start


def _bounds(month: date) -> tuple[datetime, datetime]:
    start = datetime(month.year, month.month, 1, tzinfo=UTC)
    year, next_month = (month.year + 1, 1) if month.month == 12 else (month.year, month.month + 1)
    return start, datetime(year, next_month, 1, tzinfo=UTC)


def season_board(kind: str, month: date) -> dict[str, Any]:
    """The month's top ``SEASON_SIZE`` of ``kind``: wins that month, then rating at its end.
    Equal wins and rating share a place. One query; accounts not in good standing (banned,
    suspended) are left out, as on the leaderboards."""
    start, end = _bounds(month)
    in_month = RatingChange.objects.filter(kind=kind, created_at__gte=start, created_at__lt=end)
    month_end_rating = (
        in_month.filter(user=OuterRef("user"))
        .order_by("-created_at", "-id")
        .values("shown_after")[:1]
    )
    rows = (
        in_month.filter(place=1, user__is_active=True)
        .values("user_id", "user__username", "user__display_name")
        .annotate(wins=Count("id"), rating=Subquery(month_end_rating))
        .order_by("-wins", "-rating", "user_id")[:SEASON_SIZE]
    )
    entries: list[dict[str, Any]] = []
    for index, row in enumerate(rows):
        previous = entries[-1] if entries else None
        tied = previous and (previous["wins"], previous["rating"]) == (row["wins"], row["rating"])
        entries.append(
            {
                "place": previous["place"] if tied and previous else index + 1,
                "user_id": row["user_id"],
                "name": row["user__display_name"] or row["user__username"],
                "wins": row["wins"],
                "rating": row["rating"],
            }
        )
    return {"game": kind, "month": month.strftime("%Y-%m"), "entries": entries}
