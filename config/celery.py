"""The Celery application used by `celery -A config worker` and `celery -A config beat`."""

import os
from typing import Any

from celery import Celery
from celery import Task as BaseTask

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")


class Task(BaseTask):  # type: ignore[misc]
    """Tasks the service sends are fire-and-forget: nothing in it waits for their results.

    Sent without ``ignore_result``, Celery first subscribes the sending process to the task's
    result on the Redis result backend; with Redis down that subscription retries for about 20
    seconds (then breaks the backend for good), so a move that queues a notification relay would
    hang instead of failing fast. A caller that does want the result passes
    ``ignore_result=False``.
    """

    def apply_async(self, *args: Any, **options: Any) -> Any:
        options.setdefault("ignore_result", True)
        return super().apply_async(*args, **options)


app = Celery("config", task_cls=Task)
# All Celery options live in Django settings with a CELERY_ prefix, so they are read from the
# environment through config.env like everything else.
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
