"""Games, their seats, the move log, round results and idempotency records.

The engine state of a running game lives in ``Game.state`` (JSON), the one source of truth for
hands and piles; every change to it goes through ``games.services`` under a row lock.
"""

from __future__ import annotations

import secrets
import uuid

from django.conf import settings
from django.db import models
from django.utils import timezone


def new_invite_code() -> str:
    return secrets.token_urlsafe(12)


class Game(models.Model):
    LOBBY = "lobby"
    ACTIVE = "active"
    FINISHED = "finished"
    ABORTED = "aborted"
    EXPIRED = "expired"
    STATUSES = [
        (LOBBY, "Waiting for players"),
        (ACTIVE, "In progress"),
        (FINISHED, "Finished"),
        (ABORTED, "Aborted"),
        (EXPIRED, "Expired"),
    ]
    PUBLIC = "public"
    PRIVATE = "private"
    VISIBILITIES = [(PUBLIC, "Public"), (PRIVATE, "Private")]

    # A UUID so that game ids cannot be enumerated.
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    host = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="hosted_games"
    )
    # The game's kind in games.engine.registry: every rule of this game is asked of that game.
    kind = models.CharField(max_length=32, default="uno_all_wild")
    preset = models.CharField(max_length=20, default="standard")
    options = models.JSONField(default=dict, blank=True)
    max_players = models.PositiveSmallIntegerField(default=4)
    target_score = models.PositiveIntegerField(default=500)
    turn_seconds = models.PositiveIntegerField(default=24 * 3600)
    # Speed mode (a house rule): every turn has this short limit instead of turn_seconds.
    speed_seconds = models.PositiveSmallIntegerField(default=5)
    # Timeout policy: after this many timeouts in a row the seat is given up (see services):
    # handed to a bot (the player may take it back) or, by the older policy, left.
    max_timeouts = models.PositiveSmallIntegerField(default=3)
    POLICY_BOT = "bot"
    POLICY_LEAVE = "leave"
    TIMEOUT_POLICIES = [
        (POLICY_BOT, "A bot takes the seat over"),
        (POLICY_LEAVE, "The player leaves"),
    ]
    timeout_policy = models.CharField(max_length=8, choices=TIMEOUT_POLICIES, default=POLICY_BOT)
    visibility = models.CharField(max_length=8, choices=VISIBILITIES, default=PRIVATE)
    # Who may watch the game being played (games/spectators.py), apart from who may join it:
    # anyone signed in, the host's friends, or nobody. The host chooses and may change it.
    WATCH_PUBLIC = "public"
    WATCH_FRIENDS = "friends"
    WATCH_PRIVATE = "private"
    WATCHING = [
        (WATCH_PUBLIC, "Anyone may watch"),
        (WATCH_FRIENDS, "The host's friends may watch"),
        (WATCH_PRIVATE, "Nobody may watch"),
    ]
    spectating = models.CharField(max_length=8, choices=WATCHING, default=WATCH_PUBLIC)
    # Spectators see the game as it was this many moves ago (0: as it is), so that a seated
    # player's second account learns nothing sooner than the table did.
    spectator_delay = models.PositiveSmallIntegerField(default=0)
    # Rated (docs/ratings.md): people only, the default preset, no house rules. Its match end
    # changes the players' ratings (the ratings app, through signals.match_finished).
    rated = models.BooleanField(default=False)
    status = models.CharField(max_length=10, choices=STATUSES, default=LOBBY)
    # Bumped by every state change; clients send it back as expected_version.
    version = models.PositiveIntegerField(default=0)
    state = models.JSONField(null=True, blank=True)
    invite_code = models.CharField(max_length=32, unique=True, default=new_invite_code)
    invite_expires_at = models.DateTimeField(null=True, blank=True)
    lobby_expires_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # Denormalised from the state so "my turn" lists and the timer sweep are index lookups.
    current_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="games_to_move",
    )
    turn_deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    rematch_of = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="rematches"
    )
    # Players invited to this rematch who said no: it leaves their invitations.
    declined_by = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="declined_invitations"
    )

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["status", "visibility", "-created_at"]),
            models.Index(fields=["status", "lobby_expires_at"]),
            models.Index(fields=["status", "spectating", "kind", "-started_at"]),
        ]

    def __str__(self) -> str:
        return f"{self.preset} game {self.id} ({self.status})"


