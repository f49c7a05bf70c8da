"""Helpers for data migrations that grant permissions (run with the migration's historical `apps`)."""

from __future__ import annotations


def permissions_ensure(apps) -> None:
    """Creates every model's permissions now: Django makes them only after all migrations, too late to grant."""
    from django.contrib.auth.management import create_permissions

    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, verbosity=0)
        app_config.models_module = None


def instructors_grant(apps, *, app_label: str, codenames: list[str]) -> None:
    """Adds `app_label`'s permissions named `codenames` to the Instructors group (made if missing)."""
    permissions_ensure(apps)
    group, _ = apps.get_model("auth", "Group").objects.get_or_create(name="Instructors")
    permission = apps.get_model("auth", "Permission")
    group.permissions.add(*permission.objects.filter(content_type__app_label=app_label, codename__in=codenames))
