"""``User.has_channel_targets``: True whenever the player has a push subscription or a webhook
endpoint (notifications.signals), so that a move asks those tables only about such players."""

from __future__ import annotations

from importlib import import_module

import pytest
from django.apps import apps

from notifications.channels import webpush
from notifications.models import Delivery, PushSubscription, WebhookEndpoint
from players.models import ApiToken, User
from tests.games.conftest import Player, make_player
from tests.notifications.conftest import clear_outbox, pass_turn, started

pytestmark = pytest.mark.django_db


def flag(user: User) -> bool:
    return User.objects.values_list("has_channel_targets", flat=True).get(pk=user.pk)


def push(user: User, n: int = 1) -> PushSubscription:
    return PushSubscription.objects.create(
        user=user, endpoint=f"https://push.example/{user.pk}/{n}", p256dh="k", auth="a"
    )


def hook(user: User, token: ApiToken | None = None) -> WebhookEndpoint:
    return WebhookEndpoint.objects.create(
        user=user, token=token, url="https://example.com/hook", secret="s"
    )


@pytest.fixture
def erin() -> Player:
    return make_player("erin")  # no e-mail address: only a subscription can reach her


@pytest.fixture
def finn() -> Player:
    return make_player("finn")  # no e-mail address either


def test_the_flag_follows_subscriptions_and_endpoints(erin: Player) -> None:
    user = erin.user
    assert flag(user) is False
    first, second = push(user, 1), push(user, 2)
    assert flag(user) is True
    assert user.has_channel_targets is True  # the instance that created the row, too
    first.delete()
    assert flag(user) is True  # one left
    endpoint = hook(user)
    second.delete()
    assert flag(user) is True  # the endpoint is left
    endpoint.delete()
    assert flag(user) is False
    assert user.has_channel_targets is False


def test_queryset_deletes_and_cascades_clear_the_flag(erin: Player) -> None:
    user = erin.user
    push(user, 1)
    push(user, 2)
    PushSubscription.objects.filter(user=user).delete()
    assert flag(user) is False

    token, _ = ApiToken.issue(user, name="app")
    hook(user, token)
    assert flag(user) is True
    token.delete()  # an endpoint bound to a token goes with it
    assert not WebhookEndpoint.objects.exists()
    assert flag(user) is False


def test_an_endpoint_switched_off_or_failing_keeps_its_flag(erin: Player) -> None:
    """``.update()`` of an endpoint (failure counts, switched off) leaves the row, and the flag
    with it; an unrelated save does not write the user row."""
    endpoint = hook(erin.user)
    WebhookEndpoint.objects.filter(pk=endpoint.pk).update(failure_count=3, active=False)
    endpoint.description = "renamed"
    endpoint.save(update_fields=["description"])
    assert flag(erin.user) is True


def test_subscribe_and_unsubscribe_set_and_clear_it(erin: Player, bob: Player) -> None:
    webpush.subscribe(user=erin.user, endpoint="https://push.example/e", p256dh="k", auth="a")
    assert flag(erin.user) is True
    # The same browser subscribing for another player moves the row: bob is flagged, erin's
    # flag may stay True (harmless: the query decides).
    webpush.subscribe(user=bob.user, endpoint="https://push.example/e", p256dh="k", auth="a")
    assert flag(bob.user) is True
    assert webpush.unsubscribe(user=bob.user, endpoint="https://push.example/e")
    assert flag(bob.user) is False


def test_the_migration_flags_players_who_already_have_targets(
    erin: Player, bob: Player, carol: Player
) -> None:
    push(erin.user)
    hook(bob.user)
    User.objects.update(has_channel_targets=False)  # as before the migration

    migration = import_module("players.migrations.0004_user_has_channel_targets")
    migration.flag_users_with_targets(apps, None)

    assert (flag(erin.user), flag(bob.user), flag(carol.user)) == (True, True, False)


@pytest.mark.parametrize("subscribed", [True, False], ids=["subscribed", "not subscribed"])
def test_a_subscriber_still_gets_a_push_delivery_for_their_turn(
    erin: Player, finn: Player, subscribed: bool
) -> None:
    game, mover, (waiting,) = started(erin, finn)
    if subscribed:
        push(waiting.user)
    clear_outbox()
    pass_turn(mover, game)

    rows = Delivery.objects.filter(notification__user=waiting.user, notification__kind="your_turn")
    assert [d.channel for d in rows] == (["webpush"] if subscribed else [])
