"""The moderator's panel on a phone (issue 21, point 6: "the phone layout has no stray boxes"),
in headless Chromium at 390×844: every moderation screen is opened, measured, and kept as a
full-page screenshot in test-artifacts/ (docs/moderation.md shows some of them).

What was wrong, and what each check catches coming back:

- The panels under a change form (the player's and the game's moderation panels) did not clear
  the admin's floated ``#content-main``: each started at the top of the page with its first
  heading stretched behind the whole form, showing as blue bars between the fieldsets and
  around "Close". No heading may be taller than a few lines, and every panel starts below the
  form.
- "Recent games (all)" read "( )": the link was the heading's own blue. A link in a heading
  must differ from the heading's background.
- The audit list squeezed its reason to a one-word column, every row screens of blank cells
  tall. No row of a list may be taller than a few lines.
- Nothing may make the page itself wider than the phone (wide tables scroll in their box).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support import expected_conditions as ec
from selenium.webdriver.support.ui import WebDriverWait

from games.models import Move
from moderation.models import AuditEntry, Report
from players.models import User
from tests.games.conftest import make_player
from tests.moderation.conftest import cheating_report, make_moderator
from tests.moderation.test_admin import finished_game
from tests.moderation.test_browser import (  # noqa: F401 - a fixture, found by name
    ARTIFACTS,
    PHONE,
    browser,
    log_in,
)

# The tallest a heading or a list row may be: three lines of text and its padding.
TALLEST = 80

LAYOUT = """
const width = document.documentElement.clientWidth;
const scrolls = (el) => {
  for (let p = el.parentElement; p; p = p.parentElement) {
    if (['auto', 'scroll', 'hidden'].includes(getComputedStyle(p).overflowX)) return true;
  }
  return false;
};
const name = (el) => `${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}` +
  `${el.className ? '.' + String(el.className).trim().split(/\\s+/).join('.') : ''}` +
  ` "${el.textContent.trim().replace(/\\s+/g, ' ').slice(0, 40)}"`;
const shown = (el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
const out = {pageWidth: document.documentElement.scrollWidth, width, wide: [], tall: [],
             panels: [], hidden_links: []};
for (const el of document.querySelectorAll('#container *')) {
  if (!shown(el)) continue;
  if (el.getBoundingClientRect().right > width + 1 && !scrolls(el)) out.wide.push(name(el));
}
const blocks = '#content h1, #content h2, #content h3, #result_list tbody tr';
for (const el of document.querySelectorAll(blocks)) {
  if (shown(el) && el.getBoundingClientRect().height > %(tallest)d)
    out.tall.push(`${name(el)} ${Math.round(el.getBoundingClientRect().height)}px`);
}
const form = document.querySelector('#content-main');
for (const panel of document.querySelectorAll('.moderation-panel')) {
  if (form && !form.contains(panel) &&
      panel.getBoundingClientRect().top < form.getBoundingClientRect().bottom - 1)
    out.panels.push(name(panel));
}
for (const link of document.querySelectorAll('#content h2 a, #content h3 a')) {
  if (getComputedStyle(link).color === getComputedStyle(link.closest('h2, h3')).backgroundColor)
    out.hidden_links.push(name(link));
}
return out;
""".replace("%(tallest)d", str(TALLEST))


def full_page_shot(driver: WebDriver, path: Path) -> None:
    """The whole page at the phone's width (the viewport grown to the page's height)."""
    height = driver.execute_script("return document.documentElement.scrollHeight")
    metrics = {**PHONE, "deviceScaleFactor": 1, "mobile": True}
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride", {**metrics, "height": min(height, 8000)}
    )
    try:
        assert driver.save_screenshot(str(path))
    finally:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)


@pytest.mark.usefixtures("lift_throttles")
def test_every_moderation_screen_fits_a_phone_with_no_stray_boxes(
    live_server: Any,
    browser: WebDriver,  # noqa: F811 - the fixture
    settings: Any,
) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    make_moderator("mo")
    players = [make_player(name) for name in ("alice", "bob", "carol")]
    game_id = finished_game(players)
    alice, bob = User.objects.get(username="alice"), User.objects.get(username="bob")
    report = cheating_report(alice, bob)
    AuditEntry.objects.create(
        actor_name="mo",
        action="warn",
        target_user=bob,
        reason="Targets the same player with every Draw 2 in the last three games; warned "
        "before any sanction.",
    )
    middle = Move.objects.filter(game_id=game_id).order_by("number")[5].number
    screens = {
        "reports": "/admin/moderation/report/",
        "report": f"/admin/moderation/report/{report.pk}/change/",
        "player": f"/admin/players/user/{bob.pk}/change/",
        "game": f"/admin/games/game/{game_id}/change/",
        "replay": f"/admin/games/game/{game_id}/replay/?move={middle}",
        "audit": "/admin/moderation/auditentry/",
    }
    log_in(browser, live_server.url, screens["reports"])
    WebDriverWait(browser, 10).until(ec.presence_of_element_located((By.ID, "result_list")))
    ARTIFACTS.mkdir(exist_ok=True)
    problems: dict[str, dict[str, Any]] = {}
    for name, path in screens.items():
        browser.get(live_server.url + path)
        assert browser.find_element(By.ID, "content").text, name
        found = browser.execute_script(LAYOUT)
        assert found["width"] == PHONE["width"], found["width"]
        full_page_shot(browser, ARTIFACTS / f"moderation-phone-{name}.png")
        bad = {k: v for k, v in found.items() if isinstance(v, list) and v}
        if found["pageWidth"] > found["width"]:
            bad["pageWidth"] = found["pageWidth"]
        if bad:
            problems[name] = bad
    assert not problems, problems

    # Ban asks before it acts (the confirmation is the browser's own dialog, nothing to lay
    # out): declining leaves the report open.
    browser.get(live_server.url + screens["report"])
    browser.find_element(By.ID, "action-ban").click()
    alert = WebDriverWait(browser, 10).until(ec.alert_is_present())
    assert "Ban Bob (@bob)?" in alert.text
    alert.dismiss()
    assert Report.objects.get(pk=report.pk).status == Report.OPEN
