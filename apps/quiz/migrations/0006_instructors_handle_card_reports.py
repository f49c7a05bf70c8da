from django.db import migrations

from apps.common.migrationtools import instructors_grant


def grant(apps, schema_editor):
    # Students' reports on cards: instructors read them and mark them dealt with; students make them on the site.
    instructors_grant(apps, app_label="quiz", codenames=["view_cardreport", "change_cardreport"])


class Migration(migrations.Migration):
    dependencies = [("quiz", "0005_card_reports"), ("authoring", "0001_instructors_group")]

    operations = [migrations.RunPython(grant, migrations.RunPython.noop)]
