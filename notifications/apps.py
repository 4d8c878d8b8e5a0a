from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "notifications"
    verbose_name = "Notifications"

    def ready(self) -> None:
        from django.conf import settings

        from config import jobs, metrics
        from notifications import channels, receivers, signals, vapid
        from notifications.jobs import JOBS
        from notifications.metrics import OutboxCollector

        vapid.check_settings(settings.VAPID_PRIVATE_KEY, settings.VAPID_PUBLIC_KEY)
        # Channels register themselves on import; the relay, the preferences and the API read
        # the registry, so it must be complete before the first request.
        channels.load_builtin()
        # User.has_channel_targets follows push subscriptions and webhook endpoints.
        signals.connect()
        # Outbox rows for what the games app announces (written in the game's transaction).
        receivers.connect()
        jobs.register_all(JOBS)
        # The outbox's backlog, read at each scrape of /metrics.
        metrics.add_scrape_collector(OutboxCollector())
