from django.apps import AppConfig


class PlayersConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "players"
    verbose_name = "Players"

    def ready(self) -> None:
        from config import jobs
        from players.jobs import JOBS

        # Expired sessions are deleted on a schedule (Celery beat, or the web process's thread).
        jobs.register_all(JOBS)
        # Registers the OpenAPI description of bearer tokens with drf-spectacular.
        from players import schema  # noqa: F401
