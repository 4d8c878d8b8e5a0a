"""Ratings: one Weng–Lin (Plackett–Luce) rating per player and game kind, and one row per rated
match and player saying how it changed (``docs/ratings.md``).

``Rating`` is a running total kept beside the changes so that a leaderboard or a profile reads
one row per player and kind; ``RatingChange`` is the history, and its unique (game, user) pair
is what makes a match's rating update apply at most once whatever retries or races happen.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from ratings import formula


class Rating(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings"
    )
    # The rating pool: a game kind of games.engine.registry ("uno_splash", "gin_rummy", ...).
    kind = models.CharField(max_length=32)
    mu = models.FloatField(default=formula.MU)
    sigma = models.FloatField(default=formula.SIGMA)
    # formula.shown(mu, sigma), stored so that leaderboards order by an index.
    shown = models.IntegerField(default=formula.shown(formula.MU, formula.SIGMA))
    rated_games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    # The sum of the places of every rated game: the average place without reading the history.
    places_total = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(default=timezone.now)
    # The account's standing, a copy of ``User.is_active`` (false while banned or suspended; kept
    # by ``receivers.copy_account_standing``), so that a leaderboard reads this table alone: the
    # reader's place counts every listed rating above theirs, and a join per row counted was
    # most of that page's time at 100,000 players (docs/performance.md, "Ratings at scale").
    active = models.BooleanField(default=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "kind"], name="one_rating_per_kind"),
        ]
        indexes = [
            # Every column a leaderboard filters on, after the order it ranks by: the top 100 is
            # a walk down it, and the reader's place a count of one range of it, which the
            # database answers from the index alone (no table row read per rating counted).
            models.Index(
                fields=["kind", "-shown", "updated_at", "rated_games", "active"],
                name="rating_board",
            )
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.kind} {self.shown}"

    @property
    def provisional(self) -> bool:
        return formula.provisional(self.sigma)

    @property
    def average_place(self) -> float | None:
        return self.places_total / self.rated_games if self.rated_games else None


class RatingChange(models.Model):
    """How one rated match changed one player's rating."""

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="rating_changes")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes"
    )
    kind = models.CharField(max_length=32)
    place = models.PositiveSmallIntegerField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    shown_before = models.IntegerField()
    shown_after = models.IntegerField()
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            # Exactly once: a second update of the same match and player cannot be written.
            models.UniqueConstraint(fields=["game", "user"], name="one_change_per_match_player"),
        ]
        indexes = [
            models.Index(fields=["user", "kind", "-created_at"]),
            # A month's season board counts the wins (first places) of a game in that month.
            models.Index(
                fields=["kind", "created_at"],
                condition=models.Q(place=1),
                name="season_wins",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.kind} {self.shown_before}->{self.shown_after}"

    @property
    def delta(self) -> int:
        return self.shown_after - self.shown_before


class VoidedMatch(models.Model):
    """A rated match whose rating changes a moderator voided (cheating, collusion): it has no
    rating changes, and ``services.rate_game`` never rates it again."""

    game = models.OneToOneField(
        "games.Game", on_delete=models.CASCADE, primary_key=True, related_name="rating_void"
    )
    voided_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"voided {self.game_id}"
