"""The web entry points freeze the start-up heap and raise the young generation's threshold
(config/gc_tuning.py), in a fresh interpreter as a server process would import them, and hand
every request to Django's own handler."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from config.gc_tuning import GEN0_THRESHOLD

ROOT = Path(__file__).resolve().parent.parent
PROBE = """
import gc, json, importlib, sys
app = importlib.import_module(sys.argv[1]).application
wrappers = []
while type(app).__name__ in ("BodySizeLimit", "RequestThreads"):  # asgi_limits, live.threads
    wrappers.append(type(app).__module__ + "." + type(app).__qualname__)
    app = app.app
print(json.dumps({"frozen": gc.get_freeze_count(), "threshold": gc.get_threshold(),
                  "views": "games.api.views" in sys.modules,
                  "wrappers": wrappers,
                  "handler": type(app).__module__ + "." + type(app).__qualname__}))
"""


HANDLERS = {
    "config.asgi": "django.core.handlers.asgi.ASGIHandler",
    "config.wsgi": "django.core.handlers.wsgi.WSGIHandler",
}
WRAPPERS = {"config.asgi": ["config.asgi_limits.BodySizeLimit", "live.threads.RequestThreads"]}


@pytest.mark.parametrize("module", HANDLERS)
def test_the_entry_point_freezes_the_loaded_heap(module: str) -> None:
    probe = run_probe(module)
    # Nothing answers a request in front of Django's own handler: every request meets the
    # middleware and DRF's authentication, permissions and throttles. The one exception is
    # ASGI's body bound, which refuses an over-long body before Django's handler reads it all
    # (it reads the body before any middleware runs; config/asgi_limits.py), and the request's
    # own thread for sync work (live/threads.py), which answers nothing itself.
    assert probe["handler"] == HANDLERS[module]
    assert probe["wrappers"] == WRAPPERS.get(module, [])
    assert probe["views"], "the URL patterns' views are loaded before the freeze"
    assert probe["frozen"] > 50_000, probe
    assert probe["threshold"][0] == GEN0_THRESHOLD


def run_probe(module: str, **environ: str) -> dict[str, Any]:
    """Import ``module`` in a fresh interpreter, as a server process would, and report."""
    out = subprocess.run(
        [sys.executable, "-c", PROBE, module],
        cwd=ROOT,
        env={"PATH": "/usr/bin:/bin", "DJANGO_SETTINGS_MODULE": "config.settings", **environ},
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])
