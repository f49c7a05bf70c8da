from django.db import migrations


def grant(apps, schema_editor):
    from django.contrib.auth.management import create_permissions

    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, verbosity=0)
        app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name="Instructors")
    # Creating cohorts on the site; each cohort's own instructors alone see and change it.
    group.permissions.add(*Permission.objects.filter(content_type__app_label="cohorts", codename="add_cohort"))


class Migration(migrations.Migration):
    dependencies = [("cohorts", "0001_initial"), ("authoring", "0001_instructors_group")]

    operations = [migrations.RunPython(grant, migrations.RunPython.noop)]
