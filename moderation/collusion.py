"""Collusion signals: do two players aim Targeted Draw 2 and Force Swap at each other less (or
more) often than random targeting would?

For every targeted play (a ``play`` event with ``card_type`` targeted_draw2 or force_swap and a
``target``) the candidates are the other seats still in the game at that moment. Under random
targeting each candidate is hit with probability 1/k (k candidates). For an ordered pair
(A aims, B could be hit) the hits are a sum of independent Bernoulli trials, so the expected count
is Σ1/k and the variance Σ(1/k)(1-1/k). For the unordered pair {A, B} both directions are added
up and compared with a normal approximation: z = (observed - expected) / √variance.

Colluding partners spare each other (z well below 0) and gang up on third players; feuding
players hunt each other (z well above 0). Pairs with |z| >= COLLUSION_Z_THRESHOLD over at least
COLLUSION_MIN_TARGETED_PLAYS targeted plays (by either of them, with the other as a candidate)
are listed for review. Two-player games say nothing (k = 1) and add nothing.

Each pair also shows the rating points that flowed between them: each one's total change of the
shown rating over the rated games of the pair's shared games (``ratings``), so partners who feed
one of them points (one gains what the other loses, game after game) stand out.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db.models import Count
from django.utils import timezone

from games.models import Game, Move, Seat
from players.models import User
from ratings.models import RatingChange

TARGETED = frozenset({"targeted_draw2", "force_swap"})


@dataclass
class Direction:
    """A aiming at B: targeted plays by A where B was a candidate."""

    plays: int = 0
    hits: int = 0
    expected: float = 0.0
    variance: float = 0.0


@dataclass
class PairSignal:
    a: int
    b: int
    a_to_b: Direction
    b_to_a: Direction
    games: set[Any] = field(default_factory=set)
    a_name: str = ""
    b_name: str = ""
    # The rating points each gained (or lost) in the rated games among ``games``.
    a_points: int = 0
    b_points: int = 0
    rated_games: int = 0

    @property
    def plays(self) -> int:
        return self.a_to_b.plays + self.b_to_a.plays

    @property
    def observed(self) -> int:
        return self.a_to_b.hits + self.b_to_a.hits

    @property
    def expected(self) -> float:
        return self.a_to_b.expected + self.b_to_a.expected

    @property
    def third_observed(self) -> int:
        """Their targeted plays (with each other as candidates) aimed at somebody else."""
        return self.plays - self.observed

    @property
    def third_expected(self) -> float:
        return self.plays - self.expected

    @property
    def z(self) -> float:
        variance = self.a_to_b.variance + self.b_to_a.variance
        if variance <= 0:
            return 0.0
        return (self.observed - self.expected) / math.sqrt(variance)


def targeted_plays(moves: list[tuple[Any, Any, list[dict[str, Any]]]], seats: int) -> list[Any]:
    """(actor seat, target seat, candidate seats) for each targeted play of one game's moves
    (given in order as (number, action, events)). Seats that left stop being candidates."""
    active = set(range(seats))
    found = []
    for _, _action, events in moves:
        for event in events:
            kind = event.get("type")
            if kind == "left":
                active.discard(event.get("seat"))
            elif (
                kind == "play"
                and event.get("card_type") in TARGETED
                and event.get("target") is not None
            ):
                actor = event["seat"]
                candidates = sorted(active - {actor})
                if event["target"] in candidates:
                    found.append((actor, event["target"], candidates))
    return found


def compute(*, days: int | None = None, now: Any = None) -> list[PairSignal]:
    """Every pair of players with targeted plays between them in games created in the last
    ``days`` days (COLLUSION_WINDOW_DAYS), most suspicious (largest |z|) first."""
    now = now or timezone.now()
    days = days if days is not None else getattr(settings, "COLLUSION_WINDOW_DAYS", 90)
    games = Game.objects.filter(
        created_at__gte=now - timedelta(days=days),
        status__in=[Game.ACTIVE, Game.FINISHED, Game.ABORTED],
    )
    seat_users: dict[Any, dict[int, int]] = defaultdict(dict)
    for game_id, position, user_id in Seat.objects.filter(
        game__in=games, position__isnull=False, user__isnull=False
    ).values_list("game_id", "position", "user_id"):
        seat_users[game_id][position] = user_id
    seat_counts = {
        game_id: count
        for game_id, count in (
            Seat.objects.filter(game__in=games, position__isnull=False)
            .values_list("game_id")
            .annotate(n=Count("pk"))
        )
    }
    # Only the moves that can hold a targeted play or a departure are read.
    moves: dict[Any, list[Any]] = defaultdict(list)
    for game_id, number, action, events in (
        Move.objects.filter(game__in=games, action__type__in=["play", "play_drawn", "leave"])
        .order_by("game_id", "number")
        .values_list("game_id", "number", "action", "events")
        .iterator(chunk_size=2000)
    ):
        moves[game_id].append((number, action, events))

    pairs: dict[tuple[int, int], PairSignal] = {}
    for game_id, game_moves in moves.items():
        users = seat_users.get(game_id, {})
        for actor, target, candidates in targeted_plays(game_moves, seat_counts.get(game_id, 0)):
            a = users.get(actor)
            if a is None:
                continue
            p = 1 / len(candidates)
            for candidate in candidates:
                b = users.get(candidate)
                if b is None or b == a:
                    continue
                key = (min(a, b), max(a, b))
                pair = pairs.get(key)
                if pair is None:
                    pair = pairs[key] = PairSignal(key[0], key[1], Direction(), Direction())
                d = pair.a_to_b if a == key[0] else pair.b_to_a
                d.plays += 1
                d.hits += candidate == target
                d.expected += p
                d.variance += p * (1 - p)
                pair.games.add(game_id)
    names = dict(
        User.objects.filter(pk__in={pk for key in pairs for pk in key}).values_list(
            "pk", "username"
        )
    )
    for pair in pairs.values():
        pair.a_name = names.get(pair.a, f"#{pair.a}")
        pair.b_name = names.get(pair.b, f"#{pair.b}")
    add_rating_points(list(pairs.values()))
    return sorted(pairs.values(), key=lambda s: -abs(s.z))


def add_rating_points(signals: list[PairSignal]) -> None:
    """Each pair's rating points over the rated games they shared: one query."""
    games = {game for pair in signals for game in pair.games}
    deltas: dict[Any, dict[int, int]] = defaultdict(dict)
    for game_id, user_id, before, after in RatingChange.objects.filter(
        game_id__in=games
    ).values_list("game_id", "user_id", "shown_before", "shown_after"):
        deltas[game_id][user_id] = after - before
    for pair in signals:
        for game_id in pair.games:
            changes = deltas.get(game_id, {})
            if pair.a in changes and pair.b in changes:
                pair.rated_games += 1
                pair.a_points += changes[pair.a]
                pair.b_points += changes[pair.b]


def flagged(signals: list[PairSignal]) -> list[PairSignal]:
    threshold = getattr(settings, "COLLUSION_Z_THRESHOLD", 3.0)
    minimum = getattr(settings, "COLLUSION_MIN_TARGETED_PLAYS", 20)
    return [s for s in signals if s.plays >= minimum and abs(s.z) >= threshold]
