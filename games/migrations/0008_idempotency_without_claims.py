from django.db import migrations


class Migration(migrations.Migration):
    """Every record is written with its answer, in the answer's transaction: no claim status, and
    no JSON copy of the answer beside its bytes."""

    dependencies = [
        ("games", "0007_game_kind"),
    ]

    operations = [
        migrations.RemoveField(model_name="idempotencyrecord", name="status"),
        migrations.RemoveField(model_name="idempotencyrecord", name="response_body"),
    ]
