"""Project configuration: settings, URLs, the Celery app and the ASGI/WSGI entry points."""

# Importing the Celery app here means `@shared_task` functions bind to it whenever Django starts,
# in the web process as well as in the worker.
from config.celery import app as celery_app

__all__ = ("celery_app",)
