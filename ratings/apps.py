from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = "Ratings"

    def ready(self) -> None:
        from ratings import receivers

        # Rating rows when a rated game starts, rating changes when its match ends: answers to
        # games.signals, written inside the game's own transaction.
        receivers.connect()
