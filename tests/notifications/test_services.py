"""Notifications that do not come from a move: invitations and moderation notices."""

from __future__ import annotations

import pytest
from django.core import mail
from time_machine import TimeMachineFixture

from notifications import relay, services
from notifications.models import Notification
from tests.games.conftest import Player
from tests.notifications.conftest import kinds_of, mails_to, new_game

pytestmark = pytest.mark.django_db


def test_an_invitation_is_notified_once_per_game_and_player(
    alice: Player, bob: Player, carol: Player, clock: TimeMachineFixture
) -> None:
    game = new_game(alice, bob)
    relay.relay()
    mail.outbox.clear()

    first = services.notify_invited(user=carol.user, game=game, by=alice.user)
    again = services.notify_invited(user=carol.user, game=game, by=bob.user)

    assert first is not None and again is None
    assert kinds_of(carol) == ["invited"]
    assert first.data == {"by": alice.user.public_name}
    relay.relay()
    (message,) = mails_to(carol)
    assert message.subject == "You are invited"
    assert "Alice invited you to a game." in message.body


def test_a_moderation_notice_reaches_the_inbox_and_the_mailbox_as_written(
    alice: Player, clock: TimeMachineFixture
) -> None:
    alice.user.language = "da"
    alice.user.save()
    services.notify_moderation(user=alice.user, message="Please keep the chat friendly.")
    relay.relay()
    (message,) = mails_to(alice)
    assert message.subject == "Besked fra moderatorerne"
    assert "Please keep the chat friendly." in message.body
    assert Notification.objects.get(user=alice.user).game is None


def test_an_unknown_kind_is_refused(alice: Player) -> None:
    with pytest.raises(ValueError, match="unknown notification kind"):
        services.notify(user=alice.user, kind="fireworks")
