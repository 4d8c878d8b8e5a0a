"""The Content-Security-Policy holds in a real browser (issue 36, hardening): the web client keeps
its bearer token in localStorage, so its pages must run no script but the service's own files.

Every page below is loaded in Chromium with a listener for the browser's
``securitypolicyviolation`` events and its console errors: the client's table, the API docs
(Swagger UI, ReDoc) and the admin must work under their policies without one violation, and a
script injected into the client's page must be refused.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from players.models import User
from tests.web.conftest import alice_and_bob_at, expect_hand_size, record_errors

pytestmark = pytest.mark.django_db(transaction=True)

REDOC_LOGO = "https://cdn.redoc.ly/"
REDOC_RENDERS_WITHIN_MS = 60_000
ALICES_HAND = 3  # in tests/web/positions/two_players.json

# Each violation the browser reports, kept where the test can read it.
RECORD_VIOLATIONS = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__violations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}`);
});
"""


class Visitor:
    """A browser with no client-side help: what a page runs is what its policy allows."""

    def __init__(self, browser: Browser, base: str) -> None:
        self.base = base
        self.context = browser.new_context(base_url=base)
        self.context.add_init_script(RECORD_VIOLATIONS)
        self.page: Page = self.context.new_page()
        self.errors: list[str] = []
        record_errors(self.page, self.errors)

    def goto(self, path: str) -> Any:
        return self.page.goto(self.base + path)

    def violations(self) -> list[str]:
        found: list[str] = self.page.evaluate("() => window.__violations")
        return found


@pytest.fixture
def visitor(browser: Browser, live_server: Any) -> Iterator[Visitor]:
    made = Visitor(browser, live_server.url)
    yield made
    made.context.close()


def test_the_client_plays_a_table_with_no_policy_violation(clients: Any) -> None:
    # A full page load of a game under the policy; the `clients` fixture fails the test on any
    # console error, which is where Chromium reports a refused script, style or connection.
    _, alice, _ = alice_and_bob_at(clients, "two_players.json")
    alice.context.add_init_script(RECORD_VIOLATIONS)
    alice.page.reload()
    expect_hand_size(alice.page, ALICES_HAND)
    assert alice.page.evaluate("() => window.__violations") == []


def test_the_client_page_refuses_an_injected_script(visitor: Visitor) -> None:
    response = visitor.goto("/login")
    policy = response.headers["content-security-policy"]
    assert "script-src 'self' 'nonce-" in policy and "unsafe-inline" not in policy, policy
    assert "object-src 'none'" in policy and "frame-ancestors 'none'" in policy
    expect(visitor.page.locator("h1")).to_be_visible()
    # What a stored XSS would be: an inline script element added to the page.
    visitor.page.evaluate(
        """() => { const s = document.createElement("script");
                   s.textContent = "window.__stolen = localStorage.length";
                   document.head.append(s); }"""
    )
    visitor.page.wait_for_function("() => window.__violations.length > 0")
    assert visitor.page.evaluate("() => window.__stolen") is None
    assert any(v.startswith("script-src") for v in visitor.violations()), visitor.violations()


def test_the_api_docs_work_under_their_policy(visitor: Visitor) -> None:
    visitor.goto("/api/docs/")
    expect(visitor.page.locator(".swagger-ui .opblock").first).to_be_visible()
    assert visitor.violations() == []
    visitor.goto("/api/redoc/")
    # ReDoc lays out the whole schema in one script task before it shows anything; on a CI
    # machine busy with other workers that took longer than the suite's usual wait once.
    title = visitor.page.get_by_role("heading", name="Uno All Wild API").first
    expect(title).to_be_visible(timeout=REDOC_RENDERS_WITHIN_MS)
    # ReDoc's menu ends with its maker's logo from their CDN: the policy keeps that request from
    # leaving (the docs make none outside the service), and it is the one thing refused.
    refused = visitor.violations()
    assert all(v.startswith(f"img-src {REDOC_LOGO}") for v in refused), refused
    errors = [e for e in visitor.errors if REDOC_LOGO not in e]
    assert not errors, errors


def test_the_admin_works_under_the_policy(visitor: Visitor) -> None:
    User.objects.create_superuser(username="root", password="correct-horse-battery-7")
    visitor.goto("/admin/login/?next=/admin/")
    visitor.page.locator("#id_username").fill("root")
    visitor.page.locator("#id_password").fill("correct-horse-battery-7")
    visitor.page.locator("form [type=submit]").click()
    expect(visitor.page.locator("#user-tools")).to_be_visible()
    visitor.goto("/admin/games/game/")
    expect(visitor.page.locator("#changelist")).to_be_visible()
    visitor.goto("/admin/players/user/1/change/")
    expect(visitor.page.locator("#user_form, form").first).to_be_visible()
    assert visitor.violations() == []
    assert not visitor.errors, visitor.errors
