"""The registry of external delivery channels (the inbox is not one: it is always on).

A channel is registered once per process, from ``NotificationsConfig.ready()``, which imports
every module listed in ``BUILTIN``. A new channel (Web Push, webhooks) is a module that defines a
``Channel`` subclass and calls ``register(ItsChannel())`` at import, plus a line in ``BUILTIN``.
From then on deliveries are written for it (by preference), the relay sends them, and the
preferences API lists its switches.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from importlib import import_module
from typing import TYPE_CHECKING

from django.db.models import CharField, Value

from notifications.channels.base import Channel, Item, Message, PermanentDeliveryError

if TYPE_CHECKING:
    from players.models import User

# Modules that register a channel when imported, in the order preference screens show them.
BUILTIN = [
    "notifications.channels.email",
    "notifications.channels.webpush",
    "notifications.channels.webhook",
]

_registry: dict[str, Channel] = {}


def register(channel: Channel) -> Channel:
    """Add (or, by name, replace) a channel. Returns it, so it can be used as a decorator's
    result or kept by the module."""
    if not channel.name or not channel.name.isidentifier() or channel.name != channel.name.lower():
        raise ValueError(f"channel name must be a lower-case identifier, got {channel.name!r}")
    if channel.name == "inbox":
        raise ValueError("'inbox' is the built-in, always-on channel")
    _registry[channel.name] = channel
    return channel


def unregister(name: str) -> None:
    _registry.pop(name, None)


def get(name: str) -> Channel | None:
    return _registry.get(name)


def all_channels() -> list[Channel]:
    return list(_registry.values())


def reachable(
    users: Collection[User], among: Iterable[Channel] | None = None, *, use_flags: bool = True
) -> set[tuple[int, str]]:
    """(user id, channel name) for each of ``users`` and each channel (of ``among``, default all)
    that can reach them: one query, a UNION, for all the channels whose targets have a table of
    their own (this runs in every turn-passing move's transaction), none for the others. Push
    subscriptions and webhook endpoints are asked only about players whose
    ``has_channel_targets`` flag is set (``Channel.worth_asking``): for players with neither, as
    most are, there is no query at all. ``use_flags=False`` asks about every player, for User
    objects that may have been loaded before their owner added a target (the flag would be
    stale)."""
    found: set[tuple[int, str]] = set()
    if not users:
        return found
    queries = []
    for channel in all_channels() if among is None else among:
        asked = channel.worth_asking(users) if use_flags else list(users)
        if not asked:
            continue
        rows = channel.reachable_rows(asked)
        if rows is None:
            found |= {(user.pk, channel.name) for user in asked if channel.reachable(user)}
        else:
            # order_by(): a part of a UNION may not have an ORDER BY of its own.
            queries.append(
                rows.order_by()
                .annotate(channel=Value(channel.name, output_field=CharField()))
                .values_list("user_id", "channel")
            )
    if queries:
        found |= set(queries[0].union(*queries[1:]))
    return found


def names() -> list[str]:
    return list(_registry)


def load_builtin() -> None:
    for module in BUILTIN:
        import_module(module)


__all__ = [
    "BUILTIN",
    "Channel",
    "Item",
    "Message",
    "PermanentDeliveryError",
    "all_channels",
    "get",
    "load_builtin",
    "names",
    "reachable",
    "register",
    "unregister",
]
