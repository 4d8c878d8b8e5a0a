"""ASGI entry point; `manage.py serve` runs it under uvicorn."""

import os

from django.core.asgi import get_asgi_application

from config.gc_tuning import settle_after_startup

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

application = get_asgi_application()
settle_after_startup()
