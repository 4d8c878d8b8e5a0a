from typing import Any

from django.db import migrations, models
from django.db.models import Exists, OuterRef


def flag_users_with_targets(apps: Any, schema_editor: Any) -> None:
    """True for every player who has a push subscription or a webhook endpoint today; from here
    on notifications.signals keeps the flag."""
    User = apps.get_model("players", "User")
    PushSubscription = apps.get_model("notifications", "PushSubscription")
    WebhookEndpoint = apps.get_model("notifications", "WebhookEndpoint")
    User.objects.filter(
        Exists(PushSubscription.objects.filter(user=OuterRef("pk")))
        | Exists(WebhookEndpoint.objects.filter(user=OuterRef("pk")))
    ).update(has_channel_targets=True)


class Migration(migrations.Migration):
    dependencies = [
        ("players", "0003_vacation_bank"),
        # The tables the flag summarises.
        ("notifications", "0002_webpush_webhooks"),
    ]

    operations = [
        migrations.AddField(
            model_name="user",
            name="has_channel_targets",
            field=models.BooleanField(default=False, editable=False),
        ),
        migrations.RunPython(flag_users_with_targets, migrations.RunPython.noop, elidable=True),
    ]
