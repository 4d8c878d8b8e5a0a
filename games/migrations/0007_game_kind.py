from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0006_idempotency_response_content"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="kind",
            field=models.CharField(default="uno_all_wild", max_length=32),
        ),
    ]
