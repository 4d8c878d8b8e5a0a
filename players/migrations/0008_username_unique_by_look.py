from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("players", "0007_user_username_look"),
    ]

    operations = [
        migrations.AddConstraint(
            model_name="user",
            constraint=models.UniqueConstraint(
                fields=("username_look",), name="username_unique_by_look"
            ),
        ),
    ]
