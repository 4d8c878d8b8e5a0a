"""ASGI entry point; `manage.py serve` runs it under uvicorn."""

import os

from django.core.asgi import get_asgi_application

from config.gc_tuning import settle_after_startup

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

django_application = get_asgi_application()

from games.api import fast_view  # noqa: E402 (needs the apps loaded)

# A seated player's game view straight from Redis when it can be (games/api/fast_view.py).
application = fast_view.asgi(django_application)
settle_after_startup()
