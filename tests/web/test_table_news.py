"""The table tells you what happened (issue 21, section 1), at 390 x 844.

Bob's phone at a three-player All Wild table (tests/web/positions/news.json). The others' moves
are made on the server (games.services.act), so every step is the same each run.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from games import services
from players.models import User
from tests.web.conftest import expect_hand_size, load_scenario, signed_in_at

pytestmark = pytest.mark.django_db(transaction=True)

SCREEN = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 1, "has_touch": True}

# Every card of the hand marked as arrived from now on, with its count and whether it moves
# (table/motion.js animates it in the same drawing). The mark lasts one drawing (the next one,
# for any live update, draws the hand without it), so the test reads it from the moment it is
# set, not by polling the page.
RECORD_ARRIVALS = """() => {
  window.__arrivals = [];
  const seen = new Set();
  new MutationObserver(() => {
    for (const li of document.querySelectorAll(".hand > li.arrived")) {
      if (seen.has(li)) continue;
      seen.add(li);
      const card = li.firstElementChild;
      const moving = card.getAnimations().length > 0;
      window.__arrivals.push({ count: card.dataset.count || "", moving });
    }
  }).observe(document.body, {
    subtree: true, childList: true, attributes: true, attributeFilter: ["class"],
  });
}"""


def move(game: dict[str, Any], name: str, action: dict[str, Any]) -> None:
    """Another player's move, on the server."""
    user = User.objects.get(username=game[name]["username"])
    services.act(user=user, game_id=game["game_id"], action=action, expected_version=None)


def arrivals(page: Page) -> list[dict[str, Any]]:
    """The cards marked as arrived since ``RECORD_ARRIVALS`` ran, once some have been."""
    page.wait_for_function("() => window.__arrivals.length > 0")
    found: list[dict[str, Any]] = page.evaluate("() => window.__arrivals")
    return found


def log_lines(page: Page) -> list[str]:
    log = page.locator("details.log")
    if not log.evaluate("d => d.open"):
        log.locator("summary").click()
    expect(log.locator(".log-lines li").first).to_be_visible()
    return [line.strip() for line in log.locator(".log-lines li").all_inner_texts()]


def open_as_bob(clients: Any, **options: Any) -> tuple[Any, Page, dict[str, Any]]:
    data = load_scenario("news.json")
    game = {"game_id": data["game_id"], **{p["name"]: p for p in data["players"]}}
    # Before Bob looks: Alice swaps hands with him.
    move(game, "alice", {"type": "play", "card": "force_swap-1", "target": 1})
    bob = clients("bob", **SCREEN, **options)
    bob.sign_in_with_token(game["bob"]["token"], f"/games/{game['game_id']}")
    return bob, bob.page, game


def bob_plays(page: Page, name: str) -> None:
    """Bob taps a card of his hand; the turn has passed when this returns."""
    expect(page.locator(".prompt.mine")).to_be_visible()
    page.locator(".hand button.card", has_text=name).first.click()
    expect(page.locator(".prompt.mine")).to_have_count(0)


def test_a_second_visit_says_what_happened_since_your_last_turn(clients: Any) -> None:
    bob, page, game = open_as_bob(clients)
    away = page.locator(".away")
    expect(away.locator("h2")).to_have_text("Since your last turn")
    expect(away).to_contain_text("alice played Force Swap at you.")
    expect(away.locator("li.mine", has_text="alice swapped hands with you.")).to_contain_text(
        "You now hold 4 cards."
    )
    expect_hand_size(page, 4)
    bob.shot("news-away", away)
    bob.axe("since your last turn")
    page.get_by_role("button", name="Got it").click()
    expect(away).to_have_count(0)
    expect(page.locator(".news")).to_be_attached()


