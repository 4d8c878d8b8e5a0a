"""ASGI entry point; `manage.py serve` and the live process run it under uvicorn."""

import os

from django.conf import settings
from django.core.asgi import get_asgi_application

from config.gc_tuning import settle_after_startup

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

django_application = get_asgi_application()

# After the apps are loaded: the wrapper answers in the API's error shape (config/errors.py,
# which imports DRF and the apps' models).
from config.asgi_limits import BodySizeLimit  # noqa: E402
from live.threads import RequestThreads  # noqa: E402

# Bodies over DATA_UPLOAD_MAX_MEMORY_SIZE are refused before Django spools them (issue 36).
# Each request's sync code runs on a thread the request owns and gives back while it waits
# (live/threads.py: asgiref's ThreadSensitiveContext with an executor).
application = BodySizeLimit(
    RequestThreads(django_application), max_bytes=lambda: settings.DATA_UPLOAD_MAX_MEMORY_SIZE
)
settle_after_startup()
