"""The screenshots docs/web-client.md shows (issue 21's proof: the main screens at 390×844 in
both languages) cannot rot silently: every PNG the page shows under "Screenshots" is there, is
exactly 390×844, and each screen has an English and a Danish one; and a few screens are captured
again here (into a temporary directory) by the code that made them, so a screen that no longer
loads fails. `python -m tests.web.screenshots` regenerates them all (see tests/web/screenshots.py).
"""

from __future__ import annotations

import re
import struct
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser

from live import announce
from tests.web.screens import SCREENS, Shooter, selected
from tests.web.screenshots import DOCS_SHOTS, LANGUAGES, OUT_ENV, ROOT, SIZE

DOC = ROOT / "docs" / "web-client.md"
SHOWN = re.compile(r'src="screenshots/([a-z0-9-]+)-(en|da)\.png"')


def png_size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR", f"{path} is not a PNG"
    width, height = struct.unpack(">II", head[16:24])
    return width, height


def test_every_screen_the_docs_show_is_390x844_in_both_languages() -> None:
    section = DOC.read_text().split("\n## Screenshots\n", 1)
    assert len(section) == 2, "docs/web-client.md has no '## Screenshots' section"
    shown = SHOWN.findall(section[1].split("\n## ", 1)[0])
    screens = {screen for screen, _ in shown}
    # Every screen the capture code knows is shown, in both languages, and nothing else.
    assert screens == set(SCREENS), screens ^ set(SCREENS)
    assert sorted(shown) == sorted((s, lang) for s in SCREENS for lang in LANGUAGES)
    for screen, lang in shown:
        path = DOCS_SHOTS / f"{screen}-{lang}.png"
        assert path.exists(), f"{path} is shown in docs/web-client.md but missing"
        assert png_size(path) == SIZE, f"{path.name} is {png_size(path)}, not {SIZE}"


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("lift_throttles")
@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("screen", selected())
def test_the_screen_captures(
    screen: str, lang: str, browser: Browser, live_server: Any, tmp_path: Path, settings: Any
) -> None:
    import os

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    out = Path(os.environ[OUT_ENV]) if os.environ.get(OUT_ENV) else tmp_path
    shooter = Shooter(browser, live_server.url, lang, out)
    try:
        SCREENS[screen](shooter)
    finally:
        errors = shooter.close()
        announce.stop_notifier()  # as the clients fixture does: no re-check of a dropped db
    assert not errors, f"{screen} ({lang}) reported errors: {errors}"
    assert png_size(out / f"{screen}-{lang}.png") == SIZE
