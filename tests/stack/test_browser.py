"""A person and the operator use the stack of docker-compose.yml in Chromium, through the proxy.

Every service runs as Compose runs it (tests/stack/harness.py): nginx with deploy/nginx.conf in
front of gunicorn (web) and uvicorn (live), a Celery worker and beat behind them. A person signs
up, starts a game against a bot and plays; the bot's moves (made by the worker) reach the page
live, through the proxy and the live process. The operator logs in to the admin with the
superuser made by ``manage.py createsuperuser --noinput``: a session POST with an ``Origin``
that carries the proxy's port (this test failed with 403 "Origin checking failed" while
deploy/nginx.conf forwarded ``Host $host``, without the port).
"""

from __future__ import annotations

import os
import secrets
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests
from playwright.sync_api import Browser, Page, expect

from tests.stack.harness import NGINX_CONF, SUPERUSER, Stack, running_stack
from tests.test_serve import ROOT
from tests.web.conftest import DESKTOP, Client
from tests.web.test_flow import PASSWORD, take_turn

pytestmark = pytest.mark.stack

ARTIFACTS = ROOT / "test-artifacts" / "stack"
BOT_LINES = ".log-lines li:has-text('(bot)')"


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    # STACK_NGINX_CONF: another proxy configuration to try (the old one, to see this test fail).
    conf = Path(os.environ.get("STACK_NGINX_CONF") or NGINX_CONF)
    with running_stack(tmp_path_factory.mktemp("stack"), nginx_conf=conf) as running:
        yield running


def bot_lines(page: Page) -> int:
    return page.locator(BOT_LINES).count()


def play_and_see_the_bot_answer(page: Page, moves: int = 3) -> tuple[int, int]:
    """Play the person's turns (at least ``moves``) until a bot's move has arrived on the open
    page after one of them; returns (the person's moves, bot moves that arrived after one)."""
    acted = answered = 0
    deadline = time.monotonic() + 120
    while (acted < moves or not answered) and not page.locator(".result-banner").count():
        assert time.monotonic() < deadline, f"{acted} moves, {answered} bot answers in 120 s"
        before = bot_lines(page)
        if take_turn(page):
            acted += 1
            page.wait_for_timeout(150)  # as tests/web: let the page take the answer in
        # The person's next turn, or the bot's next move: both come by the stream.
        page.wait_for_function(
            """(before) => document.querySelector(".prompt.mine, dialog[open], .result-banner")
                || [...document.querySelectorAll(".log-lines li")]
                    .filter((li) => li.textContent.includes("(bot)")).length > before""",
            arg=before,
            timeout=30_000,
        )
        if acted and bot_lines(page) > before:
            answered += 1
    return acted, answered


def test_a_person_plays_a_bot_and_the_operator_logs_in_through_the_proxy(
    stack: Stack, browser: Browser
) -> None:
    base = stack.proxy_url
    eve = Client(browser, base, "eve")
    page = eve.page
    navigations: list[str] = []
    page.on("framenavigated", lambda frame: navigations.append(frame.url))
    streams: list[tuple[str, int]] = []
    eve.context.on(
        "response", lambda r: streams.append((r.url, r.status)) if "/stream/" in r.url else None
    )
    try:
        eve.goto("/signup")
        page.get_by_label("Username").fill(f"eve-{secrets.token_hex(3)}")
        page.get_by_label("Password").fill(PASSWORD)
        page.get_by_role("button", name="Sign up").click()
        expect(page.get_by_role("heading", name="My games")).to_be_visible()

        # A game against one bot, dealt at once.
        eve.goto("/games/new?vs=computer")
        expect(page.get_by_role("heading", name="New game")).to_be_visible()
        page.get_by_label("Bots", exact=True).select_option("1")
        page.get_by_label("Length", exact=True).select_option("0")
        page.get_by_role("button", name="Start the game").click()
        expect(page.get_by_role("heading", name="Your hand:")).to_be_visible()
        expect(page.locator(".opponents .seat")).to_have_count(1)
        game_url = page.url
        reloads_before = navigations.count(game_url)

        acted, answered = play_and_see_the_bot_answer(page)
        # The bot's moves came to the open page: it was not loaded again meanwhile, and it
        # listened on the game's stream, which the proxy sent to the live process.
        assert navigations.count(game_url) == reloads_before, navigations
        assert streams, eve.requests
        assert all(url.startswith(base) and status == 200 for url, status in streams), streams
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        shot = ARTIFACTS / "game-through-proxy.png"
        page.screenshot(path=str(shot), full_page=True)
        shutil.copy(shot, stack.workdir / shot.name)
        assert acted >= 1 and answered >= 1, (acted, answered)
        assert not eve.errors, eve.errors
        assert not eve.outside_api(), eve.outside_api()
    finally:
        eve.close()

    operator = browser.new_context(base_url=base, **DESKTOP)
    try:
        admin = operator.new_page()
        admin.goto(f"{base}/admin/login/?next=/admin/")
        admin.get_by_label("Username").fill(SUPERUSER["username"])
        admin.get_by_label("Password").fill(SUPERUSER["password"])
        with admin.expect_navigation() as navigation:
            admin.get_by_role("button", name="Log in").click()
        answer = navigation.value
        assert answer is not None and answer.status == 200, (
            f"the admin's login answered {answer and answer.status}:\n{admin.content()[:2000]}"
        )
        # Signed in: the admin's index (titled "Moderation" here) with a "Log out" button.
        expect(admin.get_by_role("button", name="Log out")).to_be_visible()
        expect(admin.get_by_role("heading", name="Moderation", level=1)).to_be_visible()
        # A change through the admin: a session POST after the login.
        admin.goto(f"{base}/admin/auth/group/add/")
        admin.get_by_label("Name").fill("stack-testers")
        admin.get_by_role("button", name="Save", exact=True).click()
        expect(admin.locator(".messagelist")).to_contain_text("stack-testers")
    finally:
        operator.close()
    stack.check_alive()


def test_the_proxy_refuses_oversized_requests_in_the_api_shape(stack: Stack) -> None:
    api = f"{stack.proxy_url}/api/v1/"
    # A body over client_max_body_size never reaches gunicorn.
    body = requests.post(
        f"{api}auth/signup/",
        data=b"x" * (1024 * 1024 + 1),
        headers={"Content-Type": "application/json"},
        timeout=30,
    )
    assert body.status_code == 413, body.text
    assert body.json()["error"]["code"] == "request_too_large"
    # Nor headers over large_client_header_buffers (8k a line).
    headers = requests.get(f"{api}games/", headers={"X-Padding": "x" * 9000}, timeout=30)
    assert headers.status_code == 431, headers.text
    assert headers.json()["error"]["code"] == "request_too_large"
    # Within the bounds, the request is Django's to answer.
    fine = requests.get(f"{api}games/", headers={"X-Padding": "x" * 6000}, timeout=30)
    assert fine.status_code == 401 and fine.json()["error"]["code"] == "not_authenticated"
