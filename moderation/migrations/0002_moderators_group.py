"""The "moderators" group, with exactly the permissions moderators need and nothing else.

Moderators look (view permissions) and act through services (the custom permissions). They get
no add, change or delete permission on any model, so the admin's own forms are closed to them:
in particular they cannot edit accounts, groups or permissions, and cannot touch the audit log
(no such permission exists for anybody). Administrators are superusers and need no group.
"""

from django.contrib.auth.management import create_permissions
from django.db import migrations

GROUP = "moderators"
PERMISSIONS = [
    ("players", "view_user"),
    ("games", "view_game"),
    ("moderation", "view_report"),
    ("moderation", "resolve_report"),
    ("moderation", "view_sanction"),
    ("moderation", "sanction_player"),
    ("moderation", "intervene_game"),
    ("moderation", "view_replay"),
    ("moderation", "view_collusionsignal"),
    ("moderation", "view_auditentry"),
]


def create_group(apps, schema_editor):
    # Permissions are normally created after all migrations ran (post_migrate); on a fresh
    # database that is too late for this migration, so create this run's ones now.
    for label in ("players", "games", "moderation"):
        app_config = apps.get_app_config(label)
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name=GROUP)
    wanted = [
        Permission.objects.get(content_type__app_label=app, codename=codename)
        for app, codename in PERMISSIONS
    ]
    group.permissions.set(wanted)


def delete_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name=GROUP).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("moderation", "0001_initial"),
        ("games", "0003_timeout_policy"),
        ("players", "0003_vacation_bank"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(create_group, delete_group)]
