"""The spectators' chat in spectator mode (views/watch.js with table/chat.js) at 390×844: carol
and dave watch alice and bob's game; carol writes script and markup, dave's screen (in Danish)
hears of it on the watch stream and shows it as text; the players' chat never reaches them;
the open chat covers neither the players nor the discard pile; axe clean."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from chat import services as chat_services
from games import services
from tests.games.conftest import make_player
from tests.web.test_chat import hears_of_markup, open_chat, overlaps, send_markup
from tests.web.test_offline import PHONE_390

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("lift_throttles"),
]


def test_spectators_chat_live_as_text_apart_from_the_players(clients: Any) -> None:
    alice, bob, carol, dave = (make_player(n) for n in ("alice", "bob", "carol", "dave"))
    dave.user.language = "da"
    dave.user.save(update_fields=["language"])
    lobby = services.create_game(host=alice.user, max_players=2, target_score=0)
    services.join_game(user=bob.user, invite_code=lobby.invite_code)
    game_id = str(lobby.pk)
    chat_services.post(user=alice.user, game_id=game_id, channel="players", text="players only")
    path = f"/games/{game_id}/watch"
    watcher = clients("carol", **PHONE_390)
    other = clients("dave", locale="da-DK", **PHONE_390)
    watcher.sign_in_with_token(carol.token, path)
    other.sign_in_with_token(dave.token, path)
    c, d = watcher.page, other.page
    for page in (c, d):
        expect(page.locator(".watch-seat")).to_have_count(2)
    expect(d.get_by_role("button", name="Tilskuernes chat")).to_be_visible()

    open_chat(c, "Spectators' chat")
    expect(c.locator("#chat-panel")).to_contain_text("No messages yet")
    send_markup(c, "spectators")

    # dave hears of it on the watch stream: the unread count, then the text as written.
    hears_of_markup(d, c)
    chat_services.post(user=bob.user, game_id=game_id, channel="players", text="still players")
    chat_services.post(user=dave.user, game_id=game_id, channel="spectators", text="hej carol")
    expect(c.locator(".chat-lines li", has_text="hej carol")).to_be_visible()
    for page in (c, d):
        expect(page.locator("main")).not_to_contain_text("players only")
        expect(page.locator("main")).not_to_contain_text("still players")

    # The open panel sits under the watch screen: no seat and no discard pile under it.
    for page in (c, d):
        panel = page.locator("#chat-panel").bounding_box()
        assert panel is not None
        for item in page.locator(".watch-seat, .watch-discard").all():
            box = item.bounding_box()
            assert box is not None and not overlaps(panel, box)
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    watcher.shot("watch-chat", c.locator("#chat-panel"))
    other.shot("watch-chat-da", d.locator("#chat-panel"))
    watcher.axe("the spectators' chat")
    other.axe("the spectators' chat, in Danish")
