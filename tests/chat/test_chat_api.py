"""The players' chat through the API: who reads and writes it, what a message may hold, the
word filter, a player's own switch and mutes, mentions, the rate limit and the game record."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.core.cache.backends.locmem import LocMemCache
from django.test import override_settings
from rest_framework.throttling import ScopedRateThrottle

from chat import access, live, services
from chat.models import ChatMessage
from games.models import Game
from moderation.models import Block
from notifications.models import Notification
from players import selectors as player_selectors
from tests.chat.conftest import CHAT_TESTS, Player, chat_url, read, said, say, texts
from tests.games.conftest import make_player, new_lobby, start_game
from tests.games.test_records import play_against_bots

pytestmark = CHAT_TESTS


def test_seated_players_read_each_others_messages(alice: Player, bob: Player, game: str) -> None:
    said(alice, game, "good luck")
    said(bob, game, "you too")
    assert texts(alice, game) == ["good luck", "you too"]
    page = read(bob, game)
    assert [m["mine"] for m in page["messages"]] == [False, True]
    assert page["messages"][0]["author_username"] == "alice"
    assert page["next_after"] == page["messages"][-1]["id"]


def test_a_player_without_a_seat_cannot_read_nor_write_the_players_chat(
    alice: Player, bob: Player, carol: Player, game: str
) -> None:
    said(alice, game, "secret plan")
    # carol may watch the game: the players' chat is still not hers.
    response = say(carol, game, "hi")
    assert (response.status_code, response.json()["error"]["code"]) == (403, "not_in_chat")
    assert carol.get(chat_url(game)).status_code == 403
    alice.client.patch(f"/api/v1/games/{game}/spectating/", {"spectating": "private"})
    assert carol.get(chat_url(game)).status_code == 404  # nobody watches: not even there
    response = say(carol, game, "hi")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


def test_the_spectators_channel_of_a_public_lobby_is_for_those_without_a_seat(
    alice: Player, carol: Player
) -> None:
    lobby = new_lobby(alice, visibility="public", max_players=3)
    # carol may see the public lobby without a seat: the spectators' channel is hers...
    assert say(carol, lobby["id"], "watching", channel="spectators").status_code == 201
    # ...the players' is not, and alice, seated, has no place in the spectators'.
    assert say(carol, lobby["id"], "let me in").json()["error"]["code"] == "not_in_chat"
    refused = alice.get(chat_url(lobby["id"]), {"channel": "spectators"})
    assert refused.json()["error"]["code"] == "not_in_chat"
    assert texts(alice, lobby["id"]) == []


def test_control_and_bidi_override_characters_are_removed(alice: Player, game: str) -> None:
    message = said(alice, game, "  hi\u202e there\u200b\u0007\r\n\n\n\nbye\u2066  ")
    assert message["text"] == "hi there\n\nbye"


def test_markup_is_kept_as_plain_text(alice: Player, bob: Player, game: str) -> None:
    said(alice, game, "<script>alert(1)</script><b>bold</b>")
    assert texts(bob, game) == ["<script>alert(1)</script><b>bold</b>"]


@pytest.mark.parametrize("text", ["", "   ", "\u202e\u200b", "x" * 501])
def test_it_refuses_an_empty_or_too_long_message(alice: Player, game: str, text: str) -> None:
    response = say(alice, game, text)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid_request"
    assert not ChatMessage.objects.exists()


def test_five_hundred_characters_are_allowed(alice: Player, game: str) -> None:
    assert len(said(alice, game, "é" * 500)["text"]) == 500


def test_unknown_fields_and_channels_are_refused(alice: Player, game: str) -> None:
    assert say(alice, game, "hi", colour="red").json()["error"]["code"] == "unknown_field"
    assert say(alice, game, "hi", channel="everyone").status_code == 400
    assert alice.get(chat_url(game), {"channel": "everyone"}).status_code == 400


@override_settings(CHAT_WORD_FILTER=["darn"])
def test_the_word_filter_hides_a_message_from_everybody_but_its_author(
    alice: Player, bob: Player, game: str
) -> None:
    mine = said(alice, game, "oh D4RN it")  # the names blocklist's matching: digits, case
    assert mine["filtered"] is True
    said(alice, game, "nice hand")
    assert texts(alice, game) == ["oh D4RN it", "nice hand"]
    assert texts(bob, game) == ["nice hand"]
    assert ChatMessage.objects.filter(author=alice.user, filtered=True).count() == 1


@override_settings(CHAT_WORD_FILTER=["ass"])
def test_the_word_filter_looks_at_words_not_across_them(alice: Player, game: str) -> None:
    assert said(alice, game, "was sorted")["filtered"] is False
    assert said(alice, game, "Аss")["filtered"] is True  # a Cyrillic A


def test_turning_chat_off_stops_reading_and_writing(alice: Player, bob: Player, game: str) -> None:
    said(bob, game, "hello?")
    response = alice.client.patch("/api/v1/me/chat/", {"enabled": False}, format="json")
    assert response.json() == {"enabled": False}
    page = read(alice, game)
    assert (page["messages"], page["enabled"]) == ([], False)
    refused = say(alice, game, "hi")
    assert (refused.status_code, refused.json()["error"]["code"]) == (409, "chat_disabled")
    alice.client.patch("/api/v1/me/chat/", {"enabled": True}, format="json")
    assert texts(alice, game) == ["hello?"]


def test_a_muted_player_is_muted_in_every_game(
    alice: Player, bob: Player, carol: Player, game: str
) -> None:
    other = start_game(alice, bob, carol)
    said(bob, game, "one")
    said(bob, other, "two")
    said(carol, other, "three")
    assert alice.post("/api/v1/me/chat/mutes/", {"username": "bob"}).status_code == 204
    assert (
        alice.post("/api/v1/me/chat/mutes/", {"username": "BOB"}).status_code == 204
    )  # any case, as follows
    assert texts(alice, game) == []
    assert texts(alice, other) == ["three"]
    assert texts(carol, other) == ["two", "three"]  # only alice's chat changed
    assert [m["username"] for m in alice.get("/api/v1/me/chat/mutes/").json()] == ["bob"]
    assert alice.client.delete("/api/v1/me/chat/mutes/bob/").status_code == 204
    assert texts(alice, game) == ["one"]


def test_muting_yourself_or_nobody_is_refused(alice: Player) -> None:
    own = alice.post("/api/v1/me/chat/mutes/", {"username": "alice"})
    assert own.json()["error"]["code"] == "cannot_mute_yourself"
    assert alice.post("/api/v1/me/chat/mutes/", {"username": "nobody"}).status_code == 404


def test_paging_after_a_cursor(alice: Player, game: str) -> None:
    first = said(alice, game, "1")
    for n in range(2, 6):
        said(alice, game, str(n))
    page = read(alice, game, after=first["id"], limit=2)
    assert ([m["text"] for m in page["messages"]], page["has_more"]) == (["2", "3"], True)
    rest = read(alice, game, after=page["next_after"])
    assert ([m["text"] for m in rest["messages"]], rest["has_more"]) == (["4", "5"], False)


def test_a_mention_notifies_the_named_player(alice: Player, bob: Player, game: str) -> None:
    said(alice, game, "your move @bob!")
    said(alice, game, "@alice talks to herself, @nobody listens")
    mentions = Notification.objects.filter(kind="chat_mention")
    assert [(n.user_id, n.data["by"]) for n in mentions] == [(bob.user.pk, "Alice")]


def test_a_mention_respects_mutes_and_the_chat_switch(
    alice: Player, bob: Player, carol: Player
) -> None:
    game = start_game(alice, bob, carol)
    bob.post("/api/v1/me/chat/mutes/", {"username": "alice"})
    carol.client.patch("/api/v1/me/chat/", {"enabled": False}, format="json")
    said(alice, game, "@bob @carol wake up")
    assert not Notification.objects.filter(kind="chat_mention").exists()


def test_a_read_token_cannot_write(alice: Player, game: str) -> None:
    reader = make_player("reader", scope="read")
    assert say(reader, game, "hi").status_code in (403, 404)


def test_writing_is_rate_limited(alice: Player, game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ScopedRateThrottle, "cache", LocMemCache("chat-throttle", {}))
    rates = {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "chat": "3/min"}
    with override_settings(
        REST_FRAMEWORK={**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    ):
        codes = [say(alice, game, f"m{n}").status_code for n in range(4)]
        assert codes == [201, 201, 201, 429]
        assert alice.get(chat_url(game)).status_code == 200  # reading is free


def test_the_record_keeps_the_players_chat_for_its_players(
    alice: Player, carol: Player, seeded_engine: Any
) -> None:
    seeded_engine(8)
    game = play_against_bots(alice, "gin_rummy", seed=1)
    said(alice, game, "gg, bot")
    hidden = said(alice, game, "filtered one")
    ChatMessage.objects.filter(pk=hidden["id"]).update(filtered=True)
    Game.objects.filter(pk=game).update(visibility=Game.PUBLIC)
    record = alice.get(f"/api/v1/games/{game}/record/").json()
    assert [(c["player"], c["text"]) for c in record["chat"]] == [("Alice", "gg, bot")]
    # A public game's record is anyone's to read; its players' chat is not.
    assert carol.get(f"/api/v1/games/{game}/record/").json()["chat"] == []


def test_writing_and_reading_cost_a_fixed_number_of_queries(
    alice: Player, bob: Player, game: str, django_assert_num_queries: Any
) -> None:
    said(bob, game, "first")
    # The seat, a mute from chat, the switch, the row (and the savepoint around it).
    with django_assert_num_queries(6):
        message = services.post(user=alice.user, game_id=game, channel="players", text="hi")
    reader = live.open_reader(bob.user, game)
    assert reader is not None
    # A stream woken by a message: the rows (whatever the chat's length); the reader's switch
    # and hidden authors were read when it opened.
    with django_assert_num_queries(1):
        rows, cursor, more = live.read(reader, message.pk - 1, message.pk)
    assert ([r["text"] for r in rows], cursor, more) == (["hi"], message.pk, False)
    # Another reader of the channel woken by the same message shares the page: no query.
    other = live.open_reader(alice.user, game)
    assert other is not None
    with django_assert_num_queries(0):
        mine, _, _ = live.read(other, message.pk - 1, message.pk)
    assert [(r["text"], r["mine"]) for r in mine] == [("hi", True)]
    # A stream opening reads the game's mark first.
    with django_assert_num_queries(2):
        assert live.read(reader, 0)[1] == message.pk


def test_a_spectators_access_costs_its_seat_the_game_and_the_blocks(
    alice: Player, bob: Player, carol: Player, game: str, django_assert_num_queries: Any
) -> None:
    """``chat.access``: the seat (none), the game with its seats, the blocks either way; the
    version a delay shows is not read to decide access."""
    with django_assert_num_queries(3):
        found = access.access(carol.user, game, "spectators")
    assert (found.read, found.write, found.seated) == (True, True, False)


def test_a_block_hides_messages_both_ways(alice: Player, bob: Player, carol: Player) -> None:
    game = start_game(alice, bob, carol)
    said(bob, game, "from bob")
    said(carol, game, "from carol")
    Block.objects.create(blocker=alice.user, blocked=bob.user)
    assert texts(alice, game) == ["from carol"]
    said(alice, game, "from alice")
    assert texts(bob, game) == ["from bob", "from carol"]
    assert texts(carol, game) == ["from bob", "from carol", "from alice"]


def test_my_messages_are_in_my_data_export(alice: Player, bob: Player, game: str) -> None:
    said(alice, game, "mine")
    said(bob, game, "not mine")
    exported = player_selectors.export(alice.user)["chat"]
    assert [(str(m["game_id"]), m["text"]) for m in exported] == [(game, "mine")]
