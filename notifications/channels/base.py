"""The channel interface: what the relay hands a channel, and what a channel promises.

A channel sends one ``Message`` to one player. The relay calls ``send`` outside any database
transaction, at least once per delivery: after a crash, a timeout or an error it calls it again
with a message that has the *same* ``event_id``, so a receiver that remembers ids can drop the
duplicate. A channel never writes to the database; it returns normally (sent) or raises:

- ``PermanentDeliveryError``: retrying cannot help (a push subscription is gone, a webhook
  answered 410). The delivery is marked failed at once.
- anything else: a temporary failure. The relay retries with exponential backoff until
  ``NOTIFY_MAX_ATTEMPTS``.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from django.db.models import QuerySet

    from players.models import User


class PermanentDeliveryError(Exception):
    """Sending this message can never succeed: do not retry."""


@dataclass(frozen=True)
class Item:
    """One notification inside a message (a collapsed message has several)."""

    event_id: str
    kind: str
    game_id: str | None
    data: dict[str, Any]
    created_at: datetime
    title: str
    body: str
    url: str

    def payload(self) -> dict[str, Any]:
        return {
            "event_id": self.event_id,
            "kind": self.kind,
            "game_id": self.game_id,
            "data": self.data,
            "created_at": self.created_at.isoformat(),
            "title": self.title,
            "body": self.body,
            "url": self.url,
        }


@dataclass(frozen=True)
class Message:
    """What one send carries. Texts are already in the player's language.

    ``event_id`` is the notification's own id for a single notification. A collapsed message
    ("your turn in 3 games") gets an id derived from its items' ids, so a retry of the same batch
    carries the same id again; each item keeps its own ``event_id`` too.
    """

    event_id: str
    kind: str
    user: User
    language: str
    title: str
    body: str
    url: str
    items: tuple[Item, ...]
    attempt: int = 1  # 1 for the first try, 2 for the first retry, ...
    # For "your turn": how many games wait for the player's move when it is sent (the digest
    # "your turn in 3 games" counts them all, not only the notices in this message).
    waiting: int = 0
    extra_headers: dict[str, str] = field(default_factory=dict)

    @property
    def collapsed(self) -> bool:
        return len(self.items) > 1

    def payload(self) -> dict[str, Any]:
        """The JSON body a webhook or push service receives (stable field names)."""
        return {
            "event_id": self.event_id,
            "kind": self.kind,
            "user_id": self.user.pk,
            "language": self.language,
            "title": self.title,
            "body": self.body,
            "url": self.url,
            "collapsed": self.collapsed,
            "items": [item.payload() for item in self.items],
        }


class Channel:
    """Base class of every external channel. Subclass, set the class attributes, implement
    ``reachable`` and ``send``, and ``register()`` an instance (see ``notifications.channels``).
    """

    # The name stored in Delivery.channel and used in preferences: short, stable, lower case.
    name: ClassVar[str] = ""
    # Kinds sent on this channel unless the player switches them off (or on).
    default_kinds: ClassVar[Collection[str]] = ()
    # Whether pending "your turn" messages of one player are sent as one.
    collapses: ClassVar[bool] = True
    # Whether to skip a game's notifications while the player watches that game live
    # (``live.presence``): true for push, false for e-mail.
    skip_while_watching: ClassVar[bool] = False
    # Whether every row ``reachable_rows`` can return belongs to a player whose
    # ``User.has_channel_targets`` is True (notifications.signals keeps it for push subscriptions
    # and webhook endpoints): players without the flag are then not asked about at all, and a
    # move whose players have no such targets runs no query for the channel.
    targets_flagged_on_user: ClassVar[bool] = False

    def reachable(self, user: User) -> bool:
        """Whether this player can get anything on this channel (a verified address, a
        subscription). Decide from the user row, which is loaded already."""
        raise NotImplementedError

    def reachable_rows(self, users: Collection[User]) -> QuerySet[Any] | None:
        """For a channel whose targets live in a table of their own (push subscriptions, webhook
        endpoints): the rows (with a ``user_id``) through which it reaches ``users``, unevaluated,
        so that ``notifications.channels.reachable`` asks every such channel in one query.
        None (the default): ``reachable`` decides from the user rows, with no query."""
        return None

    def worth_asking(self, users: Collection[User]) -> list[User]:
        """Those of ``users`` this channel may reach at all: every one, or for a channel whose
        targets are flagged on the user, those with the flag (a False flag means no rows)."""
        if not self.targets_flagged_on_user:
            return list(users)
        return [user for user in users if user.has_channel_targets]

    def reachable_among(self, users: Collection[User]) -> set[int]:
        """The ids of ``users`` this channel can reach. No network, and never a query per user.
        It asks the table whatever the users' flags say: they may be older than a new target."""
        rows = self.reachable_rows(users) if users else None
        if rows is None:
            return {user.pk for user in users if self.reachable(user)}
        return set(rows.values_list("user_id", flat=True).distinct())

    def send(self, message: Message) -> None:
        """Deliver ``message`` or raise (see the module docstring)."""
        raise NotImplementedError
