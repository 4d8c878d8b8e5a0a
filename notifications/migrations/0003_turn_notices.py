"""One live "your turn" notice per player and game (issue 21): ``cleared_at`` withdraws a notice
from the inbox without deleting it or its deliveries, and a partial unique constraint keeps one
live "your turn" per player and game. Existing duplicates are cleared first, newest kept."""

from django.conf import settings
from django.db import migrations, models
from django.db.models import Max, Q
from django.utils import timezone


def clear_older_turn_notices(apps, schema_editor):
    Notification = apps.get_model("notifications", "Notification")
    live = Notification.objects.filter(
        kind="your_turn", cleared_at__isnull=True, game__isnull=False
    )
    newest = (
        live.values("user_id", "game_id").annotate(last=Max("id")).values_list("last", flat=True)
    )
    now = timezone.now()
    live.exclude(pk__in=list(newest)).update(cleared_at=now)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0008_idempotency_without_claims"),
        ("notifications", "0002_webpush_webhooks"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="notification",
            name="cleared_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.RunPython(clear_older_turn_notices, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="notification",
            constraint=models.UniqueConstraint(
                condition=Q(("cleared_at__isnull", True), ("kind", "your_turn")),
                fields=("user", "game"),
                name="one_live_turn_notice",
            ),
        ),
    ]
