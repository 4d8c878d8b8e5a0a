"""Static files and storages.

Included by ``config/settings/__init__.py`` into one namespace: names from the parts
included before this one are in scope."""

from __future__ import annotations

from pathlib import Path

from config.env import env_str

STATIC_URL = "static/"
STATIC_ROOT = Path(
    env_str(
        "STATIC_ROOT",
        default=str(BASE_DIR / "staticfiles"),
        help="Where collectstatic writes files for WhiteNoise to serve.",
    )
)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # Data exports (players/exports.py): written by whichever process builds them (a Celery
    # worker, or the embedded background thread) and read by the web process, so with separate
    # containers this must be a shared volume (or another Django storage backend).
    "exports": {
        "BACKEND": "django.core.files.storage.FileSystemStorage",
        "OPTIONS": {
            "location": env_str(
                "EXPORT_ROOT",
                default=str(BASE_DIR / "exports"),
                help="Where data exports are kept until fetched (a day at most).",
            )
        },
    },
    # Hashed names let browsers cache static files forever; `serve` runs collectstatic first.
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
