"""Keep ``User.has_channel_targets`` true whenever the player has a push subscription or a
webhook endpoint, so that a move's notifications ask those tables only about players who may have
one (``notifications.channels.reachable``; for most players that is no query at all).

A False flag must mean no rows: every row saved sets it, and a deleted row recomputes it. Queryset
``.delete()`` (an unsubscribe, a push service's 410, a deleted token's or account's cascade) sends
``post_delete`` for each row too, because these receivers exist. Nothing bulk-creates these rows
or moves them with ``.update()``; the ``.update()`` calls that exist (failure counts, switching an
endpoint off) leave the row there, and the flag with it. True with no row left (a browser that
subscribed again for another player leaves its old owner True) is harmless: the query decides.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Exists, Model, OuterRef, Q
from django.db.models.signals import post_delete, post_save

from notifications.models import PushSubscription, WebhookEndpoint
from players.models import User

TARGET_MODELS: tuple[type[PushSubscription | WebhookEndpoint], ...] = (
    PushSubscription,
    WebhookEndpoint,
)


def target_saved(
    sender: type[Model],
    instance: PushSubscription | WebhookEndpoint,
    created: bool = False,
    update_fields: frozenset[str] | None = None,
    **kwargs: Any,
) -> None:
    if not created and update_fields is not None and "user" not in update_fields:
        return  # an existing row, still its owner's: the flag is True already
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
    has = owner.filter(
        Q(Exists(PushSubscription.objects.filter(user=OuterRef("pk"))))
        | Q(Exists(WebhookEndpoint.objects.filter(user=OuterRef("pk"))))
    ).exists()
    owner.update(has_channel_targets=has)
    _set_loaded(instance, has)


def _set_loaded(instance: PushSubscription | WebhookEndpoint, value: bool) -> None:
    """The same on the owner's User instance, when this row has it loaded (e.g. the one that
    created it), so that it does not carry a stale flag around."""
    if type(instance).user.is_cached(instance):
        instance.user.has_channel_targets = value


def connect() -> None:
    for model in TARGET_MODELS:
        post_save.connect(
            target_saved, sender=model, dispatch_uid=f"targets-saved-{model.__name__}"
        )
        post_delete.connect(
            target_deleted, sender=model, dispatch_uid=f"targets-deleted-{model.__name__}"
        )
