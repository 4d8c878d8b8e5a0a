"""Players protect themselves (issue 21, §5) at 390×844: from the table's player list Alice
reports Bob with one of the reasons the API accepts (the game goes with the report) and blocks
him; his screen (/players/<id>) says he is blocked, lists her report and unblocks him."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from playwright.sync_api import expect

from moderation.models import Block, Report
from players.models import User
from tests.web.conftest import load_scenario
from tests.web.test_offline import PHONE_390

pytestmark = pytest.mark.django_db(transaction=True)


def test_report_and_block_a_player_from_the_table_and_from_their_screen(clients: Any) -> None:
    game = load_scenario("two_players.json")
    game_id = game["game_id"]
    token = {p["name"]: p["token"] for p in game["players"]}["alice"]
    alice_id = User.objects.get(username="alice").id
    bob_id = User.objects.get(username="bob").id
    alice = clients("alice", **PHONE_390)
    a = alice.page
    alice.sign_in_with_token(token, f"/games/{game_id}")
    expect(a.locator(".prompt.mine")).to_be_visible()

    # The table's player list: Bob, with his screen, Report and Block.
    a.get_by_text("Players: profile, report, block").click()
    row = a.locator(".protect-list li", has_text="bob")
    expect(row.get_by_role("link", name="bob's profile")).to_be_visible()
    alice.shot("table-players", row.get_by_role("button", name="Report bob"))
    alice.axe("the table's player list")

    # Report: the reasons the API accepts; none picked is said, not sent.
    row.get_by_role("button", name="Report bob").click()
    sheet = a.locator("dialog[open]")
    expect(sheet.get_by_role("heading", name="Report bob")).to_be_visible()
    reasons = sheet.get_by_role("radio")
    expect(reasons).to_have_count(4)
    sheet.get_by_role("button", name="Send report").click()
    expect(sheet.get_by_role("alert")).to_have_text("Pick a reason.")
    assert not Report.objects.exists()
    sheet.get_by_role("radio", name="Stalling or abandoning games").check()
    sheet.get_by_label("What happened? (optional)").fill("Lets every turn run out.")
    alice.shot("report-sheet", sheet.get_by_role("button", name="Send report"))
    alice.axe("the report sheet")
    sheet.get_by_role("button", name="Send report").click()
    expect(a.locator("dialog[open]")).to_have_count(0)
    expect(a.locator("#toast")).to_have_text("Thank you: the moderators will look at your report.")
    report = Report.objects.get()
    assert (report.reporter_id, report.reported_id, report.reason) == (alice_id, bob_id, "stalling")
    assert str(report.game_id) == game_id
    assert report.details == "Lets every turn run out."

    # Block, after saying what it does.
    messages: list[str] = []

    def accept(dialog: Any) -> None:
        messages.append(dialog.message)
        dialog.accept()

    a.on("dialog", accept)
    row.get_by_role("button", name="Block bob").click()
    expect(row.get_by_role("button", name="Unblock bob")).to_be_visible()
    expect(a.locator("#toast")).to_contain_text("You blocked bob")
    assert messages == [
        "Block bob? They will not be able to join your private games. They are not told."
    ]
    assert Block.objects.filter(blocker_id=alice_id, blocked_id=bob_id).exists()

    # His screen: blocked, my report, and Unblock.
    row.get_by_role("link", name="bob's profile").click()
    expect(a).to_have_url(re.compile(rf"/players/{bob_id}$"))
    expect(a.get_by_role("heading", level=1)).to_have_text("bob")
    expect(a.locator(".status-line")).to_contain_text("You blocked bob")
    expect(a.locator(".reports")).to_contain_text("Stalling or abandoning games")
    expect(a.locator(".reports")).to_contain_text("open")
    expect(a.get_by_role("link", name="Just the two of you")).to_be_visible()
    alice.shot("player-screen", a.get_by_role("button", name="Unblock bob"))
    alice.axe("a player's screen")
    a.get_by_role("button", name="Unblock bob").click()
    expect(a.get_by_role("button", name="Block bob")).to_be_visible()
    deadline = time.monotonic() + 5  # the button may flip as the request's commit lands
    while Block.objects.exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not Block.objects.exists()

    # A report from his screen, again: merged into the open one, and said so.
    a.get_by_role("button", name="Report bob").click()
    sheet = a.locator("dialog[open]")
    sheet.get_by_role("radio", name="Offensive name").check()
    sheet.get_by_role("button", name="Send report").click()
    expect(a.locator("#toast")).to_have_text("Added to your open report about bob.")
    expect(a.locator(".reports")).to_contain_text("Stalling or abandoning games, Offensive name")
    assert Report.objects.get().reasons == ["stalling", "offensive_name"]
