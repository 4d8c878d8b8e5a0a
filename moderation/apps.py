from django.apps import AppConfig


class ModerationConfig(AppConfig):
    name = "moderation"
    verbose_name = "Moderation"

    def ready(self) -> None:
        from config import jobs
        from moderation import receivers
        from moderation.jobs import JOBS

        jobs.register_all(JOBS)
        # Lifts a suspension that ran out when its player signs in (players.signals).
        receivers.connect()
