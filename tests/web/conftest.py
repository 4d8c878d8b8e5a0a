"""Browser tests of the web client: Playwright (Python) driving Debian's Chromium.

Playwright's own browser downloads are never used: Chromium comes from the system
(`/usr/bin/chromium`, which .ci/run installs) and is launched with ``executable_path``. A missing
Chromium fails these tests with a message saying so; they are never skipped.

Every request a page makes is recorded, and a test fails on any request outside /api/v1/ that
is not one of the client's own files (the page shell on a client route, /static/, /sw.js, the
manifest): the client must talk to the server through the public API only.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.core.management import call_command
from django.urls import Resolver404, resolve
from playwright.sync_api import Browser, BrowserContext, Page, Playwright, expect, sync_playwright

from games.engine import registry
from games.models import Game
from live import announce

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts" / "web"
AXE = Path(__file__).parent / "vendor" / "axe.min.js"
POSITIONS = Path(__file__).parent / "positions"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
PHONE: dict[str, Any] = {
    "viewport": {"width": 360, "height": 640},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}
DESKTOP: dict[str, Any] = {"viewport": {"width": 1280, "height": 800}}
STATIC_PATHS = ("/static/", "/sw.js", "/manifest.webmanifest")
# The first-game walkthrough (web/static/web/help.js) is a modal sheet over the table: a browser
# is one that has seen it for every game, unless a test asks for a new player's
# (`walkthrough=True`).
WALKTHROUGH_SEEN = (
    "try { for (const kind of %s) localStorage.setItem(`uaw.walkthrough.${kind}`, 'seen'); }"
    " catch (_) { /* about:blank has no storage */ }"
)

expect.set_options(timeout=15_000)


def chromium_path() -> str:
    path = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    if not Path(path).exists():
        pytest.fail(
            "Chromium is needed for the browser tests: apt-get install chromium "
            "(.ci/run installs it), or set CHROMIUM to its path."
        )
    return path


@pytest.fixture(scope="module")
def playwright() -> Iterator[Playwright]:
    # Playwright's sync API keeps an asyncio loop in this thread; Django refuses ORM calls from
    # a thread with a loop unless told that this is safe (it is: the loop is Playwright's, idle
    # while the test's own code runs).
    before = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as p:
            yield p
    finally:
        if before is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = before


@pytest.fixture(scope="module")
def browser(playwright: Playwright) -> Iterator[Browser]:
    browser = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
    yield browser
    browser.close()


def is_client_route(path: str) -> bool:
    try:
        match = resolve(path)
    except Resolver404:
        return False
    return (match.url_name or "").startswith("web-")


def record_errors(page: Page, errors: list[str]) -> None:
    """``page``'s uncaught errors and console errors, appended to ``errors`` as they come."""
    page.on("pageerror", lambda e: errors.append(f"pageerror: {e}"))

    def console(message: Any) -> None:
        # A refused request (404 of an optional endpoint or of /favicon.ico, 409 of a late catch)
        # is logged by the browser as "Failed to load resource": the server answering, not a bug.
        if message.type == "error" and "Failed to load resource" not in message.text:
            errors.append(f"console: {message.text}")

    page.on("console", console)


class Client:
    """One person's browser: a context of its own (storage, service worker), one page."""

    def __init__(
        self,
        browser: Browser,
        base: str,
        name: str,
        *,
        locale: str = "en-GB",
        walkthrough: bool = False,
        **size: Any,
    ) -> None:
        self.base = base
        self.name = name
        self.context: BrowserContext = browser.new_context(
            base_url=base, locale=locale, **(size or PHONE)
        )
        self.context.grant_permissions(["notifications"], origin=base)
        if not walkthrough:
            self.context.add_init_script(WALKTHROUGH_SEEN % json.dumps(registry.kinds()))
        self.requests: list[tuple[str, str, str]] = []
        self.errors: list[str] = []
        self.context.on(
            "request", lambda r: self.requests.append((r.method, r.url, r.resource_type))
        )
        self.page: Page = self.context.new_page()
        record_errors(self.page, self.errors)

    def goto(self, path: str) -> None:
        self.page.goto(self.base + path)

    def sign_in_with_token(self, token: str, path: str) -> None:
        """Log in as a scenario's player: its token goes where the client keeps its own."""
        self.goto("/login")
        expect(self.page.locator("h1")).to_be_visible()
        self.page.evaluate("t => localStorage.setItem('uaw.token', t)", token)
        self.goto(path)

    def outside_api(self) -> list[str]:
        host = urlsplit(self.base).netloc
        bad = []
        for method, url, kind in self.requests:
            parts = urlsplit(url)
            if parts.scheme in {"data", "blob"}:
                continue
            path = parts.path
            if parts.netloc == host and (
                path.startswith("/api/v1/")
                or path.startswith(STATIC_PATHS)
                or (method == "GET" and is_client_route(path))
            ):
                continue
            bad.append(f"{method} {url} ({kind})")
        return bad

    def shot(self, name: str, *visible: Any) -> Path:
        """Assert what a person must see, then keep a screenshot of it."""
        for locator in visible:
            expect(locator).to_be_visible()
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        path = ARTIFACTS / f"{name}.png"
        self.page.screenshot(path=str(path), full_page=True)
        return path

    def axe(self, screen: str) -> None:
        """axe-core on the page as it is: no serious or critical violation."""
        if not self.page.evaluate("() => Boolean(window.axe)"):
            # Evaluated, not added as a <script>: the page's policy refuses inline scripts.
            self.page.evaluate(AXE.read_text())
        violations = self.page.evaluate(
            """async () => {
                const result = await axe.run(document, {resultTypes: ["violations"]});
                return result.violations.map((v) => ({
                    id: v.id, impact: v.impact, help: v.help,
                    nodes: v.nodes.slice(0, 4).map((n) => n.target.join(" ")),
                }));
            }"""
        )
        bad = [v for v in violations if v["impact"] in {"serious", "critical"}]
        assert not bad, f"axe-core on {screen} ({self.name}): {json.dumps(bad, indent=1)}"

    def close(self) -> None:
        self.context.close()


