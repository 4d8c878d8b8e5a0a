from django.apps import AppConfig


class SocialConfig(AppConfig):
    name = "social"
    verbose_name = "Friends and challenges"

    def ready(self) -> None:
        from config import jobs
        from social import receivers
        from social.jobs import JOBS

        jobs.register_all(JOBS)
        # A profile (search name, presence, settings) for every account, kept on save.
        receivers.connect()
