"""Follows (mutual ones are friends), each player's social profile, and challenges."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from social.search import MAX_LENGTH


class Profile(models.Model):
    """A player's social side: the name search compares, when they were last seen, and their
    settings. One per account, made when the account is (``social.receivers``)."""

    EVERYONE, FRIENDS, NOBODY = "everyone", "friends", "nobody"
    CHALLENGES_FROM = [(EVERYONE, "Everyone"), (FRIENDS, "Friends"), (NOBODY, "Nobody")]

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="social"
    )
    # The public name's search_key (social/search.py), kept on save; indexed for prefix ranges.
    search_name = models.CharField(max_length=MAX_LENGTH, db_index=True, default="")
    # A signed-in request's time, written at most once a minute (social/middleware.py).
    last_seen_at = models.DateTimeField(null=True, blank=True)
    hide_presence = models.BooleanField(default=False)
    challenges_from = models.CharField(max_length=8, choices=CHALLENGES_FROM, default=FRIENDS)

    def __str__(self) -> str:
        return f"profile of {self.user_id}"


class Follow(models.Model):
    """``follower`` follows ``followee``; when both follow each other they are friends."""

    follower = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="follows_made"
    )
    followee = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="follows_received"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["follower", "followee"], name="one_follow_per_pair"),
            models.CheckConstraint(
                condition=~models.Q(follower=models.F("followee")), name="no_self_follow"
            ),
        ]
        # The friends list asks "who follows me back": by followee first.
        indexes = [models.Index(fields=["followee", "follower"], name="follow_followee")]

    def __str__(self) -> str:
        return f"{self.follower_id} follows {self.followee_id}"


class Challenge(models.Model):
    """``challenger`` asks ``challenged`` to play ``game``, a private two-seat lobby made by the
    games app's own create service when the challenge is sent, with the challenger seated."""

    PENDING, ACCEPTED, DECLINED, CANCELLED, EXPIRED = (
        "pending",
        "accepted",
        "declined",
        "cancelled",
        "expired",
    )
    STATUSES = [(s, s) for s in (PENDING, ACCEPTED, DECLINED, CANCELLED, EXPIRED)]

    challenger = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_sent"
    )
    challenged = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_received"
    )
    game = models.ForeignKey("games.Game", on_delete=models.SET_NULL, null=True, related_name="+")
    status = models.CharField(max_length=10, choices=STATUSES, default=PENDING)
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            # One open question per pair and direction: a second would be a second ping.
            models.UniqueConstraint(
                fields=["challenger", "challenged"],
                condition=models.Q(status="pending"),
                name="one_pending_challenge_per_pair",
            )
        ]
        indexes = [
            models.Index(fields=["status", "expires_at"], name="challenge_status_expiry"),
            models.Index(fields=["challenged", "status"], name="challenge_challenged"),
        ]

    def __str__(self) -> str:
        return f"challenge #{self.pk}: {self.challenger_id} -> {self.challenged_id} ({self.status})"


class SeekPool(models.Model):
    """One row per pool (game, seats, rated, house rules): matching in a pool locks its row, so
    two seeks of one pool are never matched at the same time (social/pairing.py)."""

    key = models.CharField(max_length=255, primary_key=True)

    def __str__(self) -> str:
        return self.key


class Seek(models.Model):
    """Quick pairing: ``user`` asks for a game of ``kind`` with ``seats`` seats, rated or not,
    with these house rules, against players whose shown rating is in reach (social/pairing.py).
    Matched seeks name the game they started."""

    OPEN, MATCHED, WITHDRAWN, EXPIRED = "open", "matched", "withdrawn", "expired"
    STATUSES = [(s, s) for s in (OPEN, MATCHED, WITHDRAWN, EXPIRED)]

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="seeks"
    )
    # No database constraint: a posted seek does not lock or make its pool's row (one round trip
    # fewer on the hot path); the wave makes it when it first locks the pool (social/pairing.py).
    pool = models.ForeignKey(
        SeekPool, on_delete=models.PROTECT, related_name="seeks", db_constraint=False
    )
    kind = models.CharField(max_length=32)
    seats = models.PositiveSmallIntegerField()
    rated = models.BooleanField()
    options = models.JSONField(default=dict)
    # The seeker's shown rating in ``kind`` when posted: what others' windows compare.
    rating = models.IntegerField()
    # The seeker's own bounds on an opponent's shown rating (None: no bound).
    min_rating = models.IntegerField(null=True, blank=True)
    max_rating = models.IntegerField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=STATUSES, default=OPEN)
    game = models.ForeignKey("games.Game", on_delete=models.SET_NULL, null=True, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            # One open seek per player and pool: a second could only pair them with themselves.
            models.UniqueConstraint(
                fields=["user", "pool"],
                condition=models.Q(status="open"),
                name="one_open_seek_per_pool",
            )
        ]
        indexes = [
            # Candidates: a pool's open seeks in a rating range.
            models.Index(fields=["pool", "status", "rating"], name="seek_pool_rating"),
            models.Index(fields=["status", "expires_at"], name="seek_status_expiry"),
            models.Index(fields=["user", "status"], name="seek_user"),
        ]

    def __str__(self) -> str:
        return f"seek #{self.pk} of {self.user_id} in {self.pool_id} ({self.status})"
