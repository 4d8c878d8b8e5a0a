"""The screenshots of docs/web-client.md: the main screens at 390×844 (device scale 1), in English
and in Danish, each named ``<screen>-<lang>.png``.

Regenerate them all (about two minutes; Debian's Chromium, a live server and a test database, as
tests/web does)::

    python -m tests.web.screenshots                    # into docs/screenshots/
    python -m tests.web.screenshots table-gin help     # only these screens
    python -m tests.web.screenshots --out /tmp/shots   # somewhere else

The capture is tests/web/test_screenshots.py (pytest gives it the live server and a fresh
database per screen); tests/web/screens.py says what each screen shows and how it is reached.
The normal test run captures a few of the screens into a temporary directory, so a screen
that no longer loads fails there, and checks that every PNG docs/web-client.md shows is 390×844
in both languages.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS_SHOTS = ROOT / "docs" / "screenshots"
LANGUAGES = ("en", "da")
SIZE = (390, 844)
# What the pytest run reads: where to write, and which screens (all when unset).
OUT_ENV = "SCREENSHOTS_OUT"
ONLY_ENV = "SCREENSHOTS_ONLY"


def main(argv: list[str] | None = None) -> int:
    import pytest

    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("screens", nargs="*", help="screen names (all if none)")
    parser.add_argument("--out", type=Path, default=DOCS_SHOTS, help="default: docs/screenshots")
    args = parser.parse_args(argv)
    os.environ[OUT_ENV] = str(args.out.resolve())
    os.environ[ONLY_ENV] = ",".join(args.screens)
    test = Path(__file__).with_name("test_screenshots.py")
    return int(pytest.main([str(test), "-q", "-p", "no:cacheprovider", "-k", "captures"]))


if __name__ == "__main__":
    sys.exit(main())
