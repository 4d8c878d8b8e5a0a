"""Every account made before the social app gets its profile (new ones get it on save)."""

from django.db import migrations

from social.search import search_key


def make_profiles(apps, schema_editor):
    User = apps.get_model("players", "User")
    Profile = apps.get_model("social", "Profile")
    have = set(Profile.objects.values_list("user_id", flat=True))
    batch = []
    for pk, username, display_name in User.objects.values_list("pk", "username", "display_name"):
        if pk not in have:
            batch.append(Profile(user_id=pk, search_name=search_key(display_name or username)))
        if len(batch) >= 1000:
            Profile.objects.bulk_create(batch)
            batch = []
    Profile.objects.bulk_create(batch)


class Migration(migrations.Migration):
    dependencies = [("social", "0001_initial")]

    operations = [migrations.RunPython(make_profiles, migrations.RunPython.noop)]
