"""Moderating the chat: a reported message reaches the queue with the 20 messages around it;
moderators delete messages and mute a player from chat for a time, from the report's page, each
act audited; the page in Danish."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from chat.models import ChatBan, ChatMessage
from moderation.models import AuditEntry, Report
from notifications.models import Notification
from tests.chat.conftest import CHAT_TESTS, Player, read, said, say, texts
from tests.moderation.conftest import logged_in, make_moderator
from tests.moderation.test_danish import assert_danish

pytestmark = CHAT_TESTS


def report(player: Player, message_id: int, **body: Any) -> Any:
    return player.post(f"/api/v1/chat/messages/{message_id}/report/", body)


def chat_of(player: Player, game: str, count: int) -> list[dict[str, Any]]:
    return [said(player, game, f"besked {n}") for n in range(count)]


def test_a_report_carries_the_message_and_the_twenty_around_it(
    alice: Player, bob: Player, game: str
) -> None:
    sent = chat_of(bob, game, 30)
    reported = sent[15]
    response = report(alice, reported["id"], details="rude")
    assert response.status_code == 201, response.content
    row = Report.objects.get()
    assert (row.reporter_id, row.reported_id, row.reason) == (
        alice.user.pk,
        bob.user.pk,
        Report.CHAT_MESSAGE,
    )
    assert str(row.game_id) == game
    assert row.chat["reported"] == [reported["id"]]
    assert [m["id"] for m in row.chat["messages"]] == [m["id"] for m in sent[5:26]]
    # A second report of another message merges into the open one, with its context.
    again = report(alice, sent[29]["id"])
    assert again.status_code == 200
    row.refresh_from_db()
    assert (row.times, row.chat["reported"]) == (2, [reported["id"], sent[29]["id"]])
    assert row.chat["messages"][-1]["id"] == sent[29]["id"]


def test_the_context_fills_from_one_side_at_the_edge(alice: Player, bob: Player, game: str) -> None:
    sent = chat_of(bob, game, 25)
    assert report(alice, sent[0]["id"]).status_code == 201
    assert len(Report.objects.get().chat["messages"]) == 21


def test_only_a_message_one_can_read_may_be_reported(
    alice: Player, bob: Player, carol: Player, game: str
) -> None:
    mine = said(alice, game, "hej")
    assert report(carol, mine["id"]).status_code == 404  # not her game
    assert report(alice, mine["id"]).json()["error"]["code"] == "cannot_report_yourself"
    assert report(bob, 10**9).status_code == 404


def _page(moderator: Any, row: Report) -> str:
    return reverse("admin:moderation_report_change", args=[row.pk])


def _act(client: Client, row: Report, action: str, **form: Any) -> Any:
    url = reverse("admin:moderation_report_chat", args=[row.pk])
    return client.post(url, {"action": action, **form})


def test_a_moderator_deletes_the_reported_message_for_everyone(
    alice: Player, bob: Player, game: str
) -> None:
    said(bob, game, "hej")
    bad = said(bob, game, "grimt")
    report(alice, bad["id"])
    row = Report.objects.get()
    client = logged_in(make_moderator())
    page = client.get(_page(None, row)).content.decode()
    assert "grimt" in page and 'class="chat-reported"' in page
    assert _act(client, row, "delete_chat", reason="").status_code == 302  # a reason is required
    assert texts(alice, game) == ["hej", "grimt"]
    assert _act(client, row, "delete_chat", reason="Rude").status_code == 302
    assert texts(alice, game) == texts(bob, game) == ["hej"]
    # The stream's tombstone is in the rows after the cursor, and the evidence keeps the text.
    tombstones = [m for m in read(alice, game, after=bad["id"])["messages"] if m["deletes"]]
    assert [m["deletes"] for m in tombstones] == [bad["id"]]
    row.refresh_from_db()
    assert [m["text"] for m in row.chat["messages"]] == ["hej", "grimt"]
    entry = AuditEntry.objects.get(action="chat_message_deleted")
    assert (entry.target_user_id, entry.reason, entry.details["text"]) == (
        bob.user.pk,
        "Rude",
        "grimt",
    )


def test_a_moderator_mutes_a_player_from_chat_for_a_time(
    alice: Player, bob: Player, game: str, time_machine: Any
) -> None:
    bad = said(bob, game, "grimt")
    report(alice, bad["id"])
    row = Report.objects.get()
    client = logged_in(make_moderator())
    until = timezone.now() + timedelta(hours=2)
    stamp = until.strftime("%Y-%m-%dT%H:%M")
    assert _act(client, row, "mute_chat", reason="Spam").status_code == 302  # no end: refused
    assert not ChatBan.objects.exists()
    _act(client, row, "mute_chat", reason="Spam", until=stamp)
    refused = say(bob, game, "hej igen")
    assert refused.status_code == 403
    error = refused.json()["error"]
    assert error["code"] == "chat_muted" and error["details"]["until"].startswith(stamp[:13])
    assert say(alice, game, "fint").status_code == 201  # only bob
    assert AuditEntry.objects.filter(action="player_chat_muted", target_user=bob.user).exists()
    assert Notification.objects.filter(user=bob.user, kind="moderation").exists()
    time_machine.move_to(until + timedelta(minutes=1))
    assert say(bob, game, "hej igen").status_code == 201


def test_a_staff_member_without_the_permissions_cannot_act(
    alice: Player, bob: Player, game: str
) -> None:
    bad = said(bob, game, "grimt")
    report(alice, bad["id"])
    from players.models import User

    staff = User.objects.create_user(username="staffer", is_staff=True)
    response = _act(logged_in(staff), Report.objects.get(), "delete_chat", reason="x")
    assert response.status_code == 403
    assert ChatMessage.objects.filter(deleted_at__isnull=False).count() == 0


@pytest.mark.usefixtures("lift_throttles")
def test_the_report_page_with_its_chat_is_danish(alice: Player, bob: Player, game: str) -> None:
    said(bob, game, "hej")
    bad = said(bob, game, "grimt")
    ChatMessage.objects.filter(pk=bad["id"]).update(filtered=True)
    report(alice, bad["id"])
    moderator = make_moderator()
    moderator.language = "da"
    moderator.save(update_fields=["language"])
    html = assert_danish(logged_in(moderator), _page(None, Report.objects.get()))
    assert "De anmeldte chatbeskeder" in html and "Fanget af ordfilteret" in html
    assert "Ordfilteret fangede 1 besked" in html


def test_the_chat_lists_are_the_moderators_to_read(bob: Player, game: str) -> None:
    said(bob, game, "<script>x</script>")
    client = logged_in(make_moderator())
    page = client.get(reverse("admin:chat_chatmessage_changelist"))
    assert page.status_code == 200
    assert "&lt;script&gt;x&lt;/script&gt;" in page.content.decode()
    assert client.get(reverse("admin:chat_chatban_changelist")).status_code == 200


def test_a_filtered_message_reaches_the_queue_as_the_word_filters_report(
    alice: Player, bob: Player, game: str, settings: Any
) -> None:
    settings.CHAT_WORD_FILTER = ["darn"]
    said(bob, game, "good luck")
    first = said(bob, game, "darn it")
    assert first["filtered"] is True
    row = Report.objects.get()
    assert (row.reporter, row.reported.username, row.reason, row.times) == (
        None,
        "bob",
        Report.CHAT_FILTERED,
        1,
    )
    assert str(row.game_id) == game and row.chat["reported"] == [first["id"]]
    assert [m["text"] for m in row.chat["messages"]] == ["good luck", "darn it"]
    second = said(bob, game, "DARN again")
    said(alice, game, "fine words")  # nothing caught: nothing counted
    row = Report.objects.get()  # merged: one open report per player, each catch counted
    assert row.times == 2 and row.chat["reported"] == [first["id"], second["id"]]
    entries = AuditEntry.objects.filter(action="chat_message_filtered").order_by("id")
    assert [(e.actor, e.actor_name, e.report_id, e.target_user.username) for e in entries] == [
        (None, "(system)", row.pk, "bob")
    ] * 2
    assert entries[0].details["text"] == "darn it"


def test_a_dismissed_filter_report_leaves_room_for_the_next_catch(
    bob: Player, game: str, settings: Any
) -> None:
    settings.CHAT_WORD_FILTER = ["darn"]
    said(bob, game, "darn")
    Report.objects.update(status=Report.DISMISSED)
    said(bob, game, "darn")
    assert Report.objects.filter(status=Report.OPEN, reporter=None).count() == 1
    assert Report.objects.count() == 2


def test_the_word_filters_report_shows_in_the_queue_in_danish(
    bob: Player, game: str, settings: Any
) -> None:
    settings.CHAT_WORD_FILTER = ["darn"]
    said(bob, game, "darn")
    moderator = make_moderator()
    client = logged_in(moderator)
    queue = client.get(reverse("admin:moderation_report_changelist")).content.decode()
    assert "The word filter" in queue and "Caught by the word filter" in queue
    moderator.language = "da"
    moderator.save(update_fields=["language"])
    html = assert_danish(client, _page(None, Report.objects.get()))
    assert "Fanget af ordfilteret" in html