@pytest.fixture(params=["en", "da"])
def lang(request: pytest.FixtureRequest) -> str:
    """The client's language: a test that asks for it runs in English, then in Danish."""
    language: str = request.param
    return language


@pytest.fixture
def clients(browser: Browser, live_server: Any) -> Iterator[Any]:
    """Make browsers with clients(name, **options); checks every one's requests at the end."""
    made: list[Client] = []

    def make(name: str, **options: Any) -> Client:
        client = Client(browser, live_server.url, name, **options)
        made.append(client)
        return client

    yield make
    try:
        for client in made:
            assert not client.outside_api(), (
                f"{client.name} made requests outside /api/v1/: {client.outside_api()}"
            )
            assert not client.errors, f"{client.name}'s page reported errors: {client.errors}"
            assert any("/api/v1/" in url for _, url, _ in client.requests)
    finally:
        for client in made:
            client.close()
        # Their long-polls and streams still wait on the server (WSGI cannot see a client go):
        # leave them a stopped notifier, or its re-check reads the test database once pytest
        # blocks or drops it, logging "re-checking game versions failed" at every teardown.
        announce.stop_notifier()


def load_scenario(name: str) -> dict[str, Any]:
    """`manage.py scenario load`: players and a game in a scenario's position, with tokens."""
    out = io.StringIO()
    try:
        call_command("scenario", "load", str(POSITIONS / name), stdout=out)
    except SystemExit as exc:
        assert exc.code in (0, None), f"scenario load failed with {exc.code}"
    data: dict[str, Any] = json.loads(out.getvalue())
    return data


def act_over_the_api(base: str, token: str, game_id: str, action: dict[str, Any]) -> None:
    """``action`` sent by the token's player through the public API, at the game's version."""
    version = Game.objects.get(pk=game_id).version
    request = urllib.request.Request(
        f"{base}/api/v1/games/{game_id}/actions/",
        data=json.dumps({**action, "expected_version": version}).encode(),
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request) as response:
        assert response.status == 200


def signed_in_at(
    clients: Any, scenario: str, name: str, **options: Any
) -> tuple[dict[str, Any], Client]:
    """The scenario's game loaded, and ``name`` signed in (with the scenario's token) on its
    page in a browser made with ``options``: (the scenario's output, that browser)."""
    data = load_scenario(scenario)
    token = next(p["token"] for p in data["players"] if p["name"] == name)
    client: Client = clients(name, **options)
    client.sign_in_with_token(token, f"/games/{data['game_id']}")
    return data, client


def alice_and_bob_at(
    clients: Any, scenario: str, **options: Any
) -> tuple[dict[str, Any], Client, Client]:
    """The scenario's game loaded, and alice and bob each signed in (with the scenario's tokens)
    on its page in a browser of their own (made with ``options``): (the scenario's output,
    alice, bob)."""
    game = load_scenario(scenario)
    tokens = {p["name"]: p["token"] for p in game["players"]}
    alice = clients("alice", **options)
    bob = clients("bob", **options)
    alice.sign_in_with_token(tokens["alice"], f"/games/{game['game_id']}")
    bob.sign_in_with_token(tokens["bob"], f"/games/{game['game_id']}")
    return game, alice, bob


def card(page: Page, name: str) -> Any:
    """The first card of the hand whose name contains ``name``."""
    return page.locator(".hand button.card", has_text=name).first


def open_target_picker(page: Page, heading: str) -> Any:
    """Enter on the focused card opens the target picker under ``heading``, on bob (the first
    other player) for the keyboard. The picker."""
    page.keyboard.press("Enter")
    picker = page.locator("dialog[open]")
    expect(picker.get_by_role("heading", name=heading)).to_be_visible()
    expect(picker.get_by_role("button", name="bob")).to_be_focused()
    return picker


# The cards the hand holds: identical cards are one button with a count ("×3" in data-count).
HAND_SIZE = """() => [...document.querySelectorAll(".hand button.card")]
    .reduce((n, b) => n + (b.dataset.count ? Number(b.dataset.count.slice(1)) : 1), 0)"""


def expect_hand_size(page: Page, size: int) -> None:
    """Wait until the hand shows ``size`` cards, a group counting as the cards it holds."""
    page.wait_for_function(f"size => ({HAND_SIZE})() === size", arg=size, timeout=15_000)


def wait_turn(page: Page) -> None:
    expect(page.locator(".prompt.mine")).to_be_visible()


def see_the_result(page: Page) -> None:
    """A match that ended while the table was open shows its last round first (issue 35, item
    3): its dialog, then the results behind it. Called once the results are on screen (the
    dialog opens in the same drawing); a test that taps every open dialog may have closed it.
    tests/web/test_table_moments.py asserts the dialog itself."""
    dialog = page.locator("dialog[open]")
    if not dialog.count():
        return
    expect(dialog.get_by_role("heading", name="The last round is over")).to_be_visible()
    dialog.get_by_role("button", name="See the result").click()
    expect(page.locator("dialog[open]")).to_have_count(0)
