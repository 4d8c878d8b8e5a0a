"""Every read of notifications: the inbox, the unread count, the effective preferences."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games.models import Game
from notifications import preferences
from notifications.models import Notification, Preference

if TYPE_CHECKING:
    from players.models import User

MAX_PAGE = 100


def inbox(
    user: User, *, unread: bool = False, before: int | None = None, limit: int = 20
) -> tuple[list[Notification], bool]:
    """One page of ``user``'s notifications, newest first, and whether there are older ones.

    ``before`` is the id of the last notification of the previous page (a cursor: new
    notifications arriving meanwhile never shift the pages)."""
    limit = max(1, min(limit, MAX_PAGE))
    # Withdrawn notices (a replaced or moot "your turn", one seen at the table) stay in the
    # database as history but are not the player's notices any more.
    rows = Notification.objects.filter(user=user, cleared_at__isnull=True)
    if unread:
        rows = rows.filter(read_at__isnull=True)
    if before is not None:
        rows = rows.filter(pk__lt=before)
    page = list(rows.order_by("-pk")[: limit + 1])
    return page[:limit], len(page) > limit


def unread_count(user: User) -> int:
    return Notification.objects.filter(
        user=user, read_at__isnull=True, cleared_at__isnull=True
    ).count()


def games_waiting(user_id: int) -> int:
    """How many games wait for this player's move: the badge (issue 21) counts games, not
    notices, so ten turns of one game count once, and the moves of others (bots included) change
    it only when the turn comes to the player or leaves them."""
    return Game.objects.filter(status=Game.ACTIVE, current_user_id=user_id).count()


def preference_view(user: User) -> dict[str, Any]:
    """The player's effective preferences (defaults filled in), as the API shows them."""
    pref = Preference.objects.filter(user=user).first()
    quiet = None
    if pref is not None and pref.quiet_start is not None and pref.quiet_end is not None:
        quiet = {"start": pref.quiet_start, "end": pref.quiet_end}
    return {
        "channels": preferences.switches(pref),
        "quiet_hours": quiet,
        "time_zone": user.time_zone,
    }
