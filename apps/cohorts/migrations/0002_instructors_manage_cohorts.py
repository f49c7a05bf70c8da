from django.db import migrations

from apps.common.migrationtools import instructors_grant


def grant(apps, schema_editor):
    # Creating cohorts on the site; each cohort's own instructors alone see and change it.
    instructors_grant(apps, app_label="cohorts", codenames=["add_cohort"])


class Migration(migrations.Migration):
    dependencies = [("cohorts", "0001_initial"), ("authoring", "0001_instructors_group")]

    operations = [migrations.RunPython(grant, migrations.RunPython.noop)]
