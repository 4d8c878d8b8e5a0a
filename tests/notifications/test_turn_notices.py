"""One live "your turn" notice per game, none while the player watches, a badge that counts games
(issue 21, point 2).

- Ten turns of one game leave one "your turn" in the inbox, replaced each time the turn comes
  round; what was already sent stays as history (the rows and their sent deliveries).
- The notice goes when its player acts.
- A player with the game open and visible (``live.presence``, any of several tabs) gets no
  notice at all: no inbox entry, no mail, no push.
- The badge (``unread-count``'s ``games_waiting``) counts games waiting, not notices.
- Mail and push say "your turn in N games" when several games wait.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from django.core import mail
from time_machine import TimeMachineFixture

from live import presence
from notifications import channels, relay, services
from notifications.channels.base import Message
from notifications.channels.webpush import DIGEST_TOPIC, push_topic
from notifications.models import Delivery, Notification
from tests.games.conftest import Player
from tests.notifications.conftest import (
    PushSpy,
    clear_outbox,
    deliveries,
    mails_to,
    new_game,
    others,
    pass_turn,
    started,
    to_move,
    your_turn_for,
)

pytestmark = pytest.mark.django_db

API = "/api/v1/notifications/"


def live_turn_notices(player: Player) -> list[dict[str, Any]]:
    """The "your turn" entries the player's inbox shows."""
    page = player.get(API, {"limit": 100}).json()["results"]
    return [n for n in page if n["kind"] == "your_turn"]


@pytest.fixture
def presence_cleared() -> Any:
    yield
    from django.core.cache import cache

    cache.clear()


def test_ten_turns_of_one_game_leave_one_your_turn_notice_and_keep_what_was_sent(
    alice: Player, bob: Player, clock: TimeMachineFixture
) -> None:
    game = new_game(alice, bob)
    for _ in range(10):
        relay.relay()  # each notice is mailed before the next turn comes round
        pass_turn(to_move(game, alice, bob), game)
    waiting = to_move(game, alice, bob)
    (other,) = others(game, alice, bob)

    (shown,) = live_turn_notices(waiting)
    assert shown["game"] == str(game.pk)
    assert live_turn_notices(other) == []  # they acted: theirs went
    # The replaced notices are history, not deleted: their sent mails are still recorded.
    history = Notification.objects.filter(game=game, kind="your_turn")
    assert history.count() == 11
    assert history.filter(cleared_at__isnull=True).count() == 1
    sent = Delivery.objects.filter(notification__game=game, status=Delivery.SENT)
    assert sent.count() == 10 and len(mail.outbox) == 10


def test_the_notice_goes_when_its_player_acts(
    alice: Player, bob: Player, clock: TimeMachineFixture
) -> None:
    game = new_game(alice, bob)
    waiting = to_move(game, alice, bob)
    assert len(live_turn_notices(waiting)) == 1
    pass_turn(waiting, game)
    assert live_turn_notices(waiting) == []
    assert waiting.get(f"{API}unread-count/").json()["unread"] == 0


def test_a_mail_not_yet_sent_for_a_replaced_notice_is_skipped(
    alice: Player, bob: Player, clock: TimeMachineFixture
) -> None:
    game = new_game(alice, bob)
    first = to_move(game, alice, bob)
    pass_turn(first, game)
    pass_turn(to_move(game, alice, bob), game)  # the turn comes round to `first` again
    relay.relay()
    assert len(mails_to(first)) == 1  # the newest notice only
    statuses = sorted(d.status for d in deliveries(first, "your_turn"))
    assert statuses == [Delivery.SENT, Delivery.SKIPPED]


def test_no_notice_in_any_channel_while_the_player_has_the_game_open(
    alice: Player,
    bob: Player,
    clock: TimeMachineFixture,
    django_capture_on_commit_callbacks: Any,
    presence_cleared: None,
) -> None:
    game, mover, (watcher,) = started(alice, bob)
    clear_outbox()
    presence.mark_watching(watcher.user.pk, game.pk, ttl=60, tab="phone")

    with django_capture_on_commit_callbacks(execute=True):
        pass_turn(mover, game)

    assert live_turn_notices(watcher) == []
    assert watcher.get(f"{API}unread-count/").json()["unread"] == 0
    assert mails_to(watcher) == []
    assert {d.status for d in deliveries(watcher)} == {Delivery.SKIPPED}
    # The badge still says the game waits for them: it counts games, not notices.
    assert watcher.get(f"{API}unread-count/").json()["games_waiting"] == 1


def test_a_watched_notice_without_deliveries_is_withdrawn_in_one_query(
    alice: Player,
    bob: Player,
    django_capture_on_commit_callbacks: Any,
    django_assert_num_queries: Any,
    presence_cleared: None,
) -> None:
    """A player no external channel reaches (no verified address, no push, no webhook) gets no
    deliveries, so withdrawing their watched notice needs no query for deliveries."""
    game, mover, (watcher,) = started(alice, bob)
    watcher.user.email_verified = False
    watcher.user.save(update_fields=["email_verified"])
    clear_outbox()
    presence.mark_watching(watcher.user.pk, game.pk, ttl=60, tab="phone")

    with django_capture_on_commit_callbacks() as callbacks:
        pass_turn(mover, game)
    assert not Delivery.objects.filter(notification__user=watcher.user).exists()
    with django_assert_num_queries(1):  # the notices' UPDATE; none for their deliveries
        for callback in callbacks:
            if getattr(callback, "func", None) is services.withdraw_watched:
                callback()
    assert live_turn_notices(watcher) == []
    notice = Notification.objects.get(user=watcher.user, kind="your_turn")
    assert notice.cleared_at is not None and notice.read_at is not None


