"""Languages complete (issue 21, §4) at 390×844: a Danish session meets no English string on the
screens it visits (sign-up with the server's own password and validation errors, my games, the
table with its player list and report sheet, a player's screen, settings with the developer
channels under "Advanced", the inbox, a new game, offline), and the skip link is Danish. The
check is the client's own string tables: any English string of en.json (with its placeholders
as wildcards) on a Danish screen fails, and so do common English words a hard-coded string
would bring."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from players.models import User
from tests.web.conftest import Client, expect_hand_size, load_scenario
from tests.web.test_offline import PHONE_390, seen_online

pytestmark = pytest.mark.django_db(transaction=True)

I18N = Path(__file__).resolve().parents[2] / "web" / "static" / "web" / "i18n"
# Words no Danish screen has, unless an English string slipped through (names here are
# alice and bob; "Uno All Wild" is the service's name in both languages).
ENGLISH_WORDS = re.compile(
    r"\b(the|your|you|and|with|game|games|turn|cards?|waiting|players?|loading|report|block|"
    r"settings|password|username|skip|content|back|this|that|is|are|not|please|try|advanced|"
    r"developer|notifications?|inbox|new|play|draw|keep|left|round)\b",
    re.IGNORECASE,
)

# Every text a person may meet: text nodes and the words given to assistive technology.
VISIBLE_TEXT = """() => {
    const out = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const el = node.parentElement;
        if (!el || el.closest("script, style, noscript, [hidden]")) continue;
        const text = node.nodeValue.trim();
        if (text) out.push(text);
    }
    for (const el of document.querySelectorAll("[aria-label], [placeholder], [title], img[alt]")) {
        if (el.closest("[hidden]")) continue;
        for (const name of ["aria-label", "placeholder", "title", "alt"]) {
            const value = (el.getAttribute(name) || "").trim();
            if (value) out.push(value);
        }
    }
    out.push(document.title);
    return out;
}"""


def english_patterns() -> list[tuple[str, re.Pattern[str]]]:
    """Each English string whose Danish differs, as a pattern matching it filled in."""
    en = json.loads((I18N / "en.json").read_text())
    da = json.loads((I18N / "da.json").read_text())
    patterns = []
    for key, english in en.items():
        if da.get(key) == english or len(english) < 4:
            continue
        parts = re.split(r"\{\w+\}", english)
        regex = ".+?".join(re.escape(part) for part in parts)
        patterns.append((key, re.compile(rf"^{regex}$", re.DOTALL)))
    return patterns


PATTERNS = english_patterns()
# A string both tables share (a name such as "Uno All Wild", a number) is Danish where it is met.
DANISH = set(json.loads((I18N / "da.json").read_text()).values())


def assert_danish(client: Client, screen: str) -> None:
    texts: list[str] = client.page.evaluate(VISIBLE_TEXT)
    english = []
    for text in texts:
        if text == "English":  # the language picker names each language in its own words
            continue
        # A string both tables share (the service's name, a number) is Danish here.
        key = None if text in DANISH else next((k for k, p in PATTERNS if p.match(text)), None)
        words = ENGLISH_WORDS.findall(text)
        if key:
            english.append(f"{text!r} (en.json {key})")
        elif words:
            english.append(f"{text!r} (English words: {words})")
    assert not english, f"English on the Danish {screen}: {english}"


def danish_sign_up_errors(clients: Any) -> None:
    """Sign-up in Danish: the shell's skip link, and the server's own errors in Danish."""
    lars = clients("lars", locale="da-DK", **PHONE_390)
    page = lars.page
    lars.goto("/signup")
    expect(page.get_by_role("heading", name="Opret konto")).to_be_visible()
    expect(page.locator(".skip-link")).to_have_text("Gå til indholdet")
    page.get_by_label("Brugernavn").fill("lars")
    page.get_by_label("Adgangskode").fill("abc")
    page.get_by_role("button", name="Opret konto").click()
    alert = page.get_by_role("alert")
    expect(alert).to_contain_text("Denne adgangskode er for kort")
    assert_danish(lars, "sign-up with a weak password")
    page.get_by_label("Adgangskode").fill("en-lang-og-god-adgangskode-42")
    page.get_by_label("E-mail").fill("ikke-en-adresse")
    page.get_by_role("button", name="Opret konto").click()
    expect(alert).to_contain_text("Angiv en gyldig e-mailadresse.")
    assert_danish(lars, "sign-up with a bad e-mail address")
    lars.shot("da-signup-errors", alert)


def test_a_danish_session_meets_no_english_string(clients: Any, live_server: Any) -> None:
    game = load_scenario("two_players.json")
    game_id = game["game_id"]
    tokens = {p["name"]: p["token"] for p in game["players"]}
    User.objects.filter(username__in=["alice", "bob"]).update(language="da")
    bob_id = User.objects.get(username="bob").id

    danish_sign_up_errors(clients)

    # Alice's phone, Danish: my games, the table, its player list and the report sheet.
    alice = clients("alice", locale="da-DK", **PHONE_390)
    a = alice.page
    alice.sign_in_with_token(tokens["alice"], "/games")
    seen_online(alice, game_id)
    alice.goto("/games")
    expect(a.get_by_role("heading", name="Mine spil")).to_be_visible()
    assert_danish(alice, "my games")
    alice.goto(f"/games/{game_id}")
    expect(a.locator(".prompt.mine")).to_be_visible()
    a.get_by_text("Spillere: profil, anmeld, bloker").click()
    a.locator("details.log summary").click()
    expect(a.get_by_role("button", name="Anmeld bob")).to_be_visible()
    assert_danish(alice, "table")
    alice.shot("da-table", a.get_by_role("button", name="Bloker bob"))
    a.get_by_role("button", name="Anmeld bob").click()
    sheet = a.locator("dialog[open]")
    expect(sheet.get_by_role("heading", name="Anmeld bob")).to_be_visible()
    assert_danish(alice, "report sheet")
    alice.shot("da-report", sheet)
    sheet.get_by_role("button", name="Annuller").click()

    alice.goto(f"/players/{bob_id}")
    expect(a.get_by_role("heading", level=1)).to_have_text("bob")
    expect(a.get_by_role("button", name="Bloker bob")).to_be_visible()
    assert_danish(alice, "player's screen")

    alice.goto("/settings")
    expect(a.get_by_role("heading", name="Indstillinger")).to_be_visible()
    advanced = a.locator("details.advanced")
    expect(advanced).to_be_visible()
    advanced.locator("summary").click()
    expect(advanced.locator("legend")).to_have_text("Webhooks")
    assert_danish(alice, "settings")
    alice.shot("da-settings", advanced)
    alice.axe("settings with the advanced section open")

    alice.goto("/notifications")
    expect(a.locator("h1")).to_be_visible()
    assert_danish(alice, "inbox")
    alice.goto("/games/new")
    expect(a.locator("h1")).to_be_visible()
    expect(a.locator("form")).to_be_visible()
    assert_danish(alice, "new game")
    a.get_by_role("button", name="Opret spillet").click()
    expect(a.get_by_role("heading", name="Spillets lobby")).to_be_visible()
    assert_danish(alice, "lobby")

    # Offline, the banner and the kept table are Danish too.
    alice.context.set_offline(True)
    alice.goto(f"/games/{game_id}")
    expect(a.locator("#offline-banner")).to_have_text(
        re.compile(r"^Offline — viser stillingen kl\. \d\d[.:]\d\d$")
    )
    expect_hand_size(a, 3)
    assert_danish(alice, "table offline")
    alice.context.set_offline(False)
