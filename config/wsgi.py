"""WSGI entry point, for hosts that run a WSGI server instead of uvicorn."""

import os

from django.core.wsgi import get_wsgi_application

from config.gc_tuning import settle_after_startup

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

application = get_wsgi_application()
settle_after_startup()
