from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "notifications"
    verbose_name = "Notifications"

    def ready(self) -> None:
        # Channels register themselves on import; the relay, the preferences and the API read
        # the registry, so it must be complete before the first request.
        from notifications import channels, signals

        channels.load_builtin()
        # User.has_channel_targets follows push subscriptions and webhook endpoints.
        signals.connect()
