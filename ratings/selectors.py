"""Every read of ratings: leaderboards and profiles (docs/ratings.md, docs/api.md)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.db.models import Count, OuterRef, QuerySet, Subquery
from django.utils import timezone

from config.attributes import attributes_of
from games.engine import registry
from players.models import User
from ratings import formula
from ratings.models import Rating, RatingChange

BOARD_SIZE = 100
BOARD_MIN_GAMES = 10
BOARD_ACTIVE_DAYS = 30
# A profile's rating history: this many of the player's latest rated games, every game together.
HISTORY_SIZE = 1000
RECENT_GAMES = 10


def known_kind(kind: str) -> bool:
    return kind in registry.kinds()


def _name(user: User) -> str:
    return user.display_name or user.username


def _rating(rating: Rating) -> dict[str, Any]:
    return attributes_of(
        rating,
        "kind shown provisional rated_games wins average_place",
        keys={"kind": "game", "shown": "rating"},
    )


def on_board(kind: str, *, now: Any = None) -> QuerySet[Rating]:
    """The ratings a leaderboard ranks: enough rated games, played lately, by an account in good
    standing (a banned or suspended account is inactive)."""
    since = (now or timezone.now()) - timedelta(days=BOARD_ACTIVE_DAYS)
    return Rating.objects.filter(
        kind=kind,
        rated_games__gte=BOARD_MIN_GAMES,
        updated_at__gte=since,
        active=True,
    )


def leaderboard(kind: str, reader: User, *, now: Any = None) -> dict[str, Any]:
    """The top ``BOARD_SIZE`` of ``kind`` by shown rating and the reader's own place. Two
    queries: the top rows with their players, and the reader's row with the count above it (of
    the ``rating_board`` index alone: no user is read for it). Places are shared by equal ratings
    (1, 2, 2, 4)."""
    now = now or timezone.now()
    board = on_board(kind, now=now)
    top = list(
        board.select_related("user")
        .only("shown", "sigma", "rated_games", "user__username", "user__display_name")
        .order_by("-shown", "user_id")[:BOARD_SIZE]
    )
    entries = []
    for index, rating in enumerate(top):
        tied = index and rating.shown == top[index - 1].shown
        place = entries[-1]["place"] if tied else index + 1
        entries.append(
            {
                "place": place,
                "user_id": rating.user_id,
                "name": _name(rating.user),
                "rating": rating.shown,
                "provisional": rating.provisional,
                "rated_games": rating.rated_games,
            }
        )
    # COUNT(*), not of a column: the index has every column the count filters on but not the
    # id, and PostgreSQL counts from the index alone (an index-only scan) only when no other
    # column is read.
    above = (
        board.filter(shown__gt=OuterRef("shown"))
        .order_by()
        .values("kind")
        .annotate(n=Count("*"))
        .values("n")
    )
    mine = Rating.objects.filter(kind=kind, user=reader).annotate(above=Subquery(above)).first()
    return {"game": kind, "entries": entries, "you": _my_place(mine, now)}


def _my_place(mine: Rating | None, now: Any) -> dict[str, Any]:
    if mine is None:
        return {
            "place": None,
            "rating": formula.shown(formula.MU, formula.SIGMA),
            "provisional": True,
            "rated_games": 0,
        }
    since = now - timedelta(days=BOARD_ACTIVE_DAYS)
    listed = mine.rated_games >= BOARD_MIN_GAMES and mine.updated_at >= since
    return {
        "place": 1 + (mine.above or 0) if listed else None,
        "rating": mine.shown,
        "provisional": mine.provisional,
        "rated_games": mine.rated_games,
    }


# One rating change as a profile reads it: (kind, game id, place, shown before, shown after, at).
Change = tuple[str, Any, int, int, int, Any]


def _history(user: User) -> list[Change]:
    """The player's latest ``HISTORY_SIZE`` rating changes, oldest first (plain tuples: a
    thousand model instances would cost more than the query)."""
    latest = (
        RatingChange.objects.filter(user=user)
        .order_by("-created_at", "-id")
        .values_list("kind", "game_id", "place", "shown_before", "shown_after", "created_at")[
            :HISTORY_SIZE
        ]
    )
    return list(reversed(latest))


def _streak(history: list[Change]) -> int:
    """Rated games won in a row up to the latest, every game together (0 after a loss)."""
    streak = 0
    for _, _, place, _, _, _ in reversed(history):
        if place != 1:
            break
        streak += 1
    return streak


def profile(user: User) -> dict[str, Any]:
    """A player's public profile: name, each game's rating and its history, the current winning
    streak and the latest rated games. Two queries."""
    history = _history(user)
    points: dict[str, list[dict[str, Any]]] = {}
    for kind, _, _, before, after, at in history:
        points.setdefault(kind, []).append({"at": at, "rating": after, "change": after - before})
    ratings = []
    for rating in Rating.objects.filter(user=user).order_by("kind"):
        ratings.append({**_rating(rating), "history": points.get(rating.kind, [])})
    games = sum(r["rated_games"] for r in ratings)
    wins = sum(r["wins"] for r in ratings)
    places = sum((r["average_place"] or 0) * r["rated_games"] for r in ratings)
    return {
        "user_id": user.pk,
        "name": _name(user),
        "ratings": ratings,
        "rated_games": games,
        "wins": wins,
        "average_place": places / games if games else None,
        "streak": _streak(history),
        "recent_games": [
            {
                "game_id": game_id,
                "game": kind,
                "finished_at": at,
                "place": place,
                "rating": after,
                "change": after - before,
            }
            for kind, game_id, place, before, after, at in reversed(history[-RECENT_GAMES:])
        ],
    }
