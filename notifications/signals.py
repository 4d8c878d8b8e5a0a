"""Keep ``User.has_channel_targets`` true whenever the player has a push subscription or a
webhook endpoint, so that a move's notifications ask those tables only about players who may have
one (``notifications.channels.reachable``; for most players that is no query at all).

A False flag must mean no rows: every row saved sets it (before and after the write), and a
deleted row recomputes it under the owner's row lock. Queryset ``.delete()`` (an unsubscribe, a
push service's 410, a deleted token's or account's cascade) sends ``post_delete`` for each row
too, because these receivers exist. Nothing bulk-creates these rows (``bulk_create`` sends no
signals: whoever adds one must set the flag) or moves them to another owner with ``.update()``;
the ``.update()`` calls that exist (failure counts, switching an endpoint off) leave the row
there, and the flag with it. True with no row left (a browser that subscribed again for another
player leaves its old owner True) is harmless: the query decides.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Exists, Model, OuterRef, Q
from django.db.models.signals import post_delete, post_save, pre_save

from notifications.models import PushSubscription, WebhookEndpoint
from players.models import User

TARGET_MODELS: tuple[type[PushSubscription | WebhookEndpoint], ...] = (
    PushSubscription,
    WebhookEndpoint,
)


def target_saving(
    sender: type[Model],
    instance: PushSubscription | WebhookEndpoint,
    update_fields: frozenset[str] | None = None,
    **kwargs: Any,
) -> None:
    """Before the row is written: a save outside a transaction (a shell, a script) commits the
    row by itself, and a crash before ``post_save`` must not leave it with a False flag."""
    if _may_be_new_to(instance, update_fields):
        _flag(instance)


def target_saved(
    sender: type[Model],
    instance: PushSubscription | WebhookEndpoint,
    created: bool = False,
    update_fields: frozenset[str] | None = None,
    **kwargs: Any,
) -> None:
    """After the row is written, again: outside a transaction the first update's row lock is
    gone by now, and a deletion recomputing the flag meanwhile may not have seen this row."""
    if created or _may_be_new_to(instance, update_fields):
        _flag(instance)


def _may_be_new_to(
    instance: PushSubscription | WebhookEndpoint, update_fields: frozenset[str] | None
) -> bool:
    # A row being added, or saved with its owner (who may have changed: a browser subscribing
    # again for another player); an existing row's other fields leave the flag True already.
    return instance._state.adding or update_fields is None or "user" in update_fields


def _flag(instance: PushSubscription | WebhookEndpoint) -> None:
    # Unconditional (no has_channel_targets=False filter): it must wait for the row lock of a
    # deletion recomputing the flag at the same time, and set it after that one.
    User.objects.filter(pk=instance.user_id).update(has_channel_targets=True)
    _set_loaded(instance, True)


def target_deleted(
    sender: type[Model], instance: PushSubscription | WebhookEndpoint, **kwargs: Any
) -> None:
    owner = User.objects.filter(pk=instance.user_id)
    # Lock the owner first: a row saved meanwhile by another transaction is then either
    # committed (and counted below) or sets the flag once this transaction is over.
    if not list(owner.select_for_update().values_list("pk", flat=True)):
        return  # the account itself is going (a cascade)
    any_left = Q()
    for model in TARGET_MODELS:
        any_left |= Q(Exists(model._default_manager.filter(user=OuterRef("pk"))))
    has = owner.filter(any_left).exists()
    owner.update(has_channel_targets=has)
    _set_loaded(instance, has)


def _set_loaded(instance: PushSubscription | WebhookEndpoint, value: bool) -> None:
    """The same on the owner's User instance, when this row has it loaded (e.g. the one that
    created it), so that it does not carry a stale flag around."""
    if type(instance).user.is_cached(instance):
        instance.user.has_channel_targets = value


def connect() -> None:
    for model in TARGET_MODELS:
        pre_save.connect(
            target_saving, sender=model, dispatch_uid=f"targets-saving-{model.__name__}"
        )
        post_save.connect(
            target_saved, sender=model, dispatch_uid=f"targets-saved-{model.__name__}"
        )
        post_delete.connect(
            target_deleted, sender=model, dispatch_uid=f"targets-deleted-{model.__name__}"
        )
