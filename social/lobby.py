"""Reads of the lobby: public games waiting for players with their host's rating, the open
seeks of others, and my own seeks. Players blocked either way are left out of both lists."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from games import selectors as game_selectors
from games.models import Game
from players.models import User
from social.models import Seek
from social.pairing import shown_ratings
from social.selectors import blocked_ids

LIST_LIMIT = 100


@dataclass(frozen=True)
class OpenGame:
    game: Game
    host_name: str
    host_rating: int
    players: int


def open_games(*, user: User, kind: str | None = None) -> list[OpenGame]:
    """Public lobbies with a free seat, oldest first, at most LIST_LIMIT; none hosted by a
    player blocked either way. Three queries: the blocks, the games with their hosts, the
    hosts' ratings."""
    hidden = blocked_ids(user.pk)
    games = game_selectors.open_games().exclude(host_id__in=hidden).select_related("host")
    if kind is not None:
        games = games.filter(kind=kind)
    rows = list(games.order_by("created_at").prefetch_related("seats")[:LIST_LIMIT])
    ratings: dict[tuple[str, Any], int] = {}
    for game_kind in {g.kind for g in rows}:
        hosts = [g.host_id for g in rows if g.kind == game_kind]
        ratings.update(((game_kind, u), r) for u, r in shown_ratings(game_kind, hosts).items())
    return [
        OpenGame(
            game=g,
            host_name=g.host.public_name if g.host else "",
            host_rating=ratings[(g.kind, g.host_id)],
            players=len(g.seats.all()),
        )
        for g in rows
        if g.host_id is not None
    ]


def others_seeks(*, user: User, kind: str | None = None) -> list[Seek]:
    """Open seeks of other players, oldest first, at most LIST_LIMIT; none of a player blocked
    either way."""
    hidden = blocked_ids(user.pk) | {user.pk}
    seeks = Seek.objects.filter(status=Seek.OPEN, expires_at__gt=timezone.now()).exclude(
        user_id__in=hidden
    )
    if kind is not None:
        seeks = seeks.filter(kind=kind)
    return list(seeks.select_related("user").order_by("created_at")[:LIST_LIMIT])


def recent_since() -> datetime:
    return timezone.now() - timedelta(seconds=settings.SEEK_TTL_SECONDS)


def my_seeks(*, user: User) -> list[Seek]:
    """``user``'s open seeks and those matched lately (the client follows them to the game),
    newest first."""
    return list(
        Seek.objects.filter(
            Q(status=Seek.OPEN) | Q(status=Seek.MATCHED, closed_at__gte=recent_since()),
            user=user,
        ).order_by("-created_at")[:LIST_LIMIT]
    )


def seek_of(*, user: User, seek_id: Any) -> Seek | None:
    return Seek.objects.filter(user=user, pk=seek_id).first()
