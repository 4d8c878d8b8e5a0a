"""The Celery application used by `celery -A config worker` and `celery -A config beat`."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("config")
# All Celery options live in Django settings with a CELERY_ prefix, so they are read from the
# environment through config.env like everything else.
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
