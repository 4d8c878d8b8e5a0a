"""Moderators see the chat's messages and mutes in the panel (``chat.view_chatmessage``,
``chat.view_chatban``): the "moderators" group is given them, as migration 0002 gave the others.
Deleting messages and muting from chat take the report queue's and the sanctions' permissions."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

PERMISSIONS = [("chat", "view_chatmessage"), ("chat", "view_chatban")]


def grant(apps, schema_editor):
    # Permissions are made after all migrations ran (post_migrate): make these now.
    app_config = apps.get_app_config("chat")
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
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group = Group.objects.filter(name="moderators").first()
    if group is not None:
        group.permissions.remove(
            *Permission.objects.filter(
                content_type__app_label="chat",
                codename__in=[codename for _, codename in PERMISSIONS],
            )
        )


class Migration(migrations.Migration):
    dependencies = [
        ("moderation", "0005_chat_reports"),
        ("chat", "0001_initial"),
    ]

    operations = [migrations.RunPython(grant, revoke)]
