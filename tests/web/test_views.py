"""The web client's server side: the page shell on every client route, the service worker at
the site root, the manifest, and string tables that cover every key the client uses."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from django.contrib.staticfiles import finders
from django.test import Client

ROOT = Path(__file__).resolve().parents[2]
CLIENT = ROOT / "web" / "static" / "web"


def import_map_of(html: str) -> str:
    """The page shell's import map (its script element carries the request's CSP nonce)."""
    found = re.search(r'<script type="importmap"[^>]*>(.*?)</script>', html, re.S)
    assert found, html
    return found[1]


@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/login",
        "/signup",
        "/games",
        "/games/new",
        "/games/1b0c2f43-5d7e-4a8b-9c0d-1e2f3a4b5c6d",
        "/join/B9sD-x_1",
        "/notifications",
        "/settings",
        "/players/42",
        "/friends",
        "/lobby",
        "/players/42/profile",
        "/leaderboards",
        "/leaderboards/gin_rummy",
        "/seasons",
        "/seasons/gin_rummy",
        "/seasons/uno_splash/2026-11",
        "/oauth/authorize",
    ],
)
def test_every_client_route_serves_the_shell(client: Client, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")
    assert response["Cache-Control"] == "no-cache"
    html = response.content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in html
    importmap = json.loads(import_map_of(html))
    assert "/static/web/views/game.js" in importmap["imports"]
    # The inline import map runs under the page's policy only with this response's nonce.
    nonce = re.search(r'<script type="importmap" nonce="([^"]+)">', html)
    assert nonce and f"'nonce-{nonce[1]}'" in response["Content-Security-Policy"]


def test_unknown_routes_still_answer_json_404(client: Client) -> None:
    response = client.get("/no-such-page")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


def test_service_worker_is_served_for_the_whole_site(client: Client) -> None:
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert response["Cache-Control"] == "no-cache"
    body = response.content.decode()
    for handler in ('"push"', '"notificationclick"', '"fetch"', '"install"'):
        assert f"addEventListener({handler}" in body
    shell = json.loads(body.split("const SHELL = ")[1].split(";\n")[0])
    assert "/" in shell and "/static/web/app.js" in shell
    assert "{{" not in body and "{%" not in body


def test_the_renderers_are_in_the_import_map_and_the_service_worker_shell(client: Client) -> None:
    """Every game's renderer (web/static/web/games/) is a module the page may import and a file
    the service worker keeps, so a game opens offline as the rest of the client does."""
    renderers = sorted(p.name for p in (CLIENT / "games").glob("*.js"))
    assert {"index.js", "names.js", "fallback.js", "uno_all_wild.js"} <= set(renderers)
    html = client.get("/games").content.decode()
    importmap = json.loads(import_map_of(html))
    body = client.get("/sw.js").content.decode()
    shell = json.loads(body.split("const SHELL = ")[1].split(";\n")[0])
    urls = [f"/static/web/games/{name}" for name in renderers] + ["/static/web/catalog.js"]
    for url in urls:
        assert url in importmap["imports"], url
        assert url in shell, url
    # The registry names a module for All Wild, and the module says which kind it draws.
    registry = (CLIENT / "games" / "index.js").read_text()
    assert 'uno_all_wild: () => import("./uno_all_wild.js")' in registry
    assert 'kind: "uno_all_wild"' in (CLIENT / "games" / "uno_all_wild.js").read_text()


def test_manifest_makes_the_client_installable(client: Client) -> None:
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = response.json()
    assert manifest["display"] == "standalone"
    assert manifest["start_url"] == "/games"
    sizes = {icon["sizes"] for icon in manifest["icons"] if icon["type"] == "image/png"}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        assert finders.find(icon["src"].removeprefix("/static/")), icon["src"]


def test_both_languages_have_every_string_the_client_uses() -> None:
    tables = {
        lang: json.loads((CLIENT / "i18n" / f"{lang}.json").read_text()) for lang in ("en", "da")
    }
    assert tables["en"].keys() == tables["da"].keys()
    for key, english in tables["en"].items():
        # The same placeholders in both languages.
        assert set(re.findall(r"\{(\w+)\}", english)) == set(
            re.findall(r"\{(\w+)\}", tables["da"][key])
        ), key
    source = "\n".join(p.read_text() for p in CLIENT.rglob("*.js"))
    used = set(re.findall(r"\bt\(\s*\"([a-z_0-9.]+)\"", source))
    keys = set(tables["en"])
    plural = {k.rsplit("_", 1)[0] for k in keys if k.endswith(("_one", "_other"))}
    missing = sorted(k for k in used if k not in keys and k not in plural)
    assert not missing, f"strings used by the client but missing from en.json: {missing}"


def test_the_client_calls_only_the_public_api() -> None:
    # Every fetch goes through api.js (BASE = /api/v1/), apart from the string tables (static
    # files) and the stream, which live.js builds from the same BASE.
    for path in CLIENT.rglob("*.js"):
        text = path.read_text()
        for match in re.finditer(r"fetch\(([^,)]+)", text):
            argument = match.group(1)
            assert argument.strip() in {"BASE + path", "config.i18n[code]", "request"} or (
                "${BASE}" in argument
            ), f"{path.name}: fetch({argument})"
        assert "/api/schema" not in text and "/admin" not in text


def client_options() -> dict[str, Any]:
    """The create-game options of web/static/web/options.js (strict JSON between markers)."""
    text = (CLIENT / "options.js").read_text()
    blob = text.split("/* options */", 1)[1].split("/* end options */", 1)[0]
    options: dict[str, Any] = json.loads(blob)
    return options


def test_the_new_game_screen_offers_only_what_the_server_accepts() -> None:
    from games.api.serializers import CreateGameSerializer, VsComputerSerializer
    from games.bots import DEFAULT_LEVEL, LEVELS
    from games.engine.uno.allwild.cards import PRESETS
    from games.engine.uno.allwild.house_rules import HOUSE_RULES
    from games.engine.uno.allwild.rules import SUPPORTED_HOUSE_RULES
    from games.services import MAX_BOTS, MAX_TURN_SECONDS, MIN_TURN_SECONDS

    options = client_options()
    assert set(options["presets"]) == set(PRESETS)
    # Every house rule the server accepts, and the table plays them all (a rule the server
    # learns is added there by hand, with its words).
    assert set(options["house_rules"]) == set(HOUSE_RULES) == set(SUPPORTED_HOUSE_RULES)
    assert options["bot_levels"] == list(LEVELS)
    assert options["default_bot_level"] == DEFAULT_LEVEL
    create = CreateGameSerializer().fields
    seats = options["seats"]
    assert (seats["min"], seats["max"]) == (
        create["max_players"].min_value,
        create["max_players"].max_value,
    )
    assert seats["min"] <= seats["default"] <= seats["max"]
    bots = VsComputerSerializer().fields["bots"]
    assert (options["bots"]["min"], options["bots"]["max"]) == (bots.min_value, MAX_BOTS)
    assert bots.max_value == MAX_BOTS
    assert all(MIN_TURN_SECONDS <= s <= MAX_TURN_SECONDS for s in options["turn_seconds"])
    assert options["default_turn_seconds"] in options["turn_seconds"]
    speed = create["speed_seconds"]
    assert options["speed_seconds"] == {
        "min": speed.min_value,
        "max": speed.max_value,
        "default": speed.default,
    }
    target = options["target_score"]
    assert (target["min"], target["max"]) == (
        create["target_score"].min_value,
        create["target_score"].max_value,
    )
    # Every option has its words in both languages.
    for lang in ("en", "da"):
        table = json.loads((CLIENT / "i18n" / f"{lang}.json").read_text())
        keys = [f"preset.{p}" for p in options["presets"]]
        keys += [f"rule.{r}" for r in options["house_rules"]]
        keys += [f"rule.{r}_hint" for r in options["house_rules"]]
        keys += [f"bot.level_{level}" for level in options["bot_levels"]]
        assert not [k for k in keys if k not in table], lang


def test_options_js_is_what_the_api_lists() -> None:
    """options.js against GET games/options/ (games.api.serializers.game_options): the same
    presets (the rulebook first, the client's default), house rules, bot levels, ranges and
    defaults; the turn limits offered lie in the API's range."""
    from games.api.serializers import game_options

    server = game_options()
    options = client_options()
    assert sorted(options["presets"]) == sorted(server["presets"])
    assert options["presets"][0] == server["default_preset"]
    assert sorted(options["house_rules"]) == sorted(r["name"] for r in server["house_rules"])
    assert options["bot_levels"] == server["bot_levels"]
    assert options["default_bot_level"] == server["default_bot_level"]
    assert options["seats"] == server["max_players"]
    for name in ("bots", "target_score", "speed_seconds"):
        assert options[name] == server[name], name
    limits = server["turn_seconds"]
    assert all(limits["min"] <= s <= limits["max"] for s in options["turn_seconds"])
    assert options["default_turn_seconds"] == limits["default"]


def test_the_shell_speaks_the_browsers_language_before_any_script_runs(client: Client) -> None:
    danish = client.get("/games", HTTP_ACCEPT_LANGUAGE="da-DK,da;q=0.9").content.decode()
    assert '<html lang="da">' in danish
    assert '<a class="skip-link" href="#main">Gå til indholdet</a>' in danish
    assert "Indlæser…" in danish and "kræver JavaScript" in danish
    english = client.get("/games").content.decode()
    assert '<html lang="en">' in english
    assert '<a class="skip-link" href="#main">Skip to content</a>' in english


def error_codes() -> set[str]:
    """Every error code the service answers with: the one list's (config/error_codes.py: the
    services', DRF's mapped to ours, and the rules')."""
    from config import error_codes as listed

    return {entry.code for section in listed.SECTIONS for entry in section.entries}


def test_every_error_the_service_answers_with_has_the_clients_words_in_both_languages() -> None:
    """The server's `message` is English; the client shows its own words for the `code`, so a
    Danish player never reads the English message (issue 21, §4)."""
    codes = error_codes()
    assert {"not_your_turn", "version_conflict", "join_refused", "not_authenticated"} <= codes
    for lang in ("en", "da"):
        table = json.loads((CLIENT / "i18n" / f"{lang}.json").read_text())
        missing = sorted(code for code in codes if f"error.{code}" not in table)
        assert not missing, f"{lang}.json has no words for these error codes: {missing}"