class Seat(models.Model):
    """A place at the table. Who plays it:

    - a person: ``user`` set, ``bot_level`` empty;
    - a bot the host added (a seat filler): ``user`` None, ``bot_level`` and ``bot_name`` set;
    - a person's seat taken over by a bot (timeouts, moderation): ``user`` set *and*
      ``bot_level`` set, ``taken_over_at`` when it happened. The person takes it back by acting
      (or ``reclaim``), which empties ``bot_level`` again.

    A seat whose user deleted their account also has ``user`` None, but no ``bot_level``.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="seats"
    )
    # Non-empty while a bot plays this seat: one of games.bots.LEVELS.
    bot_level = models.CharField(max_length=16, blank=True, default="")
    bot_name = models.CharField(max_length=40, blank=True, default="")
    taken_over_at = models.DateTimeField(null=True, blank=True)
    # The engine's seat number, fixed when the game starts (seat order is shuffled then).
    position = models.PositiveSmallIntegerField(null=True, blank=True)
    joined_at = models.DateTimeField(default=timezone.now)
    left_at = models.DateTimeField(null=True, blank=True)
    # Reset by any action of the player; the game's timeout policy acts on it.
    timeouts_in_row = models.PositiveSmallIntegerField(default=0)
    final_score = models.IntegerField(null=True, blank=True)
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    # A rated game's change of the player's shown rating at its end ("+14"), set by the receivers
    # of signals.match_finished before the standings are saved.
    rating_change = models.IntegerField(null=True, blank=True)

    class Meta:
        ordering = ["position", "joined_at"]
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="one_seat_per_user"),
            models.UniqueConstraint(fields=["game", "position"], name="one_user_per_position"),
        ]
        indexes = [models.Index(fields=["user", "game"])]

    def __str__(self) -> str:
        return f"seat {self.position} of {self.game_id}"

    @property
    def is_bot(self) -> bool:
        """A bot plays this seat now (a seat filler or a taken-over seat)."""
        return bool(self.bot_level)

    @property
    def taken_over(self) -> bool:
        """A person's seat that a bot plays until they take it back."""
        return bool(self.bot_level) and self.user_id is not None


class Move(models.Model):
    """One state change: the action applied and every event it produced (secrets included;
    selectors filter them per reader). The first move is the start of the game (the first deal),
    numbered like every move by the game's version after it (lobby joins count too)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    number = models.PositiveIntegerField()  # the game's version after this move
    seat = models.SmallIntegerField(null=True, blank=True)  # None for system actions
    action = models.JSONField()
    events = models.JSONField(default=list)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="one_move_per_version")
        ]

    def __str__(self) -> str:
        return f"move {self.number} of {self.game_id}"


class RoundResult(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="round_results")
    round = models.PositiveIntegerField()
    # Null for a drawn round (Gin Rummy's wall): nobody won it.
    winner_position = models.PositiveSmallIntegerField(null=True, blank=True)
    points = models.PositiveIntegerField()
    hands = models.JSONField(default=dict)
    scores = models.JSONField(default=list)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["round"]
        constraints = [
            models.UniqueConstraint(fields=["game", "round"], name="one_result_per_round")
        ]

    def __str__(self) -> str:
        return f"round {self.round} of {self.game_id}"


class IdempotencyRecord(models.Model):
    """The first response to a request sent with an Idempotency-Key, replayed for retries."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    key = models.CharField(max_length=128)
    request_hash = models.CharField(max_length=64)
    response_status = models.PositiveSmallIntegerField(null=True, blank=True)
    # The answer's body exactly as it was sent: a replay must be byte for byte the same, and
    # PostgreSQL's jsonb would give the keys back in its own order.
    response_content = models.BinaryField(null=True, blank=True)
    response_content_type = models.CharField(max_length=100, blank=True, default="")
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="one_record_per_key")]

    def __str__(self) -> str:
        return f"{self.key} ({self.response_status})"
