"""`manage.py serve`: everything needed to run the service from a checkout, in one command.

Migrate, collect static files when they changed, start the in-process periodic jobs when there is
no Redis (so no Celery beat), then serve config.asgi with uvicorn.
"""

from __future__ import annotations

import hashlib
from argparse import ArgumentParser
from pathlib import Path
from typing import Any

import uvicorn
from django.conf import settings
from django.contrib.staticfiles.finders import get_finders
from django.core.management import call_command
from django.core.management.base import BaseCommand

from config import background
from config.asgi_server import uvicorn_options

STAMP_NAME = ".collectstatic-fingerprint"


def static_fingerprint() -> str:
    """A hash of every static source file's path, size and mtime, plus the storage backend.

    collectstatic with the manifest storage rehashes and recompresses every file on each run,
    which takes seconds; comparing this fingerprint lets `serve` skip it when nothing changed.
    """
    digest = hashlib.sha256(settings.STORAGES["staticfiles"]["BACKEND"].encode())
    entries = []
    for finder in get_finders():
        for path, storage in finder.list(ignore_patterns=[]):
            stat = Path(storage.path(path)).stat()
            entries.append(f"{path}\0{stat.st_size}\0{stat.st_mtime_ns}")
    for entry in sorted(entries):
        digest.update(entry.encode())
        digest.update(b"\n")
    return digest.hexdigest()


def collectstatic_if_needed(*, verbosity: int) -> bool:
    """Run collectstatic unless STATIC_ROOT already holds this exact set of files."""
    static_root = Path(settings.STATIC_ROOT)
    stamp = static_root / STAMP_NAME
    fingerprint = static_fingerprint()
    manifest = static_root / "staticfiles.json"
    if manifest.exists() and stamp.exists() and stamp.read_text() == fingerprint:
        return False
    call_command("collectstatic", interactive=False, verbosity=verbosity)
    # Written last: a collectstatic that crashed half-way leaves no stamp, so it runs again.
    stamp.write_text(fingerprint)
    return True


class Command(BaseCommand):
    help = "Migrate, collect static files and serve the app with uvicorn."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument(
            "--host", default="127.0.0.1", help="Address to bind (default %(default)s)."
        )
        parser.add_argument("--port", type=int, default=8000, help="Port (default %(default)s).")
        parser.add_argument(
            "--no-migrate", action="store_true", help="Skip `migrate` (it is idempotent anyway)."
        )

    def handle(self, *args: Any, host: str, port: int, no_migrate: bool, **options: Any) -> None:
        verbosity = int(options.get("verbosity", 1))
        if not no_migrate:
            call_command("migrate", interactive=False, verbosity=verbosity)
        if collectstatic_if_needed(verbosity=max(verbosity - 1, 0)):
            self.stdout.write("Static files collected.")
        if not settings.REDIS_URL:
            # Embedded mode: no Celery beat, so periodic jobs run in a thread of this process.
            background.start()
            self.stdout.write("No REDIS_URL: periodic jobs run in-process.")
        self.stdout.write(f"Serving on http://{host}:{port}/ (Ctrl-C to stop)")
        self.stdout.flush()
        uvicorn.run(
            "config.asgi:application",
            host=host,
            port=port,
            log_level="info" if verbosity >= 1 else "warning",
            # Bounded headers, proxy headers only from the configured proxies (issue 36).
            **uvicorn_options(),
        )
