"""The open inbox is live (issue 35, §4): a notification that arrives while the inbox is on
screen is listed without a reload, and the top bar's dot lights with it, in English and Danish
at 390×844 (touch). The notice is a follow, which changes no game: neither "My games"' long-poll
nor a reload brings it, only the account event stream the inbox reads while it is open."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from social import services as social
from tests.games.conftest import make_player
from tests.web.phones import LANGUAGES, phone_of, visitor

pytestmark = pytest.mark.django_db(transaction=True)

WORDS = {
    "en": {"empty": "Nothing here yet.", "title": "Notifications"},
    "da": {"empty": "Intet her endnu.", "title": "Notifikationer"},
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_open_inbox_lists_a_notification_as_it_arrives(
    clients: Any, settings: Any, lang: str
) -> None:
    # The stream's keep-alive is how a WSGI server learns that the page has gone: soon, so that
    # it has ended before the test database does.
    settings.LIVE_HEARTBEAT_SECONDS = 1
    alice, bob = make_player("alice"), make_player("bob")
    client = visitor(clients, lang, "alice")
    page = client.page
    # The inbox reads the account event stream once its first page is on screen.
    with page.expect_request(lambda r: "/api/v1/games/live/stream/" in r.url):
        phone_of(client, alice.user, alice.token, lang, "/notifications")
    expect(page.get_by_role("heading", name=WORDS[lang]["title"])).to_be_visible()
    expect(page.get_by_text(WORDS[lang]["empty"])).to_be_visible()
    expect(page.locator("#topbar .dot.dot-empty")).to_have_count(1)
    # A mark on this page: a reload (or a new route's redraw of the list) would lose it.
    page.evaluate("() => { window.sameInbox = document.querySelector('main .panel'); }")

    social.follow(user=bob.user, other=alice.user)

    notice = page.locator(".inbox li.unread")
    expect(notice).to_have_count(1)
    expect(notice).to_contain_text("Bob")
    expect(page.get_by_text(WORDS[lang]["empty"])).to_have_count(0)
    expect(page.locator("#topbar .dot:not(.dot-empty)")).to_have_count(1)
    assert page.evaluate("() => window.sameInbox === document.querySelector('main .panel')")

    # A second one comes on top of the first, still without a reload.
    carol = make_player("carol")
    social.follow(user=carol.user, other=alice.user)
    expect(page.locator(".inbox li")).to_have_count(2)
    expect(page.locator(".inbox li").first).to_contain_text("Carol")
    assert page.evaluate("() => window.sameInbox === document.querySelector('main .panel')")
    client.shot(f"inbox-live-{lang}", notice.first)
    client.axe(f"the inbox with notices that arrived live ({lang})")
