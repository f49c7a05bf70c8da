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
    # Students' reports on cards: instructors read them and mark them dealt with; students make them on the site.
    codenames = ["view_cardreport", "change_cardreport"]
    group.permissions.add(*Permission.objects.filter(content_type__app_label="quiz", codename__in=codenames))


class Migration(migrations.Migration):
    dependencies = [("quiz", "0005_card_reports"), ("authoring", "0001_instructors_group")]

    operations = [migrations.RunPython(grant, migrations.RunPython.noop)]
