"""The players' chat at the table (table/chat.js) at 390×844: Alice writes script and markup,
Bob's table hears of it on the game's stream and shows it as text; the open chat covers no card
of a 24-card hand; report and mute from a message; Danish words; axe clean."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from chat.models import ChatMute
from moderation.models import Report
from players.models import User
from tests.web.conftest import load_scenario
from tests.web.test_offline import PHONE_390

pytestmark = pytest.mark.django_db(transaction=True)

MARKUP = '<script>window.pwned = 1</script><img src=x onerror="window.pwned = 2"><b>bold</b>'


def overlaps(a: dict[str, float], b: dict[str, float]) -> bool:
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


def assert_no_card_covered(page: Page) -> None:
    """At the top of the page and scrolled down to the hand (the panel stays at the top of the
    screen), no card of the hand is under the open chat."""
    for scroll in ("window.scrollTo(0, 0)", "window.scrollTo(0, document.body.scrollHeight)"):
        page.evaluate(scroll)
        panel = page.locator("#chat-panel").bounding_box()
        assert panel is not None
        cards = page.locator(".hand button.card")
        assert cards.count() > 0
        for index in range(cards.count()):
            box = cards.nth(index).bounding_box()
            assert box is not None and not overlaps(panel, box), f"{scroll}: card {index} covered"
    page.evaluate("window.scrollTo(0, 0)")


def assert_markup_is_text(reader: Page, writer: Page) -> None:
    """``reader``'s line of ``MARKUP`` (from ``writer``) is text: no element of it, no script run
    on either page."""
    line = reader.locator(".chat-lines li", has_text="bold")
    expect(line.locator(".chat-text")).to_have_text(MARKUP)
    assert reader.locator(".chat-lines b, .chat-lines img, .chat-lines script").count() == 0
    assert reader.evaluate("() => window.pwned") is None
    assert writer.evaluate("() => window.pwned") is None


def open_chat(page: Page, label: str) -> None:
    page.get_by_role("button", name=label).click()
    expect(page.locator("#chat-panel")).to_be_visible()


def send_markup(page: Page, to: str) -> None:
    """``MARKUP`` sent from ``page``'s open chat ("Message to the other ``to``"): it shows as the
    page's own line, as written."""
    page.get_by_label(f"Message to the other {to}").fill(MARKUP)
    page.get_by_role("button", name="Send").click()
    expect(page.locator(".chat-lines li.mine .chat-text")).to_have_text(MARKUP)


def hears_of_markup(reader: Page, writer: Page) -> None:
    """``reader``, in Danish, sees one unread message on its chat button, opens the chat and
    reads ``writer``'s ``MARKUP`` as text."""
    expect(reader.get_by_role("button", name="Chat · 1 nye")).to_be_visible()
    open_chat(reader, "Chat · 1 nye")
    assert_markup_is_text(reader, writer)


def test_chat_at_the_table_is_text_live_and_covers_no_card(clients: Any) -> None:
    game = load_scenario("hand_large_no_mercy.json")
    tokens = {p["name"]: p["token"] for p in game["players"]}
    User.objects.filter(username="carol").update(language="da")  # her table in Danish
    path = f"/games/{game['game_id']}"
    alice = clients("alice", **PHONE_390)
    bob = clients("carol", locale="da-DK", **PHONE_390)
    alice.sign_in_with_token(tokens["alice"], path)
    bob.sign_in_with_token(tokens["carol"], path)
    a, b = alice.page, bob.page
    for page in (a, b):
        expect(page.locator(".hand button.card").first).to_be_visible()  # the table is drawn
    expect(b.get_by_role("button", name="Chat")).to_be_visible()  # her table, in Danish

    open_chat(a, "Chat")
    expect(a.locator("#chat-panel")).to_contain_text("No messages yet")
    assert_no_card_covered(a)
    send_markup(a, "players")

    # Bob hears of it on the game's stream: the unread count, then the text as written.
    hears_of_markup(b, a)
    line = b.locator(".chat-lines li", has_text="bold")
    expect(b.get_by_placeholder("Skriv en besked…")).to_be_visible()
    assert_no_card_covered(b)
    alice.shot("chat-table", a.locator("#chat-panel"))
    bob.shot("chat-table-da", b.locator("#chat-panel"))
    alice.axe("the open chat")
    bob.axe("the open chat, in Danish")

    # Report, then mute, from Bob's line of Alice's message: targets of 44 px at least.
    for name in ("Anmeld beskeden fra Alice", "Skjul Alice i alle chats"):
        box = line.get_by_role("button", name=name).bounding_box()
        assert box and box["width"] >= 44 and box["height"] >= 44, (name, box)
    b.once("dialog", lambda d: d.accept())
    line.get_by_role("button", name="Anmeld beskeden fra Alice").click()
    expect(b.locator("#toast")).to_have_text("Anmeldt. Tak.")
    report = Report.objects.get()
    assert report.reason == "chat_message" and report.chat["reported"]
    b.once("dialog", lambda d: d.accept())
    line.get_by_role("button", name="Skjul Alice i alle chats").click()
    expect(b.locator(".chat-lines li")).to_have_count(0)
    assert ChatMute.objects.filter(user__username="carol", muted__username="alice").exists()
