"""The registry of external delivery channels (the inbox is not one: it is always on).

A channel is registered once per process, from ``NotificationsConfig.ready()``, which imports
every module listed in ``BUILTIN``. A new channel (Web Push, webhooks) is a module that defines a
``Channel`` subclass and calls ``register(ItsChannel())`` at import, plus a line in ``BUILTIN``.
From then on deliveries are written for it (by preference), the relay sends them, and the
preferences API lists its switches.
"""

from __future__ import annotations

from importlib import import_module

from notifications.channels.base import Channel, Item, Message, PermanentDeliveryError

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
    "register",
    "unregister",
]
