"""Accounts: the user model and the API tokens phones and third-party apps sign in with."""

from __future__ import annotations

import hashlib
import secrets
import uuid
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models.functions import Lower
from django.utils import timezone

from players.blocklist import look_key

TOKEN_PREFIX = "uaw_"
BOT_MARK = "(bot)"
LOOKS_TAKEN = "This username is taken, or looks just like one that is."


class User(AbstractUser):
    """A player account. Username and password, optional e-mail, a profile."""

    display_name = models.CharField(max_length=40, blank=True)
    time_zone = models.CharField(max_length=64, default="UTC")
    language = models.CharField(
        max_length=8, choices=[("en", "English"), ("da", "Dansk")], default="en"
    )
    email_verified = models.BooleanField(default=False)
    # Vacation bank: while on vacation the player's turn clocks are paused (games.services).
    vacation_until = models.DateTimeField(null=True, blank=True)
    vacation_month = models.CharField(max_length=7, blank=True)  # "YYYY-MM" of vacation_used
    vacation_used = models.DurationField(default=timedelta)
    # Whether the player may have push subscriptions or webhook endpoints: False means none, so a
    # move's notification asks those tables nothing about them (notifications.channels.reachable).
    # Kept by notifications.signals; True with no rows left is harmless (the query then decides).
    has_channel_targets = models.BooleanField(default=False, editable=False)
    # Set on a bot account (players/bots.py, docs/bots-api.md): the person who made it and answers
    # for it. A bot account plays only through the API, with tokens its owner issues; it goes
    # when its owner's account goes.
    bot_owner = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="bot_accounts",
        editable=False,
    )
    # What the username looks like (``players.blocklist.look_key``), unique: "аlice" in Cyrillic
    # or "a1ice" would pass for "alice" in a friend request or a game invitation. Kept by save(),
    # so every way of making an account is held to it. Null only for an account older than the
    # rule whose name looked like an earlier one's (migration 0007), until it is renamed: null,
    # not "", because a unique index lets any number of nulls through.
    username_look = models.CharField(  # noqa: DJ001
        max_length=64, null=True, blank=True, editable=False
    )

    # The account as its player sees it: the profile's fields (players.api.serializers) and the
    # data export's (players.exports) both start with these.
    OWN_FIELDS = (
        "id",
        "username",
        "email",
        "email_verified",
        "display_name",
        "time_zone",
        "language",
        "date_joined",
    )

    class Meta(AbstractUser.Meta):
        constraints = [
            # "Alice" and "alice" would look like one player to everyone else at the table, so
            # names are unique regardless of case (log-in accepts any case, see players.services).
            models.UniqueConstraint(Lower("username"), name="username_unique_ignoring_case"),
            models.UniqueConstraint(fields=["username_look"], name="username_unique_by_look"),
        ]

    @classmethod
    def from_db(cls, db: str | None, field_names: Any, values: Any) -> User:
        user = super().from_db(db, field_names, values)
        if "username" in field_names:
            # As stored: save() and clean() judge the look only of a new or changed name.
            user.stored_username = user.username
        return user

    def username_is_new(self) -> bool:
        """Whether the username is new to the database (None stored: it was never loaded)."""
        stored = getattr(self, "stored_username", None)
        return self._state.adding or (stored is not None and self.username != stored)

    def clean(self) -> None:
        # The admin's forms: their model validation skips a constraint on a field they do not
        # show, so the look is checked here to answer with the form's error, not a 500.
        super().clean()
        if self.username_is_new() and self.username:
            same = User.objects.exclude(pk=self.pk).filter(username_look=look_key(self.username))
            if same.exists():
                raise ValidationError({"username": LOOKS_TAKEN})

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.username_is_new():
            self.username_look = look_key(self.username)
            if kwargs.get("update_fields") is not None:
                kwargs["update_fields"] = {*kwargs["update_fields"], "username_look"}
        super().save(*args, **kwargs)
        self.stored_username = self.username

    @property
    def is_bot(self) -> bool:
        return self.bot_owner_id is not None

    @property
    def public_name(self) -> str:
        # A bot account is marked wherever its name is shown, as a house bot's seat is
        # (games.selectors): players must know they play against a program.
        name = self.display_name or self.username
        return f"{name} {BOT_MARK}" if self.bot_owner_id is not None else name


def hash_token(raw: str) -> str:
    # Tokens are long random strings, so a fast unsalted hash is enough: nobody can brute-force
    # 256 bits, and a lookup by hash stays one indexed query.
    return hashlib.sha256(raw.encode()).hexdigest()


class ApiToken(models.Model):
    """A named, scoped token for one device or app. Only its hash is stored."""

    SCOPE_READ = "read"
    SCOPE_PLAY = "play"
    SCOPES = [(SCOPE_READ, "Read only"), (SCOPE_PLAY, "Read and play")]

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tokens"
    )
    name = models.CharField(max_length=60)
    scope = models.CharField(max_length=8, choices=SCOPES, default=SCOPE_PLAY)
    key_hash = models.CharField(max_length=64, unique=True)
    # The first characters of the token, shown in lists so a person can tell tokens apart.
    prefix = models.CharField(max_length=12)
    created_at = models.DateTimeField(default=timezone.now)
    last_used_at = models.DateTimeField(null=True, blank=True)
    expires_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    # A token as its owner is shown it, never its secret nor its hash: the tokens list
    # (players.api.serializers) and the data export (players.exports) both start with these.
    SHOWN_FIELDS = ("id", "name", "scope", "prefix", "created_at", "last_used_at", "expires_at")

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    @classmethod
    def issue(cls, user: User, *, name: str, scope: str = SCOPE_PLAY) -> tuple[ApiToken, str]:
        """Create a token and return it with its raw string, which is never stored."""
        raw = TOKEN_PREFIX + secrets.token_urlsafe(32)
        token = cls.objects.create(
            user=user, name=name, scope=scope, key_hash=hash_token(raw), prefix=raw[:12]
        )
        return token, raw

    @property
    def is_live(self) -> bool:
        now = timezone.now()
        return self.revoked_at is None and (self.expires_at is None or self.expires_at > now)


class DataExport(models.Model):
    """One request for a player's data export (players/exports.py): built in the background into
    a file in the ``exports`` storage, fetched by its owner when ready, deleted a day later."""

    PENDING, RUNNING, READY, FAILED = "pending", "running", "ready", "failed"
    STATUSES = [(s, s) for s in (PENDING, RUNNING, READY, FAILED)]

    # A random id: the status and download URLs name it, and nobody else's can be guessed.
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="data_exports")
    status = models.CharField(max_length=8, choices=STATUSES, default=PENDING)
    created_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    # The file's name in the ``exports`` storage; empty until it is ready.
    file_name = models.CharField(max_length=200, blank=True)
    size = models.PositiveBigIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["status", "created_at"], name="export_status_created")]

    def __str__(self) -> str:
        return f"export {self.pk} of {self.user_id} ({self.status})"
