"""A game's chat: its messages (each in one channel: the seated players' or the spectators'),
each player's own chat settings and mutes, and the moderators' mutes from chat.

The message table is append-only in spirit: a moderator's deletion marks the message
(``deleted_at``) and appends a tombstone row (``deletes``) so that live streams, which read the
rows after a cursor, learn of it like of a new message.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

MAX_LENGTH = 500


def _user_kept_as_null(verbose_name: str) -> models.ForeignKey:
    """A user a row names but outlives: deleting the account keeps the row, naming no one; the
    user gets no reverse accessor."""
    return models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
        verbose_name=verbose_name,
    )


class ChatMessage(models.Model):
    PLAYERS = "players"
    SPECTATORS = "spectators"
    CHANNELS = [(PLAYERS, _("Players")), (SPECTATORS, _("Spectators"))]

    game = models.ForeignKey(
        "games.Game", on_delete=models.CASCADE, related_name="+", verbose_name=_("game")
    )
    channel = models.CharField(_("channel"), max_length=10, choices=CHANNELS, default=PLAYERS)
    author = _user_kept_as_null(_("author"))
    # The author's shown name when it was written: the chat reads right after a rename.
    author_name = models.CharField(_("author name"), max_length=150)
    author_username = models.CharField(_("author username"), max_length=150, blank=True)
    text = models.CharField(_("text"), max_length=MAX_LENGTH, blank=True)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    # The word filter caught it: only its author sees it; it counts toward moderation.
    filtered = models.BooleanField(_("filtered"), default=False)
    deleted_at = models.DateTimeField(_("deleted at"), null=True, blank=True)
    # A tombstone: this row tells streams that ``deletes`` was removed (it has no text).
    deletes = models.ForeignKey(
        "self", on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["id"]
        indexes = [
            models.Index(fields=["game", "channel", "id"]),
            models.Index(fields=["author", "filtered"]),
        ]
        verbose_name = _("chat message")
        verbose_name_plural = _("chat messages")

    def __str__(self) -> str:
        return f"{self.author_name}: {self.text[:40]}"


class ChatSettings(models.Model):
    """A player's own chat switch (no row: chat on)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_settings"
    )
    enabled = models.BooleanField(default=True)

    def __str__(self) -> str:
        return f"chat of #{self.user_id} {'on' if self.enabled else 'off'}"


class ChatMute(models.Model):
    """``user`` does not want to read ``muted`` in any game's chat."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    muted = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "muted"], name="one_mute_per_pair")]

    def __str__(self) -> str:
        return f"#{self.user_id} mutes #{self.muted_id}"


class ChatBan(models.Model):
    """A moderator's mute: ``user`` may not write in any chat until ``until`` (audited by the
    moderation app, which makes and lifts these through ``chat.services``)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("user"),
    )
    until = models.DateTimeField(_("until"))
    reason = models.TextField(_("reason"))
    created_by = _user_kept_as_null(_("created by"))
    created_at = models.DateTimeField(_("created at"), default=timezone.now)

    class Meta:
        indexes = [models.Index(fields=["user", "until"])]
        verbose_name = _("chat mute")
        verbose_name_plural = _("chat mutes")

    def __str__(self) -> str:
        return f"chat mute of #{self.user_id} until {self.until:%Y-%m-%d %H:%M}"
