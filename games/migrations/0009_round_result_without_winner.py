from django.db import migrations, models


class Migration(migrations.Migration):
    """A round can end with no winner: Gin Rummy's wall is a drawn round."""

    dependencies = [
        ("games", "0008_idempotency_without_claims"),
    ]

    operations = [
        migrations.AlterField(
            model_name="roundresult",
            name="winner_position",
            field=models.PositiveSmallIntegerField(blank=True, null=True),
        ),
    ]
