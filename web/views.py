"""Serve the web client: the page shell for every client route, the service worker and the web
app manifest. Everything else the client loads is a static file under ``web/static/web/``, and
everything it does goes through the public API under /api/v1/.

The shell carries an import map from each module's plain URL to its hashed one (with the manifest
storage of production), so modules import each other by relative paths and a deploy never mixes
old and new modules.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.utils.translation import get_language
from django.views.decorators.http import require_safe

CLIENT_DIR = Path(__file__).resolve().parent / "static" / "web"
LANGUAGES = ("en", "da")
THEME_COLOR = "#b3121f"
# The shell's own words (before the client's modules run, or without JavaScript), from the
# client's string tables in the request's language (LocaleMiddleware, Accept-Language).
SHELL_STRINGS = ("shell.skip", "shell.loading", "shell.noscript")


@cache
def _shell_strings(lang: str) -> dict[str, str]:
    table = json.loads((CLIENT_DIR / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    return {key.removeprefix("shell."): table[key] for key in SHELL_STRINGS}


def _request_language() -> str:
    code = (get_language() or "en").split("-")[0]
    return code if code in LANGUAGES else "en"


def _client_files() -> list[str]:
    """Static names (``web/...``) of the client's files, sorted."""
    return sorted(
        "web/" + path.relative_to(CLIENT_DIR).as_posix()
        for path in CLIENT_DIR.rglob("*")
        if path.is_file() and not path.name.startswith(".")
    )


def _json(value: Any) -> str:
    """JSON that is safe inside a <script> element."""
    return json.dumps(value, indent=1).replace("<", "\\u003c")


def _build() -> dict[str, Any]:
    files = _client_files()
    digest = hashlib.sha256()
    for name in files:
        digest.update(name.encode())
        digest.update((CLIENT_DIR.parent / name).read_bytes())
    digest.update(render_to_string("web/sw.js", {"version": "", "shell": "[]"}).encode())
    modules = {static(name): static(name) for name in files if name.endswith(".js")}
    shell = [static(name) for name in files if not name.endswith((".svg", ".png"))]
    shell += [static("web/icons/icon-192.png")]
    return {
        "version": digest.hexdigest()[:16],
        "importmap": _json({"imports": modules}),
        "shell": ["/", *shell],
        "config": {
            "i18n": {lang: static(f"web/i18n/{lang}.json") for lang in LANGUAGES},
            "languages": list(LANGUAGES),
            "icon": static("web/icons/icon-192.png"),
        },
    }


@cache
def _cached_build() -> dict[str, Any]:
    return _build()


def build() -> dict[str, Any]:
    # While developing, files change under a running server: look again on every request.
    return _build() if settings.DEBUG else _cached_build()


@require_safe
def index(request: HttpRequest, **kwargs: Any) -> HttpResponse:
    """The page shell: the same document for every client route (the router runs in the page)."""
    data = build()
    config = {**data["config"], "version": data["version"]}
    response = render(
        request,
        "web/index.html",
        {
            "importmap": data["importmap"],
            "config": _json(config),
            "theme_color": THEME_COLOR,
            "lang": _request_language(),
            "words": _shell_strings(_request_language()),
        },
    )
    response["Cache-Control"] = "no-cache"
    return response


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    """``/sw.js``: at the site root so that its scope is the whole client."""
    data = build()
    body = render_to_string(
        "web/sw.js",
        {
            "version": data["version"],
            "shell": _json(data["shell"]),
            "icon": static("web/icons/icon-192.png"),
        },
    )
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    # Browsers check for a new worker on navigation; never let a cache answer for it.
    response["Cache-Control"] = "no-cache"
    return response


@require_safe
def manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest: name, icons and start URL for installing the client."""
    icons = [
        {"src": static("web/icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
        {"src": static("web/icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
        {
            "src": static("web/icons/icon-maskable-512.png"),
            "sizes": "512x512",
            "type": "image/png",
            "purpose": "maskable",
        },
        {"src": static("web/icons/icon.svg"), "sizes": "any", "type": "image/svg+xml"},
    ]
    body = {
        "id": "/",
        "name": "Uno All Wild",
        "short_name": "All Wild",
        "description": "Asynchronous Uno All Wild with friends.",
        "lang": "en",
        "start_url": "/games",
        "scope": "/",
        "display": "standalone",
        "orientation": "portrait",
        "background_color": "#1d1b26",
        "theme_color": THEME_COLOR,
        "icons": icons,
    }
    response = JsonResponse(body, content_type="application/manifest+json")
    response["Cache-Control"] = "no-cache"
    return response
