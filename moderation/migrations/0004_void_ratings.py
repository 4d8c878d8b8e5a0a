"""Moderators may void a finished match's rating changes (``moderation.void_ratings``): the
permission, and the "moderators" group given it, as migration 0002 gave the others."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

PERMISSIONS = [("moderation", "void_ratings")]


def grant(apps, schema_editor):
    # Permissions are made after all migrations ran (post_migrate): make this one now.
    app_config = apps.get_app_config("moderation")
    app_config.models_module = True
    create_permissions(app_config, apps=apps, verbosity=0)
    app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group = Group.objects.filter(name="moderators").first()
    if group is not None:
        group.permissions.add(
            *(
                Permission.objects.get(content_type__app_label=app, codename=codename)
                for app, codename in PERMISSIONS
            )
        )


def revoke(apps, schema_editor):
    Permission = apps.get_model("auth", "Permission")
    Permission.objects.filter(
        content_type__app_label="moderation", codename="void_ratings"
    ).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("moderation", "0003_labels_in_the_moderators_language"),
    ]

    operations = [
        migrations.AlterModelOptions(
            name="gameintervention",
            options={
                "default_permissions": (),
                "managed": False,
                "permissions": [
                    ("intervene_game", "Can abort games, remove players and force timeouts"),
                    ("view_replay", "Can replay games with every hand and the draw pile"),
                    ("void_ratings", "Can void a finished match's rating changes"),
                ],
            },
        ),
        migrations.RunPython(grant, revoke),
    ]
