"""Usernames unique by what they look like (``User.username_look``): the column, filled in for
every existing account; its unique index comes in 0008, in a transaction of its own (PostgreSQL
alters no table with this one's row updates pending).

Existing accounts whose names look alike keep their names: the oldest gets the look, the later
ones keep none (null) until an admin renames them, and a new account can look like none of them.
"""

from typing import Any

from django.db import migrations, models

from players.blocklist import look_key

BATCH = 1000


def fill_looks(apps: Any, schema_editor: Any) -> None:
    user_model = apps.get_model("players", "User")
    seen: set[str] = set()
    batch = []
    for user in user_model.objects.order_by("pk").only("pk", "username").iterator(BATCH):
        look = look_key(user.username)
        if look in seen:
            continue
        seen.add(look)
        user.username_look = look
        batch.append(user)
        if len(batch) == BATCH:
            user_model.objects.bulk_update(batch, ["username_look"])
            batch = []
    user_model.objects.bulk_update(batch, ["username_look"])


class Migration(migrations.Migration):
    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("players", "0006_user_bot_owner"),
    ]

    operations = [
        migrations.AddField(
            model_name="user",
            name="username_look",
            field=models.CharField(blank=True, editable=False, max_length=64, null=True),
        ),
        migrations.RunPython(fill_looks, migrations.RunPython.noop, elidable=True),
    ]
