from django.apps import AppConfig


class ChatConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "chat"
    verbose_name = "Chat"

    def ready(self) -> None:
        from chat import receivers

        # The game record's `chat` part, and the live re-check of the chat's marks.
        receivers.connect()
