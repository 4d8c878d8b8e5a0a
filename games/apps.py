from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        from django.conf import settings
        from django.core.exceptions import ImproperlyConfigured

        from config import jobs
        from games import receivers
        from games.bots import LEVELS
        from games.jobs import JOBS
        from games.selectors import versions_of
        from live import announce

        if settings.BOT_TAKEOVER_LEVEL not in LEVELS:
            raise ImproperlyConfigured(
                f"BOT_TAKEOVER_LEVEL must be one of {', '.join(LEVELS)}, "
                f"got {settings.BOT_TAKEOVER_LEVEL!r}."
            )
        jobs.register_all(JOBS)
        # Games' answers to the players app's signals (account deletion, data export).
        receivers.connect()
        # The live announcements' database re-check reads game versions through games.
        announce.read_versions_with(versions_of)
