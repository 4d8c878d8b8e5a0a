"""In a real browser (headless Chromium, phone-sized): a moderator logs in to the admin, opens the
report queue, and bans the reported player from the report. The page is checked, then a 390×844
screenshot is saved to test-artifacts/ for people to look at.

Needs Debian's ``chromium`` and ``chromium-driver`` (.ci/run installs them). Never skipped: in CI
a skip fails the run anyway, and a missing browser should say so loudly.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support import expected_conditions as ec
from selenium.webdriver.support.ui import WebDriverWait

from moderation.models import AuditEntry, Report
from players.models import ApiToken, User
from tests.moderation.conftest import PASSWORD, cheating_report, make_moderator

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
PHONE = {"width": 390, "height": 844}


def _find(name: str, *fallbacks: str) -> str:
    for candidate in (name, *fallbacks):
        found = shutil.which(candidate)
        if found:
            return found
    raise AssertionError(f"{name} is not installed: apt-get install chromium chromium-driver")


@pytest.fixture
def browser() -> Iterator[WebDriver]:
    options = webdriver.ChromeOptions()
    options.binary_location = _find("chromium", "chromium-browser")
    for arg in (
        "--headless=new",
        "--no-sandbox",  # CI runs as root
        "--disable-dev-shm-usage",
        "--disable-gpu",
        f"--window-size={PHONE['width']},{PHONE['height']}",
    ):
        options.add_argument(arg)
    # An explicit driver path: Selenium Manager must not try to download one.
    driver = webdriver.Chrome(service=Service(_find("chromedriver")), options=options)
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {**PHONE, "deviceScaleFactor": 1, "mobile": True},
    )
    driver.implicitly_wait(5)
    try:
        yield driver
    finally:
        driver.quit()


def test_a_moderator_bans_the_reported_player_from_the_report_queue(
    live_server: Any, browser: WebDriver, settings: Any
) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    make_moderator("mo")
    alice = User.objects.create_user(username="alice", display_name="Alice")
    bob = User.objects.create_user(username="bob", display_name="Bob")
    ApiToken.issue(bob, name="bob's phone")
    report = cheating_report(alice, bob)
    wait = WebDriverWait(browser, 10)

    browser.get(f"{live_server.url}/admin/login/?next=/admin/moderation/report/")
    browser.find_element(By.NAME, "username").send_keys("mo")
    browser.find_element(By.NAME, "password").send_keys(PASSWORD)
    browser.find_element(By.CSS_SELECTOR, "input[type=submit], button[type=submit]").click()

    wait.until(ec.presence_of_element_located((By.ID, "result_list")))
    queue = browser.find_element(By.ID, "result_list").text
    assert "bob" in queue and "Cheating or collusion" in queue and "Open" in queue
    browser.find_element(
        By.CSS_SELECTOR, f'#result_list a[href$="/admin/moderation/report/{report.pk}/change/"]'
    ).click()

    wait.until(ec.presence_of_element_located((By.ID, "resolve-form")))
    page = browser.find_element(By.TAG_NAME, "body").text
    assert "Bob and a friend only ever target me." in page
    # The reported player's display name, and the reporter's history, are on the report.
    assert "Reported: Bob (username @bob), by Alice (@alice)." in page
    assert "The reporter's history: Alice (@alice)" in page
    browser.find_element(By.ID, "id_reason").send_keys("Collusion confirmed in the replays.")
    # Ban stands apart from Dismiss and Warn, and asks before it acts: declining does nothing.
    ban = browser.find_element(By.ID, "action-ban")
    assert ban.find_element(By.XPATH, "..").get_attribute("id") == "ban-zone"
    ban.click()
    alert = wait.until(ec.alert_is_present())
    assert "Ban Bob (@bob)?" in alert.text
    alert.dismiss()
    assert browser.find_elements(By.ID, "resolve-form")
    assert Report.objects.get(pk=report.pk).status == Report.OPEN
    browser.find_element(By.ID, "action-ban").click()
    wait.until(ec.alert_is_present()).accept()

    wait.until(ec.presence_of_element_located((By.CSS_SELECTOR, ".messagelist .success")))
    message = browser.find_element(By.CSS_SELECTOR, ".messagelist .success").text
    assert message == "Banned bob."
    restriction = browser.find_element(By.ID, "restriction").text
    assert "Ban (no end)" in restriction and "Collusion confirmed" in restriction
    assert "Action taken" in browser.find_element(By.TAG_NAME, "body").text
    assert not browser.find_elements(By.ID, "resolve-form")  # a closed report has no actions
    assert browser.find_element(By.ID, "back-to-queue").text == "Back to the report queue"

    ARTIFACTS.mkdir(exist_ok=True)
    shot = ARTIFACTS / "moderation-ban-from-report.png"
    browser.execute_script("window.scrollTo(0, 0)")
    assert browser.save_screenshot(str(shot))
    assert shot.stat().st_size > 5000

    bob.refresh_from_db()
    assert not bob.is_active
    assert not ApiToken.objects.filter(user=bob, revoked_at__isnull=True).exists()
    assert AuditEntry.objects.get(report=report).actor_name == "mo"


def log_in(browser: WebDriver, base: str, next_path: str) -> None:
    browser.get(f"{base}/admin/login/?next={next_path}")
    browser.find_element(By.NAME, "username").send_keys("mo")
    browser.find_element(By.NAME, "password").send_keys(PASSWORD)
    browser.find_element(By.CSS_SELECTOR, "input[type=submit], button[type=submit]").click()


@pytest.mark.usefixtures("lift_throttles")
def test_the_replay_at_move_n_is_drawn_as_the_table(
    live_server: Any, browser: WebDriver, settings: Any
) -> None:
    from games.models import Move
    from tests.games.conftest import make_player
    from tests.moderation.test_admin import finished_game

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    make_moderator("mo")
    players = [make_player(name) for name in ("alice", "bob", "carol")]
    game_id = finished_game(players)
    numbers = list(Move.objects.filter(game_id=game_id).values_list("number", flat=True))
    middle = numbers[len(numbers) // 2]
    log_in(browser, live_server.url, f"/admin/games/game/{game_id}/replay/?move={middle}")
    wait = WebDriverWait(browser, 10)
    wait.until(ec.presence_of_element_located((By.ID, "replay-table")))

    table = browser.find_element(By.ID, "replay-table")
    seats = table.find_elements(By.CSS_SELECTOR, ".replay-seat")
    assert len(seats) == 3
    names = [s.find_element(By.CSS_SELECTOR, ".seat-name").text for s in seats]
    assert sorted(names) == ["Alice (@alice)", "Bob (@bob)", "Carol (@carol)"]
    # Cards are drawn as cards with their names, not codes or Python dicts.
    cards = table.find_elements(By.CSS_SELECTOR, ".hand .card")
    assert cards and all(c.text and "-" not in c.text for c in cards if c.is_displayed())
    assert {c.text for c in cards} <= {
        "Wild", "Draw 2", "Draw 4", "Reverse", "Skip", "Skip Two", "Targeted Draw 2",
        "Force Swap", "Shuffle Hands",
    }  # fmt: skip
    top = browser.find_element(By.CSS_SELECTOR, "#discard-top .card")
    assert top.text and top.size["width"] > 20
    page = browser.find_element(By.TAG_NAME, "body").text
    assert "{'" not in page and "card=" not in page
    # The step buttons render as words a person can read, and step.
    for button, words in (("replay-first", "First"), ("replay-previous", "Previous"),
                          ("replay-next", "Next"), ("replay-last", "Last")):  # fmt: skip
        element = browser.find_element(By.ID, button)
        assert words in element.text and element.size["width"] > 40, button
    browser.find_element(By.ID, "replay-next").click()
    wait.until(ec.text_to_be_present_in_element((By.ID, "move-number"), str(middle + 1)))

    ARTIFACTS.mkdir(exist_ok=True)
    shot = ARTIFACTS / "moderation-replay-table.png"
    browser.execute_script("window.scrollTo(0, 0)")
    assert browser.save_screenshot(str(shot))
