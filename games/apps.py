from importlib import import_module

from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        from django.conf import settings
        from django.core.exceptions import ImproperlyConfigured

        from games.bots import LEVELS

        if settings.BOT_TAKEOVER_LEVEL not in LEVELS:
            raise ImproperlyConfigured(
                f"BOT_TAKEOVER_LEVEL must be one of {', '.join(LEVELS)}, "
                f"got {settings.BOT_TAKEOVER_LEVEL!r}."
            )
        # Without Redis there is no beat: the web process's background thread runs the same jobs.
        from config import background
        from games.periodic import PERIODIC_JOBS

        for name, (interval, task_path) in PERIODIC_JOBS.items():
            module, _, attr = task_path.rpartition(".")
            task = getattr(import_module(module), attr)
            background.register(name, interval, task)