def test_withdrawing_without_knowing_the_deliveries_still_skips_them(
    alice: Player, bob: Player, presence_cleared: None
) -> None:
    game = new_game(alice, bob)
    (watcher,) = others(game, alice, bob)
    notice = Notification.objects.create(
        user=watcher.user, game=game, kind="caught", data={"by": "Alice"}
    )
    due = Delivery.objects.create(
        notification=notice,
        channel="email",
        status=Delivery.PENDING,
        next_attempt_at=notice.created_at,
        created_at=notice.created_at,
    )
    presence.mark_watching(watcher.user.pk, game.pk, ttl=60, tab="phone")
    assert services.withdraw_watched([(notice.pk, watcher.user.pk, game.pk)]) == 1
    due.refresh_from_db()
    assert due.status == Delivery.SKIPPED


def test_a_player_watching_in_two_tabs_still_watches_when_one_closes(
    alice: Player, bob: Player, presence_cleared: None
) -> None:
    game = new_game(alice, bob)
    presence.mark_watching(alice.user.pk, game.pk, ttl=60, tab="one")
    presence.mark_watching(alice.user.pk, game.pk, ttl=60, tab="two")
    presence.stop_watching(alice.user.pk, game.pk, tab="one")
    assert presence.is_watching(alice.user.pk, game.pk)
    presence.stop_watching(alice.user.pk, game.pk, tab="two")
    assert not presence.is_watching(alice.user.pk, game.pk)


def test_a_watching_mark_runs_out_after_its_time(
    alice: Player, bob: Player, clock: TimeMachineFixture, presence_cleared: None
) -> None:
    game = new_game(alice, bob)
    presence.mark_watching(alice.user.pk, game.pk, ttl=30, tab="one")
    assert presence.is_watching(alice.user.pk, game.pk)
    clock.shift(31)
    assert not presence.is_watching(alice.user.pk, game.pk)


def test_the_badge_counts_games_waiting_not_notifications(
    alice: Player, bob: Player, carol: Player, clock: TimeMachineFixture
) -> None:
    your_turn_for(alice, alice, bob)
    game = your_turn_for(alice, alice, carol)
    # More notices about the same game do not make it count twice.
    Notification.objects.create(user=alice.user, game=game, kind="caught", data={"by": "Carol"})
    counts = alice.get(f"{API}unread-count/").json()
    assert counts["games_waiting"] == 2
    assert counts["unread"] == 3


class TurnPushSpy(PushSpy):
    default_kinds = ("your_turn",)


@pytest.fixture
def push() -> Iterator[PushSpy]:
    """The conftest's spy on "your turn" only: these tests count what it was sent."""
    spy = channels.register(TurnPushSpy())
    yield spy
    channels.unregister(spy.name)


def test_mail_and_push_say_your_turn_in_n_games_when_several_wait(
    alice: Player, bob: Player, carol: Player, push: PushSpy, clock: TimeMachineFixture
) -> None:
    your_turn_for(alice, alice, bob)
    relay.relay()  # the first game's notice went out on its own
    mail.outbox.clear()
    push.sent.clear()
    game = your_turn_for(alice, alice, carol)

    relay.relay()

    (message,) = mails_to(alice)
    assert message.subject == "It's your turn in 2 games"
    (pushed,) = push.sent
    assert pushed.title == "It's your turn in 2 games" and pushed.waiting == 2
    # Still one game's notice: its Topic is the game's, so it replaces that game's last push.
    assert push_topic(pushed) == uuid.UUID(str(game.pk)).hex


def test_a_push_topic_is_per_game_for_turns_only(
    alice: Player, bob: Player, carol: Player, push: PushSpy, clock: TimeMachineFixture
) -> None:
    for other in (bob, carol):
        your_turn_for(alice, alice, other)
    relay.relay()
    (collapsed,) = push.sent
    assert collapsed.collapsed and push_topic(collapsed) == DIGEST_TOPIC
    other_kind = Message(
        event_id="e",
        kind="caught",
        user=alice.user,
        language="en",
        title="t",
        body="b",
        url="u",
        items=collapsed.items[:1],
    )
    assert push_topic(other_kind) is None
    assert all(len(topic) <= 32 for topic in (DIGEST_TOPIC, uuid.uuid4().hex))


@pytest.mark.usefixtures("lift_throttles")
def test_a_live_stream_marks_its_player_watching_until_it_ends(
    alice: Player, bob: Player, presence_cleared: None
) -> None:
    game = new_game(alice, bob)
    url = f"/api/v1/games/{game.pk}/stream/"
    first = alice.get(url, Accept="text/event-stream")
    second = alice.get(url, Accept="text/event-stream")  # the same game in another tab
    assert first["Content-Type"] == "text/event-stream"
    for response in (first, second):
        next(iter(response.streaming_content))  # the stream has started: retry, then watching
        next(iter(response.streaming_content))
    assert presence.is_watching(alice.user.pk, game.pk)
    first.close()  # one tab closed (or hidden): the other still watches
    assert presence.is_watching(alice.user.pk, game.pk)
    second.close()
    assert not presence.is_watching(alice.user.pk, game.pk)
