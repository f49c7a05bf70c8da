from django.db import migrations

from apps.common.migrationtools import permissions_ensure

# (model, actions) granted to instructors. Decks are never deleted by instructors;
# a card with answers is protected by the database and by the admin.
GRANTS = {
    "deck": ("view", "add", "change"),
    "card": ("view", "add", "change", "delete"),
    "alias": ("view", "add", "change", "delete"),
    "distractor": ("view", "add", "change", "delete"),
    "keyterm": ("view", "add", "change", "delete"),
    "cardversion": ("view",),
}


def create_group(apps, schema_editor):
    permissions_ensure(apps)
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name="Instructors")
    codenames = [f"{action}_{model}" for model, actions in GRANTS.items() for action in actions]
    group.permissions.set(Permission.objects.filter(content_type__app_label="content", codename__in=codenames))


def remove_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name="Instructors").delete()


class Migration(migrations.Migration):
    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("content", "0001_initial"),
    ]

    operations = [migrations.RunPython(create_group, remove_group)]
