"""A quiz may ask a student's weakest cards first."""

from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("content", "0010_search_explanations_aliases"),
        ("quiz", "0006_instructors_handle_card_reports"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name="quizsession",
            name="session_order_valid",
        ),
        migrations.AlterField(
            model_name="quizsession",
            name="order",
            field=models.CharField(
                choices=[
                    ("new", "New cards first"),
                    ("due", "Due reviews first"),
                    ("random", "Random"),
                    ("weakest", "Your weakest first"),
                ],
                default="new",
                max_length=10,
            ),
        ),
        migrations.AddConstraint(
            model_name="quizsession",
            constraint=models.CheckConstraint(
                condition=models.Q(("order__in", ["new", "due", "random", "weakest"])), name="session_order_valid"
            ),
        ),
    ]
