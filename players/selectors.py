"""Every read about an account: its tokens, its statistics, and the full export of its data."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.db.models import Count, F, Q, QuerySet, Sum
from django.db.models.functions import Coalesce
from django.utils import timezone

from players.models import ApiToken, User


def live_tokens(user: User) -> QuerySet[ApiToken]:
    """Tokens that still work: neither revoked nor expired. Newest first."""
    now = timezone.now()
    return ApiToken.objects.filter(user=user, revoked_at__isnull=True).exclude(expires_at__lte=now)


def stats(user: User) -> dict[str, int]:
    """Games played and won and points scored (finished games), and games in progress.

    A game counts as played once it has finished, including one the player left early: the engine
    still ranks and scores every seat. One query.
    """
    from games.models import Game, Seat  # games depends on players, not the other way round

    finished = Q(game__status=Game.FINISHED)
    return Seat.objects.filter(user=user).aggregate(
        games_played=Count("pk", filter=finished),
        games_won=Count("pk", filter=finished & Q(place=1)),
        points=Coalesce(Sum("final_score", filter=finished), 0),
        games_in_progress=Count("pk", filter=Q(game__status=Game.ACTIVE, left_at__isnull=True)),
    )


def export(user: User) -> dict[str, Any]:
    """Everything stored about ``user``, for a GDPR data export. Four queries, whatever the
    number of games.

    Other players appear only as the public name the user saw at the table. Moves are the
    user's own actions; actions hold no secrets (a played card lands face up), while the events
    log beside them holds other players' cards and is left out.
    """
    from games.models import Game, Move

    games = list(
        Game.objects.filter(seats__user=user)
        .prefetch_related("seats__user")
        .order_by("created_at")
        .distinct()
    )
    # Both conditions in one filter() call refer to the same seat: the user's.
    moves = Move.objects.filter(game__seats__user=user, seat=F("game__seats__position")).order_by(
        "game_id", "number"
    )
    moves_by_game: dict[Any, list[dict[str, Any]]] = defaultdict(list)
    for move in moves:
        moves_by_game[move.game_id].append(
            {"number": move.number, "action": move.action, "created_at": move.created_at}
        )
    exported_games = []
    for game in games:
        seats = list(game.seats.all())
        mine = next(seat for seat in seats if seat.user_id == user.pk)
        exported_games.append(
            {
                "id": game.id,
                "preset": game.preset,
                "status": game.status,
                "visibility": game.visibility,
                "target_score": game.target_score,
                "was_host": game.host_id == user.pk,
                "created_at": game.created_at,
                "started_at": game.started_at,
                "finished_at": game.finished_at,
                "my_seat": {
                    "position": mine.position,
                    "joined_at": mine.joined_at,
                    "left_at": mine.left_at,
                    "final_score": mine.final_score,
                    "place": mine.place,
                },
                "seats": [
                    {
                        "position": seat.position,
                        "player": seat.user.public_name if seat.user else None,
                        "is_me": seat.user_id == user.pk,
                        "final_score": seat.final_score,
                        "place": seat.place,
                    }
                    for seat in seats
                ],
                "my_moves": moves_by_game.get(game.id, []),
            }
        )
    tokens = ApiToken.objects.filter(user=user).order_by("created_at")
    return {
        "exported_at": timezone.now(),
        "profile": user,
        "tokens": list(tokens),
        "games": exported_games,
    }