def test_the_event_that_touches_you_is_told_and_the_log_says_it_once(clients: Any) -> None:
    bob, page, game = open_as_bob(clients)
    page.get_by_role("button", name="Got it").click()
    # Bob plays the Skip he was given: Carol loses her turn.
    bob_plays(page, "Skip")
    move(game, "alice", {"type": "play", "card": "wild-3"})
    expect(page.locator(".news p").last).to_have_text("alice played Wild.")
    bob_plays(page, "Wild")
    page.evaluate(RECORD_ARRIVALS)
    # Carol's Targeted Draw 2 at Bob, while his table is open: told to him, with his new count.
    move(game, "carol", {"type": "play", "card": "targeted_draw2-1", "target": 1})
    news = page.locator(".news")
    expect(news.locator("p.mine").last).to_have_text(
        "You drew 2 cards from a Targeted Draw 2. (Wild, Wild) You now hold 4 cards."
    )
    expect(news).to_contain_text("carol played Targeted Draw 2 at you.")
    # The two Wilds join the Wild he kept: that one card (now ×3) arrives, moving in.
    assert arrivals(page) == [{"count": "×3", "moving": True}]
    page.wait_for_timeout(500)  # the cards and the line have arrived
    bob.shot("news-targeted", news)
    bob.axe("the news line")
    lines = log_lines(page)
    assert len(lines) == len(set(lines)), lines
    assert lines.count("carol loses a turn.") == 1, lines
    assert not any("was skipped" in line for line in lines), lines
    assert not any("Seat " in line for line in lines), lines


def test_the_news_does_not_move_under_reduced_motion(clients: Any) -> None:
    bob, page, game = open_as_bob(clients, reduced_motion="reduce")
    page.get_by_role("button", name="Got it").click()
    bob_plays(page, "Skip")
    move(game, "alice", {"type": "play", "card": "wild-3"})
    bob_plays(page, "Wild")
    page.evaluate(RECORD_ARRIVALS)
    move(game, "carol", {"type": "play", "card": "targeted_draw2-1", "target": 1})
    mine = page.locator(".news p.mine.fresh", has_text="You now hold 4 cards.")
    expect(mine).to_be_visible()
    assert mine.evaluate("p => getComputedStyle(p).animationName") == "none"
    assert arrivals(page) == [{"count": "×3", "moving": False}]


def hand_ids(page: Page) -> list[str]:
    return page.locator(".hand > li").evaluate_all("items => items.map((li) => li.dataset.key)")


def test_the_hand_sorts_by_type_and_shows_my_score(clients: Any) -> None:
    _, alice = signed_in_at(clients, "news.json", "alice", **SCREEN)
    page = alice.page
    expect(page.locator(".my-score")).to_have_text("You: 0 pts")
    # The two Wilds are one card (×2), where the first stands, keyed by the newest.
    assert hand_ids(page) == ["wild-2", "force_swap-1", "reverse-1", "skip-1"]
    page.get_by_role("button", name="Sort by type").click()
    expect(page.locator(".hand > li").first).to_have_attribute("data-key", "force_swap-1")
    assert hand_ids(page) == ["force_swap-1", "reverse-1", "skip-1", "wild-2"]
    alice.shot("hand-sorted", page.locator(".hand-head"))
    alice.axe("the sorted hand")


def test_a_coloured_hand_sorts_by_colour_and_by_number(clients: Any) -> None:
    _, bob = signed_in_at(clients, "splash_challenge.json", "bob", **SCREEN)
    page = bob.page
    expect(page.locator(".hand > li")).to_have_count(3)
    page.get_by_role("button", name="By colour").click()
    expect(page.locator(".hand > li").first).to_have_attribute("data-key", "yellow-7-a")
    assert hand_ids(page) == ["yellow-7-a", "green-3-a", "blue-2-a"]
    page.get_by_role("button", name="By number").click()
    expect(page.locator(".hand > li").first).to_have_attribute("data-key", "blue-2-a")
    assert hand_ids(page) == ["blue-2-a", "green-3-a", "yellow-7-a"]
    bob.axe("a coloured hand sorted")


def test_every_card_name_fits_its_card_in_danish(clients: Any) -> None:
    data = load_scenario("news.json")
    User.objects.filter(username="alice").update(language="da")
    alice = clients("alice", locale="da-DK", **SCREEN)
    token = next(p["token"] for p in data["players"] if p["name"] == "alice")
    alice.sign_in_with_token(token, f"/games/{data['game_id']}")
    page = alice.page
    expect(page.locator(".hand button.card", has_text="Retnings")).to_be_visible()
    expect(page.locator(".my-score")).to_have_text("Du: 0 point")
    spills = page.locator(".card .card-name").evaluate_all(
        """names => names.filter((n) => {
            const card = n.closest(".card").getBoundingClientRect();
            const r = n.getBoundingClientRect();
            return r.left < card.left || r.right > card.right || r.bottom > card.bottom;
        }).map((n) => n.textContent)"""
    )
    assert not spills, spills
    alice.shot("da-table-hand", page.locator(".hand"))
