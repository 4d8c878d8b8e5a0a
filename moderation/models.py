"""Reports, blocks, sanctions and the audit log.

Every moderation act writes one ``AuditEntry`` in the transaction of the act. The audit log is
append-only: rows are inserted and never updated or deleted through the ORM (the admin refuses
add, change and delete to everybody, superusers included). Only Django's own cascade, when an
account is deleted, nulls the foreign keys; the names stay in the ``*_name`` snapshot columns.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.timezone import localtime
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from moderation.actions import action_label, target_in_words


def _kept_link(
    to: str | type[models.Model], verbose_name: Any, related_name: str = "+"
) -> models.ForeignKey[Any, Any]:
    """A link that outlives what it points at: deleting the user, game or report empties it and
    keeps the row (the moderation record must stay)."""
    return models.ForeignKey(
        to,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name=related_name,
        verbose_name=verbose_name,
    )


class Report(models.Model):
    """A player's report about another player. One open report per reporter and player: a
    second report while the first is open is merged into it (``times`` counts them). The word
    filter reports too (no ``reporter``, reason ``chat_filtered``): one open report per player,
    each message it catches merged in."""

    OFFENSIVE_NAME = "offensive_name"
    CHEATING = "cheating"
    STALLING = "stalling"
    OTHER = "other"
    CHAT_MESSAGE = "chat_message"
    CHAT_FILTERED = "chat_filtered"
    REASONS = [
        (OFFENSIVE_NAME, _("Offensive name")),
        (CHEATING, _("Cheating or collusion")),
        (STALLING, _("Stalling or abandoning games")),
        (OTHER, _("Other")),
        (CHAT_MESSAGE, _("Chat message")),
        (CHAT_FILTERED, _("Caught by the word filter")),
    ]
    OPEN = "open"
    DISMISSED = "dismissed"
    ACTIONED = "actioned"
    STATUSES = [(OPEN, _("Open")), (DISMISSED, _("Dismissed")), (ACTIONED, _("Action taken"))]

    # None: the service reported (the word filter).
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="reports_made",
        verbose_name=_("reporter"),
    )
    reported = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="reports_received",
        verbose_name=_("reported"),
    )
    reason = models.CharField(_("reason"), max_length=20, choices=REASONS)
    # Every reason given, in order, when reports were merged (``reason`` is the first).
    reasons = models.JSONField(_("reasons"), default=list, blank=True)
    details = models.TextField(_("details"), blank=True)
    game = _kept_link("games.Game", _("game"), related_name="reports")
    times = models.PositiveIntegerField(
        _("times"), default=1, help_text=_("Reports merged into this one.")
    )
    # A chat report's evidence, as it was when reported (a deletion later does not erase it):
    # {"reported": [message ids], "messages": [each with the messages around it]}.
    chat = models.JSONField(_("chat"), default=dict, blank=True)
    status = models.CharField(
        _("status"), max_length=10, choices=STATUSES, default=OPEN, db_index=True
    )
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    last_reported_at = models.DateTimeField(_("last reported at"), default=timezone.now)
    resolution = models.CharField(_("resolution"), max_length=20, blank=True)
    resolution_reason = models.TextField(_("resolution reason"), blank=True)
    resolved_by = _kept_link(settings.AUTH_USER_MODEL, _("resolved by"))
    resolved_at = models.DateTimeField(_("resolved at"), null=True, blank=True)

    class Meta:
        ordering = ["-last_reported_at"]
        constraints = [
            # The merge rule, enforced by the database so that two concurrent reports from the
            # same reporter cannot both open a new row.
            models.UniqueConstraint(
                fields=["reporter", "reported"],
                condition=models.Q(status="open"),
                name="one_open_report_per_pair",
            ),
            # NULLs are distinct to the rule above: the word filter's own rule.
            models.UniqueConstraint(
                fields=["reported"],
                condition=models.Q(status="open", reporter__isnull=True),
                name="one_open_filter_report_per_player",
            ),
        ]
        indexes = [models.Index(fields=["reported", "-created_at"])]
        permissions = [("resolve_report", "Can dismiss or act on reports")]
        verbose_name = _("report")
        verbose_name_plural = _("reports")

    def __str__(self) -> str:
        return gettext("report #%(id)s about %(username)s") % {
            "id": self.pk,
            "username": self.reported.username,
        }


class Block(models.Model):
    """``blocker`` does not want ``blocked`` in their private games."""

    blocker = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocks_made"
    )
    blocked = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocked_by"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="one_block_per_pair")
        ]
        # is_blocked() asks "does any of these players block this user": by blocked first.
        indexes = [models.Index(fields=["blocked", "blocker"])]

    def __str__(self) -> str:
        return f"{self.blocker_id} blocks {self.blocked_id}"


class Sanction(models.Model):
    """A warning, suspension, ban or display-name reset given to a player.

    A suspension or a ban is in force while ``lifted_at`` is empty and ``until`` (if any) has not
    passed; meanwhile the account is inactive (``User.is_active`` false), which is what stops
    log-in, tokens and sessions everywhere Django and the API check it.
    """

    WARNING = "warning"
    SUSPENSION = "suspension"
    BAN = "ban"
    NAME_RESET = "name_reset"
    KINDS = [
        (WARNING, _("Warning")),
        (SUSPENSION, _("Suspension")),
        (BAN, _("Ban")),
        (NAME_RESET, _("Display name reset")),
    ]
    RESTRICTING = (SUSPENSION, BAN)

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="sanctions",
        verbose_name=_("user"),
    )
    kind = models.CharField(_("kind"), max_length=12, choices=KINDS)
    reason = models.TextField(_("reason"))
    until = models.DateTimeField(_("until"), null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    report = _kept_link(Report, _("report"), related_name="sanctions")
    lifted_at = models.DateTimeField(_("lifted at"), null=True, blank=True)
    lifted_by = _kept_link(settings.AUTH_USER_MODEL, _("lifted by"))

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["user", "lifted_at"])]
        permissions = [
            ("sanction_player", "Can warn, suspend, ban and unban players and reset names"),
        ]
        verbose_name = _("sanction")
        verbose_name_plural = _("sanctions")

    def __str__(self) -> str:
        return gettext("%(kind)s of player #%(id)s") % {
            "kind": self.get_kind_display(),
            "id": self.user_id,
        }

    @property
    def in_force(self) -> bool:
        if self.kind not in self.RESTRICTING or self.lifted_at is not None:
            return False
        return self.until is None or self.until > timezone.now()


class AuditQuerySet(models.QuerySet["AuditEntry"]):
    def update(self, **kwargs: Any) -> int:
        raise PermissionError("The audit log is append-only.")

    def delete(self) -> tuple[int, dict[str, int]]:
        raise PermissionError("The audit log is append-only.")


class AuditEntry(models.Model):
    """One moderation act: who, what, to whom, why, when."""

    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    # Snapshots: the log must still read right after an account is renamed or deleted.
    actor_name = models.CharField(_("actor name"), max_length=150)
    action = models.CharField(_("action"), max_length=40, db_index=True)
    target_user = _kept_link(settings.AUTH_USER_MODEL, _("target user"))
    target_game = _kept_link("games.Game", _("target game"))
    report = _kept_link(Report, _("report"))
    target = models.CharField(
        _("target"), max_length=200, help_text=_("Whom or what it was done to.")
    )
    reason = models.TextField(_("reason"))
    details = models.JSONField(_("details"), default=dict, blank=True)
    created_at = models.DateTimeField(_("created at"), default=timezone.now, db_index=True)

    objects = AuditQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]
        # Only "view": no add/change/delete permission exists to be granted to anybody.
        default_permissions = ("view",)
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit log")

    def __str__(self) -> str:

        when = date_format(localtime(self.created_at), "SHORT_DATETIME_FORMAT")
        return (
            f"{when} {self.actor_name} {action_label(self.action)} {target_in_words(self.target)}"
        )

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise PermissionError("The audit log is append-only.")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise PermissionError("The audit log is append-only.")


class GameIntervention(models.Model):
    """No table: the home of the game-side moderation permissions."""

    class Meta:
        managed = False
        default_permissions = ()
        permissions = [
            ("intervene_game", "Can abort games, remove players and force timeouts"),
            ("view_replay", "Can replay games with every hand and the draw pile"),
            ("void_ratings", "Can void a finished match's rating changes"),
        ]

    def __str__(self) -> str:
        return "game intervention"


class CollusionSignal(models.Model):
    """No table: the admin's collusion page hangs off this model (and its view permission)."""

    class Meta:
        managed = False
        default_permissions = ("view",)
        verbose_name = _("collusion signal")
        verbose_name_plural = _("collusion signals")

    def __str__(self) -> str:
        return "collusion signal"
