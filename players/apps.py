from django.apps import AppConfig


class PlayersConfig(AppConfig):
    name = "players"
    verbose_name = "Players"

    def ready(self) -> None:
        from config import jobs

        # Registers the OpenAPI description of bearer tokens with drf-spectacular.
        # exports connects the receiver that deletes an export's file with its row.
        from players import exports, schema  # noqa: F401
        from players.jobs import JOBS

        jobs.register_all(JOBS)
